export * from './client';
export * from './schemas';
export { McpLocalError, ResponseError, WireError } from '../protocol/errors';
export type { ConnectionStats, MethodStats } from '../protocol/stats';
export type { Transport, TransportCloseInfo, TransportLog, TransportStats } from '../protocol/transport';
