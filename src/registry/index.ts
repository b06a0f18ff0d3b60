// The registry layer: owns the running servers (one McpClient per entry), applies config
// changes by diffing, restarts crashed servers with back-off, caches their lists. No `vscode`,
// no transport: the caller injects `createTransport` (usually `transportFactory()` of src/transport).
//   const registry = new ServerRegistry({ clientInfo, createTransport: transportFactory(), roots, restart, log });
//   await registry.update(entries, (entry, signal) => resolveEntry(entry, ctx) /* or { blocked: why } */);
//   registry.onDidChange(handle => …); registry.onDidChangeServers(() => …); await registry.dispose();
export * from './serverRegistry';
export * from '../protocol/redaction';
export * from './health';
export * from './connectionStatus';
