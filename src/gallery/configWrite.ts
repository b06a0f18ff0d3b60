// Writes a planned entry into the text of `.vscode/mcp.json` (`servers` + `inputs`), `.mcp.json`
// (`mcpServers`) or a VS Code settings.json (`mcpHost.servers` + `mcpHost.inputs`) with
// edits that touch only the new or updated entry (jsoncMembers.ts), so comments and formatting survive. A
// file that does not parse, a name already taken (or, to update, missing) is an error and nothing
// changes. An entry installed from a registry records where from (config/registrySource.ts).
import { findNodeAtLocation, FormattingOptions, parseTree, ParseError, printParseErrorCode } from 'jsonc-parser';
import { appendMember, replaceValue } from './jsoncMembers';
import type { InstallPlan, PlannedInput } from './installPlan';
import { registrySourceFields } from '../config/registrySource';

export type ConfigFileKind = 'vscode-mcp-json' | 'dot-mcp-json' | 'settings-json';

export class ConfigWriteError extends Error {
  override readonly name = 'ConfigWriteError';
}

export interface WriteOptions {
  /** Replace the entry of the same name, which must exist (an update); otherwise a taken name is an error. */
  readonly replace?: boolean;
  /** The registry it came from: the entry records it (`gallery`, `version`) for update checks. */
  readonly registryUrl?: string;
}

const KEYS: Record<ConfigFileKind, { servers: string; inputs?: string }> = {
  'vscode-mcp-json': { servers: 'servers', inputs: 'inputs' },
  'dot-mcp-json': { servers: 'mcpServers' },
  'settings-json': { servers: 'mcpHost.servers', inputs: 'mcpHost.inputs' },
};

/** The entry as written: the plan's, with its registry source when it came from one. */
export function entryToWrite(plan: InstallPlan, registryUrl?: string): Record<string, unknown> {
  return registryUrl ? { ...plan.entry, ...registrySourceFields({ registryUrl, ...plan.source }) } : plan.entry;
}

/** The inputs of `plan` not yet among `existing` (by id), to append. */
export function newInputs(plan: InstallPlan, existing: readonly unknown[]): PlannedInput[] {
  const ids = new Set(existing.map((i) => (typeof i === 'object' && i !== null ? (i as { id?: unknown }).id : undefined)));
  return plan.inputs.filter((input) => !ids.has(input.id));
}

/** The new text of a config file holding `plan`'s entry (and its inputs, those not already defined). */
export function addPlannedEntry(text: string, kind: ConfigFileKind, plan: InstallPlan, options: WriteOptions = {}): string {
  const source = text.trim() ? text : '{}\n';
  const errors: ParseError[] = [];
  const root = parseTree(source, errors, { allowTrailingComma: true });
  if (errors.length || !root || root.type !== 'object') {
    const first = errors[0];
    throw new ConfigWriteError(first ? `the file does not parse (${printParseErrorCode(first.error)} at offset ${first.offset}): fix it first, nothing was written` : 'the file is not a JSON object: nothing was written');
  }
  const keys = KEYS[kind];
  const present = findNodeAtLocation(root, [keys.servers, plan.key]) !== undefined;
  if (!options.replace && present) throw new ConfigWriteError(`a server named "${plan.key}" is already configured: choose another name, nothing was written`);
  if (options.replace && !present) throw new ConfigWriteError(`no server named "${plan.key}" is configured here any more: nothing was written`);
  const formatting = formattingOf(source);
  const entry = entryToWrite(plan, options.registryUrl);
  // Only the new entry (or the replaced one) changes: comments and the user's formatting stay where they were.
  let out = present ? replaceValue(source, [keys.servers, plan.key], entry, formatting) : appendMember(source, [keys.servers], plan.key, entry, formatting);
  if (keys.inputs && plan.inputs.length) {
    const existing = findNodeAtLocation(parseTree(out)!, [keys.inputs]);
    for (const input of newInputs(plan, (existing?.children ?? []).map((c) => ({ id: findNodeAtLocation(c, ['id'])?.value as unknown })))) {
      out = appendMember(out, [keys.inputs], undefined, input, formatting);
    }
  }
  return out;
}

/** The indentation and line ends the file already uses (two spaces and \n for a new one). */
function formattingOf(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return { insertSpaces: !indent.startsWith('\t'), tabSize: indent.startsWith('\t') ? 1 : indent.length, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}
