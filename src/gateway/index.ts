export { GATEWAY_SECRET_HEADER, McpGateway } from './httpGateway';
export type { GatewayEndpoint, McpGatewayOptions } from './httpGateway';
export type { GatewayFrame, SharedServer } from './serverRelay';
