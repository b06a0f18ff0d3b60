// The registry layer: owns the running servers (one McpClient per stdio entry), applies config
// changes by diffing, restarts crashed servers with back-off, caches their lists. No `vscode`.
//   const registry = new ServerRegistry({ clientInfo, createTransport: stdioTransportFactory(), roots, restart, log });
//   await registry.update(entries, (entry, signal) => resolveEntry(entry, ctx) /* or { blocked: why } */);
//   registry.onDidChange(handle => …); registry.onDidChangeServers(() => …); await registry.dispose();
export * from './serverRegistry';
export * from './stdioTransportFactory';
export * from './logText';
