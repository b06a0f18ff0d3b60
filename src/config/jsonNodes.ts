// Small helpers over jsonc-parser nodes for the config readers: the path of a child in messages
// (`servers.api.oauth.clientId`) and a node described in words ("the string "x"", "an array").
import type { Node } from 'jsonc-parser';

/** The path of `key` under `path`, as messages print it. */
export function child(path: string, key: string): string {
  if (/^[A-Za-z_$][\w$-]*$/.test(key)) return path ? `${path}.${key}` : key;
  return `${path}[${JSON.stringify(key)}]`;
}

/** A node in words, for "must be …, found …" messages. */
export function describe(node: Node): string {
  switch (node.type) {
    case 'string':
      return `the string ${JSON.stringify(node.value)}`;
    case 'number':
    case 'boolean':
      return `${node.type} ${String(node.value)}`;
    case 'null':
      return 'null';
    case 'array':
      return 'an array';
    case 'object':
      return 'an object';
    case 'property':
      return 'a property';
    default:
      return 'a value';
  }
}
