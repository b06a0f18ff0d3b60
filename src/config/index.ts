// The config layer: reads `.vscode/mcp.json`, `.mcp.json` and the `mcpHost.servers` setting into
// ServerEntry lists with exact problem positions, and resolves variables for spawning. No `vscode`.
//   folderSources(folder) → the two file sources of a workspace folder; settingsSource(scope, folder?)
//   loadConfigFile(source) / parseConfigText(text, source) / parseSettingsValue(value, source) → LoadedConfig
//   mergeLoaded([...]) → one LoadedConfig; ids are per source, so names may repeat across sources
//   resolveEntry(entry, ctx) → ResolvedServer: stdio (command, env, cwd) or remote (url, headers);
//   asks ctx.resolveInput for ${input:…}
export * from './types';
export * from './sources';
export * from './parse';
export * from './load';
export * from './variables';
export * from './dotenv';
export * from './fingerprint';
export * from './registrySource';
