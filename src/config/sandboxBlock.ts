// `sandboxEnabled` and the `sandbox` block of a stdio server entry. The shape is VS Code's
// (`filesystem.allowWrite/denyRead/denyWrite`, `network.allowedDomains`), so one mcp.json serves
// both hosts, plus three keys of ours: `filesystem.workspace` ("read" | "write"),
// `filesystem.allowRead` (extra readable paths: `$HOME` is hidden otherwise) and `allowEnv`
// (variables of this process that pass in; everything else is cleared).
// A list of hosts in `allowedDomains` is reached through a filtering proxy: each must be a plain
// host name, an IP address or `*.` and a domain; anything else (a URL, a port) is refused here
// rather than quietly widened.
import type { Node } from 'jsonc-parser';
import { child, describe } from './jsonNodes';
import { DEFAULT_SANDBOX, type SandboxConfig } from './types';

type Props = Map<string, { readonly key: Node; readonly value: Node }>;

/** What the entry reader lends this one: where problems go, and its property reading. */
export interface SandboxBlockReader {
  /** `server "name"`, the start of messages. */
  readonly label: string;
  fail(node: Node, path: string, message: string): void;
  warn(node: Node, path: string, message: string): void;
  properties(node: Node, path: string): Props;
  warnUnknownKeys(props: Props, known: string[], path: string): void;
}

const SANDBOX_KEYS = ['filesystem', 'network', 'allowEnv'];
const FILESYSTEM_KEYS = ['workspace', 'allowRead', 'allowWrite', 'denyRead', 'denyWrite'];
const NETWORK_KEYS = ['allowedDomains', 'deniedDomains'];
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A host name or IPv4 address, optionally `*.` and a domain (subdomains only), or a bracketed IPv6 address. */
const HOST_PATTERN = /^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$|^\[[0-9A-Fa-f:.]+\]$/;

// The default is beside the type (types.ts), so the sandbox policy needs no part of the parser.
export { DEFAULT_SANDBOX } from './types';

/**
 * Reads `sandboxEnabled` (`enabled`, a node or undefined) and the block (`block`: the entry's
 * `sandbox`, else the file's). Undefined when neither is there, or when something is wrong
 * (reported through `reader.fail`, which drops the entry: a sandbox must not run looser than written).
 */
export function readSandbox(reader: SandboxBlockReader, enabled: { node: Node; path: string } | undefined, block: { node: Node; path: string } | undefined): SandboxConfig | undefined {
  const { label } = reader;
  let ok = true;
  const problem = (n: Node, p: string, message: string) => {
    ok = false;
    reader.fail(n, p, message);
  };
  let on = false;
  if (enabled) {
    if (enabled.node.type === 'boolean') on = enabled.node.value === true;
    else problem(enabled.node, enabled.path, `${label}: "sandboxEnabled" must be true or false, found ${describe(enabled.node)}`);
  }
  if (!enabled && !block) return undefined;
  if (!block) return ok ? { enabled: on, ...DEFAULT_SANDBOX } : undefined;

  const { node, path } = block;
  if (node.type !== 'object') {
    problem(node, path, `${label}: "sandbox" must be an object such as {"filesystem": {"allowWrite": ["~/.npm"]}}, found ${describe(node)}`);
    return undefined;
  }
  const props = reader.properties(node, path);
  reader.warnUnknownKeys(props, SANDBOX_KEYS, path);

  const strings = (parent: Props, parentPath: string, key: string, check?: (value: string) => string | undefined): string[] => {
    const prop = parent.get(key);
    if (!prop) return [];
    const at = child(parentPath, key);
    if (prop.value.type !== 'array') return problem(prop.value, at, `${label}: sandbox ${at.slice(path.length + 1)} must be an array of strings, found ${describe(prop.value)}`), [];
    const out: string[] = [];
    (prop.value.children ?? []).forEach((item, i) => {
      const why = item.type !== 'string' || item.value.trim() === '' ? `must be a non-empty string, found ${describe(item)}` : check?.(item.value);
      if (why) problem(item, `${at}[${i}]`, `${label}: sandbox ${at.slice(path.length + 1)}[${i}] ${why}`);
      else out.push(String(item.value).trim());
    });
    return out;
  };
  const object = (key: string): Props | undefined => {
    const prop = props.get(key);
    if (!prop) return undefined;
    if (prop.value.type !== 'object') return problem(prop.value, child(path, key), `${label}: sandbox.${key} must be an object, found ${describe(prop.value)}`), undefined;
    return reader.properties(prop.value, child(path, key));
  };

  const fsPath = child(path, 'filesystem');
  const fsProps = object('filesystem') ?? new Map();
  reader.warnUnknownKeys(fsProps, FILESYSTEM_KEYS, fsPath);
  let workspace: 'read' | 'write' = 'read';
  const ws = fsProps.get('workspace');
  if (ws) {
    if (ws.value.type === 'string' && (ws.value.value === 'read' || ws.value.value === 'write')) workspace = ws.value.value;
    else problem(ws.value, child(fsPath, 'workspace'), `${label}: sandbox.filesystem.workspace must be "read" or "write", found ${describe(ws.value)}`);
  }
  const filesystem = {
    workspace,
    allowRead: strings(fsProps, fsPath, 'allowRead'),
    allowWrite: strings(fsProps, fsPath, 'allowWrite'),
    denyRead: strings(fsProps, fsPath, 'denyRead'),
    denyWrite: strings(fsProps, fsPath, 'denyWrite'),
  };

  const netPath = child(path, 'network');
  const netProps = object('network') ?? new Map();
  reader.warnUnknownKeys(netProps, NETWORK_KEYS, netPath);
  const domains = strings(netProps, netPath, 'allowedDomains', (host) => (host === '*' || HOST_PATTERN.test(host) ? undefined : `must be a host name such as "api.github.com" or "*.github.com" (no scheme, port or path), found ${JSON.stringify(host)}`));
  let network: SandboxConfig['network'] = 'none';
  if (domains.includes('*')) {
    if (domains.length > 1) reader.warn(netProps.get('allowedDomains')!.value, child(netPath, 'allowedDomains'), `${label}: "*" in sandbox.network.allowedDomains allows every host; the other entries add nothing`);
    network = 'all';
  } else if (domains.length > 0) {
    network = 'hosts';
  }
  if (netProps.has('deniedDomains')) {
    reader.warn(netProps.get('deniedDomains')!.key, child(netPath, 'deniedDomains'), `${label}: sandbox.network.deniedDomains is not supported yet and is ignored (list the hosts to allow in allowedDomains instead)`);
  }

  const allowEnv = strings(props, path, 'allowEnv', (name) => (ENV_NAME.test(name) ? undefined : `must be a variable name such as "GITHUB_TOKEN", found ${JSON.stringify(name)}`));
  return ok ? { enabled: on, filesystem, network, ...(network === 'hosts' ? { allowedDomains: domains.map((d) => d.toLowerCase()) } : {}), allowEnv } : undefined;
}
