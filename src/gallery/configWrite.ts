// Writes a planned entry into the text of `.vscode/mcp.json` (`servers` + `inputs`) or
// `.mcp.json` (`mcpServers`) with jsonc-parser edits, so comments and formatting survive.
// A file that does not parse, or a name already taken, is an error and nothing changes.
import { applyEdits, findNodeAtLocation, FormattingOptions, modify, parseTree, ParseError, printParseErrorCode } from 'jsonc-parser';
import type { InstallPlan } from './installPlan';

export type ConfigFileKind = 'vscode-mcp-json' | 'dot-mcp-json';

export class ConfigWriteError extends Error {
  override readonly name = 'ConfigWriteError';
}

/** The new text of a config file holding `plan`'s entry (and its inputs, those not already defined). */
export function addPlannedEntry(text: string, kind: ConfigFileKind, plan: InstallPlan, options: { replace?: boolean } = {}): string {
  const source = text.trim() ? text : '{}\n';
  const errors: ParseError[] = [];
  const root = parseTree(source, errors, { allowTrailingComma: true });
  if (errors.length || !root || root.type !== 'object') {
    const first = errors[0];
    throw new ConfigWriteError(first ? `the file does not parse (${printParseErrorCode(first.error)} at offset ${first.offset}): fix it first, nothing was written` : 'the file is not a JSON object: nothing was written');
  }
  const serversKey = kind === 'vscode-mcp-json' ? 'servers' : 'mcpServers';
  if (!options.replace && findNodeAtLocation(root, [serversKey, plan.key])) {
    throw new ConfigWriteError(`a server named "${plan.key}" is already configured: choose another name, nothing was written`);
  }
  const formatting = formattingOf(source);
  let out = applyEdits(source, modify(source, [serversKey, plan.key], plan.entry, { formattingOptions: formatting }));
  if (kind === 'vscode-mcp-json' && plan.inputs.length) {
    const existing = findNodeAtLocation(parseTree(out)!, ['inputs']);
    const ids = new Set((existing?.children ?? []).map((c) => findNodeAtLocation(c, ['id'])?.value));
    if (!existing) out = applyEdits(out, modify(out, ['inputs'], [], { formattingOptions: formatting }));
    for (const input of plan.inputs) {
      if (ids.has(input.id)) continue;
      out = applyEdits(out, modify(out, ['inputs', -1], input, { formattingOptions: formatting, isArrayInsertion: true }));
    }
  }
  return out;
}

/** The indentation and line ends the file already uses (two spaces and \n for a new one). */
function formattingOf(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return { insertSpaces: !indent.startsWith('\t'), tabSize: indent.startsWith('\t') ? 1 : indent.length, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}
