// JSON Pointers (RFC 6901): where a value or a subschema is, as "/edits/0/oldText" or "#/$defs/Point".
import { isRecord } from '../protocol/jsonShape';

/** Reads a JSON Pointer fragment ("#/$defs/a~1b") against the root schema. */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(node) && /^\d+$/.test(token)) node = node[Number(token)];
    else if (isRecord(node) && Object.prototype.hasOwnProperty.call(node, token)) node = node[token];
    else return undefined;
  }
  return node;
}

/** True for a `$ref` that would need the network or another document: never followed. */
export function isRemoteRef(ref: string): boolean {
  return !ref.startsWith('#');
}

/** Escapes one reference token ("a/b" → "a~1b"). */
export function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The pointer of a child: an array index or an escaped property name. */
export function childPointer(parent: string, token: string | number): string {
  return `${parent}/${typeof token === 'number' ? token : escapePointer(token)}`;
}
