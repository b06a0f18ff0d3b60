// The settings format: the servers (and inputs) of MCP Host's settings, read from a settings.json
// text with exact positions, or from the value VS Code's configuration API hands over (no positions).
import type { ConfigSource, LoadedConfig } from './types';
import { describe, syntheticNode } from './jsonNodes';
import { MAX_NESTING, tooDeep, valueNestedDeeperThan } from './jsonText';
import { Reader } from './configReader';

/**
 * Reads the servers (and inputs) out of a settings.json text, with exact positions: the
 * `mcpHost.servers` key by default; `inputsKey` names an optional inputs array.
 */
export function parseSettingsText(text: string, source: ConfigSource, options: { serversKey?: string; inputsKey?: string } = {}): LoadedConfig {
  const serversKey = options.serversKey ?? 'mcpHost.servers';
  const reader = new Reader(source, text);
  const root = reader.parse();
  if (!root || root.type !== 'object') {
    if (root) reader.error(root, '', `expected an object at the top of the settings file, found ${describe(root)}`);
    return reader.result([], []);
  }
  const props = reader.properties(root, '', true);
  const inputs = options.inputsKey && props.has(options.inputsKey) ? reader.readInputs(props.get(options.inputsKey)!.value, options.inputsKey) : undefined;
  const servers = props.get(serversKey);
  const entries = servers ? reader.readServers(servers.value, serversKey, inputs) : [];
  return reader.result(entries, inputs ? [...inputs.defs.values()].map((d) => d.def) : []);
}

/**
 * Reads the `mcpHost.servers` setting handed over as a value (what VS Code's configuration API
 * returns). Positions are unknown: problems have line/column 0 and a JSON path.
 */
export function parseSettingsValue(servers: unknown, source: ConfigSource, inputs?: unknown, pathPrefix = 'mcpHost.servers'): LoadedConfig {
  const reader = new Reader(source, undefined);
  for (const [value, at] of [[inputs, 'mcpHost.inputs'], [servers, pathPrefix]] as const) {
    if (!valueNestedDeeperThan(value, MAX_NESTING)) continue;
    reader.push({ offset: -1, length: 0 }, at, tooDeep(), 'error', 'syntax');
    return reader.result([], []);
  }
  const inputDefs = inputs === undefined ? undefined : reader.readInputs(syntheticNode(inputs), 'mcpHost.inputs');
  const entries = servers === undefined || servers === null ? [] : reader.readServers(syntheticNode(servers), pathPrefix, inputDefs);
  return reader.result(entries, inputDefs ? [...inputDefs.defs.values()].map((d) => d.def) : []);
}
