// Parses the config formats into ServerEntry lists: `.vscode/mcp.json` and `.mcp.json` here,
// settings in settingsFormat.ts, both read by the shared Reader (configReader.ts). Never throws: every fault becomes a
// ConfigProblem at the exact position of the offending node, and one bad entry never keeps the
// others from loading. A file with a JSONC syntax error loads no servers at all, so that a
// half-typed entry is never started (the caller may keep the previous servers of that file).
import type { ConfigSource, LoadedConfig } from './types';
import { describe } from './jsonNodes';
import { Reader } from './configReader';
import { parseSettingsText } from './settingsFormat';

// The formats' entry points and the nesting cap, named here for the callers (one import path, as before the split).
export { parseSettingsText, parseSettingsValue } from './settingsFormat';
export { MAX_NESTING } from './jsonText';

/**
 * Parses the text of a config file: `.vscode/mcp.json` (`{ servers, inputs }`) or `.mcp.json`
 * (`{ mcpServers }`), as `source.kind` says; `settings` sources are read as a settings.json text
 * (see `parseSettingsText`). Comments and trailing commas are allowed; an empty file is empty.
 */
export function parseConfigText(text: string, source: ConfigSource): LoadedConfig {
  if (source.kind === 'settings') return parseSettingsText(text, source);
  const reader = new Reader(source, text);
  const root = reader.parse();
  if (!root) return reader.result([], []);
  if (root.type !== 'object') {
    reader.error(root, '', `expected an object at the top of the file, found ${describe(root)}`);
    return reader.result([], []);
  }
  const props = reader.properties(root, '');
  const wanted = source.kind === 'vscode-mcp-json' ? 'servers' : 'mcpServers';
  const other = source.kind === 'vscode-mcp-json' ? 'mcpServers' : 'servers';
  let servers = props.get(wanted);
  let serversKey = wanted;
  if (!servers && props.has(other)) {
    // A config pasted from the other format: read it anyway, and say so.
    servers = props.get(other)!;
    serversKey = other;
    reader.warning(servers.key, other, `this file's format calls the server map "${wanted}"; "${other}" was read instead`);
  } else if (!servers && props.size > 0 && !(source.kind === 'vscode-mcp-json' && props.has('inputs'))) {
    reader.warning(root, '', `no "${wanted}" property: this file defines no servers`);
  }
  // VS Code's place for the sandbox policy: one block for every server of the file that enables it.
  const fileSandbox = props.get('sandbox');
  if (fileSandbox) reader.fileSandbox = { node: fileSandbox.value, path: 'sandbox' };
  const inputs = source.kind === 'vscode-mcp-json' && props.has('inputs') ? reader.readInputs(props.get('inputs')!.value, 'inputs') : undefined;
  const entries = servers ? reader.readServers(servers.value, serversKey, inputs) : [];
  return reader.result(entries, inputs ? [...inputs.defs.values()].map((d) => d.def) : []);
}

/** Concatenates loaded configs (entries keep their per-source ids, so names may repeat). */
export function mergeLoaded(configs: readonly LoadedConfig[]): LoadedConfig {
  return {
    servers: configs.flatMap((c) => c.servers),
    inputs: configs.flatMap((c) => c.inputs),
    problems: configs.flatMap((c) => c.problems),
  };
}
