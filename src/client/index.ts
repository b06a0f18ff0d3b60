export * from './client';
export * from './schemas';
export { McpLocalError, ResponseError, WireError } from '../protocol/errors';
export type { ConnectionStats, MethodStats } from '../protocol/stats';
export { TransportCloseReason } from '../protocol/transport';
export type { HttpTransportStats, OutboundFrame, OutboundKind, ProcessFacts, Transport, TransportCloseInfo, TransportLog, TransportStats } from '../protocol/transport';
export * from './era';
export * from './tasks';
