// The transport layer: framing, process lifecycle, the stdio and HTTP transports. No `vscode` here.
export { StdioTransport, type StdioTransportOptions } from './stdio';
export { LineDecoder, DEFAULT_MAX_MESSAGE_BYTES, type LineDecoderOptions, type LineDecoderSink, type LineDecoderStats } from './lineDecoder';
export { TextLineSplitter, DEFAULT_MAX_LINE_CHARS } from './textLineSplitter';
export { ProcessTree, isPidAlive, type ProcessInfo } from './processTree';
export { resolveCommand, mergeEnv, searchPath, getEnv, type ProcessEnv, type ResolveCommandOptions } from './commandResolver';
export { StreamableHttpTransport } from './streamableHttp';
export { SseTransport } from './sse';
export { createHttpTransport, HttpFallbackTransport, type CreateHttpTransportOptions, type HttpTransportMode } from './httpTransport';
export { type HttpTransportOptions, type AuthProvider, type AuthChallenge } from './httpChannel';
export { transportFactory, envOverlay, type TransportFactoryOptions } from './transportFactory';
