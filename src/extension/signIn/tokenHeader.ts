// The config edit behind "Set Token" (setToken.ts), free of `vscode` so node --test can load it.
import { applyEdits, findNodeAtLocation, modify, parseTree } from 'jsonc-parser';
import type { InputDefinition } from '../../config/types';

/** The input id for a server's token: its name in the characters an input id may hold. */
export function tokenInputId(serverName: string): string {
  return `${serverName.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'server'}-token`;
}

/**
 * The edited text of a config file: the entry `name` (under `servers` or `mcpServers`) sends
 * `Authorization: Bearer ${input:<id>}`, and `inputs` holds a password input of that id.
 * Undefined when the entry is not in the file. Comments and formatting elsewhere are kept.
 */
export function withTokenHeader(text: string, name: string, input: InputDefinition): string | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true });
  if (!root) return undefined;
  const key = findNodeAtLocation(root, ['servers', name]) ? 'servers' : findNodeAtLocation(root, ['mcpServers', name]) ? 'mcpServers' : undefined;
  if (!key) return undefined;
  const formatting = { formattingOptions: { insertSpaces: true, tabSize: 2 } };
  // Another spelling of the header would be sent beside ours: replaced.
  const headers = findNodeAtLocation(root, [key, name, 'headers']);
  let out = text;
  for (const child of headers?.children ?? []) {
    const header = child.children?.[0]?.value;
    if (typeof header === 'string' && header.toLowerCase() === 'authorization' && header !== 'Authorization') out = applyEdits(out, modify(out, [key, name, 'headers', header], undefined, formatting));
  }
  out = applyEdits(out, modify(out, [key, name, 'headers', 'Authorization'], `Bearer \${input:${input.id}}`, formatting));
  const inputs = findNodeAtLocation(parseTree(out, [], { allowTrailingComma: true })!, ['inputs']);
  const index = inputs?.children?.findIndex((c) => findNodeAtLocation(c, ['id'])?.value === input.id) ?? -1;
  if (index >= 0) out = applyEdits(out, modify(out, ['inputs', index], input, formatting));
  else out = applyEdits(out, modify(out, ['inputs', inputs?.children?.length ?? 0], input, { ...formatting, isArrayInsertion: true }));
  return out;
}
