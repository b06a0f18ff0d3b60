// Small helpers over jsonc-parser nodes for the config readers: the path of a child in messages
// (`servers.api.oauth.clientId`), a node described in words ("the string "x"", "an array"), the
// string values under a node, and a node tree for a plain value (settings handed over as values).
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

/** Every string value under `node`, with its path. */
export function stringNodes(node: Node, path: string): { node: Node; path: string }[] {
  const out: { node: Node; path: string }[] = [];
  const walk = (n: Node, p: string) => {
    if (n.type === 'string') out.push({ node: n, path: p });
    else if (n.type === 'array') (n.children ?? []).forEach((c, i) => walk(c, `${p}[${i}]`));
    else if (n.type === 'object')
      for (const prop of n.children ?? []) {
        const [k, v] = prop.children ?? [];
        if (k && v) walk(v, child(p, String(k.value)));
      }
  };
  walk(node, path);
  return out;
}

/** A jsonc-parser node tree for a plain value, without positions (offset -1). */
export function syntheticNode(value: unknown, parent?: Node): Node {
  const node: { type: Node['type']; value?: unknown; offset: number; length: number; parent?: Node; children?: Node[] } = { type: 'null', offset: -1, length: 0, parent };
  if (Array.isArray(value)) {
    node.type = 'array';
    node.children = value.map((v) => syntheticNode(v, node as Node));
  } else if (value !== null && typeof value === 'object') {
    node.type = 'object';
    node.children = Object.entries(value as Record<string, unknown>).map(([k, v]) => {
      const prop: { type: 'property'; offset: number; length: number; parent: Node; children: Node[] } = { type: 'property', offset: -1, length: 0, parent: node as Node, children: [] };
      prop.children.push({ type: 'string', value: k, offset: -1, length: 0, parent: prop as Node }, syntheticNode(v, prop as Node));
      return prop as Node;
    });
  } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    node.type = typeof value as 'string' | 'number' | 'boolean';
    node.value = value;
  }
  return node as Node;
}
