// The reader every config format shares: the JSONC tree with exact positions (line and column of
// each problem), the nesting cap, and the server entries and inputs read field by field, each
// fault a ConfigProblem at its node. The formats (parse.ts, settingsFormat.ts) say where in a
// file the servers and inputs are; this reads them.
import { PROTOCOL_PREFERENCES, ProtocolPreference, isProtocolPreference } from '../client/era';
import { Node, ParseError, findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode } from 'jsonc-parser';
import { fingerprintOf } from './fingerprint';
import { entryId } from './sources';
import { ConfigProblem, ConfigSource, DevOptions, InputDefinition, LoadedConfig, OAuthClientConfig, RemoteServerConfig, SandboxConfig, ServerConfig, ServerEntry, StdioServerConfig } from './types';
import { VariableDialect, checkVariableName, dialectFor, findVariables } from './variables';
import { debugTypeOf } from './debugLaunch';
import { child, describe, stringNodes } from './jsonNodes';
import { LineIndex, MAX_NESTING, SYNTAX_MESSAGES, textNestedDeeperThan, tooDeep } from './jsonText';
import { readOAuthBlock, secretOAuthFields } from './oauthBlock';
import { readSandbox } from './sandboxBlock';
import { registrySourceOf } from './registrySource';

interface Property {
  readonly key: Node;
  readonly value: Node;
}

/**
 * An object being read (a server entry or an input), for the shared field readers: its
 * properties and where its problems go. `ok` turns false on the first error (the object is then dropped).
 */
interface ObjectReading {
  /** `server "name"` or `input "id"`, the start of its messages. */
  readonly label: string;
  /** Where a missing property is reported: a server's name, an input's object. */
  readonly anchor: Node;
  readonly path: string;
  readonly props: Map<string, Property>;
  /** The server the problems belong to; undefined for an input. */
  readonly serverName?: string;
  ok: boolean;
}

interface InputTable {
  readonly defs: Map<string, { def: InputDefinition; raw: unknown }>;
}

const STDIO_KEYS = ['type', 'command', 'args', 'env', 'envFile', 'cwd', 'sandboxEnabled', 'sandbox'];
const REMOTE_KEYS = ['type', 'url', 'headers', 'oauth'];
// RFC 9110 token characters.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const INPUT_KEYS = ['id', 'type', 'description', 'password', 'options', 'default'];
// Properties other hosts define: never warned about, never near-miss matched.
const FOREIGN_KEYS = new Set(['dev', 'gallery', 'version', 'disabled', 'autoApprove', 'alwaysAllow', 'timeout', 'transportType', 'description', 'name', 'oauth', 'enabled']);
/** Keys of any server entry, whatever its kind, read apart from the transport's (readTimeout, readProtocol). */
const ENTRY_KEYS = ['protocolVersion', 'dev'];

export class Reader {
  private readonly problems: ConfigProblem[] = [];
  private readonly lines: LineIndex | undefined;
  private readonly dialect: VariableDialect;
  /** The file's top-level `sandbox` block (VS Code's place), used by entries without their own. */
  fileSandbox: { readonly node: Node; readonly path: string } | undefined;

  constructor(
    readonly source: ConfigSource,
    private readonly text: string | undefined,
  ) {
    this.lines = text === undefined ? undefined : new LineIndex(text);
    this.dialect = dialectFor(source);
  }

  /** Parses the text; on any syntax error, or nesting too deep to walk, reports it and returns undefined. */
  parse(): Node | undefined {
    const deep = textNestedDeeperThan(this.text ?? '', MAX_NESTING);
    if (deep !== undefined) {
      this.push({ offset: deep, length: 1 }, '', tooDeep(), 'error', 'syntax');
      return undefined;
    }
    const errors: ParseError[] = [];
    const root = parseTree(this.text ?? '', errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
    if (errors.length) {
      for (const e of errors) {
        const code = printParseErrorCode(e.error);
        this.push({ offset: e.offset, length: e.length }, '', `syntax error: ${SYNTAX_MESSAGES[code] ?? code}`, 'error', 'syntax');
      }
      return undefined;
    }
    return root;
  }

  result(servers: ServerEntry[], inputs: InputDefinition[]): LoadedConfig {
    // In file order (a stable sort: problems without a position keep theirs).
    return { servers, inputs, problems: [...this.problems].sort((a, b) => a.offset - b.offset) };
  }

  error(node: Node, path: string, message: string, serverName?: string): void {
    this.push(node, path, message, 'error', 'schema', serverName);
  }

  warning(node: Node, path: string, message: string, serverName?: string): void {
    this.push(node, path, message, 'warning', 'schema', serverName);
  }

  push(
    span: { offset: number; length: number },
    path: string,
    message: string,
    severity: 'error' | 'warning',
    kind: 'syntax' | 'schema',
    serverName?: string,
  ): void {
    const known = this.lines !== undefined && span.offset >= 0;
    const pos = known ? this.lines!.at(span.offset) : { line: 0, column: 0 };
    this.problems.push({
      source: this.source,
      severity,
      kind,
      message,
      line: pos.line,
      column: pos.column,
      offset: known ? span.offset : -1,
      length: known ? span.length : 0,
      path,
      ...(serverName === undefined ? {} : { serverName }),
    });
  }

  /** The properties of an object node; a repeated key is reported and the last one wins (as in JSON.parse). */
  properties(node: Node, path: string, quiet = false, serverName?: string): Map<string, Property> {
    const map = new Map<string, Property>();
    for (const prop of node.children ?? []) {
      const [key, value] = prop.children ?? [];
      if (!key || !value) continue;
      const name = String(key.value);
      if (map.has(name) && !quiet) this.warning(key, child(path, name), `duplicate property "${name}": the last one wins`, serverName);
      map.delete(name);
      map.set(name, { key, value });
    }
    return map;
  }

  readInputs(node: Node, path: string): InputTable {
    const defs = new Map<string, { def: InputDefinition; raw: unknown }>();
    if (node.type !== 'array') {
      this.error(node, path, `"inputs" must be an array, found ${describe(node)}`);
      return { defs };
    }
    (node.children ?? []).forEach((item, i) => {
      const at = `${path}[${i}]`;
      const def = this.readInput(item, at);
      if (!def) return;
      if (defs.has(def.id)) {
        this.error(item, at, `duplicate input id "${def.id}": the first definition is used`);
        return;
      }
      defs.set(def.id, { def, raw: getNodeValue(item) });
    });
    return { defs };
  }

  private readInput(node: Node, path: string): InputDefinition | undefined {
    if (node.type !== 'object') {
      this.error(node, path, `an input must be an object, found ${describe(node)}`);
      return undefined;
    }
    const props = this.properties(node, path);
    const id = props.get('id');
    const label = id && id.value.type === 'string' ? `input "${id.value.value}"` : 'input';
    const input: ObjectReading = { label, anchor: node, path, props, ok: true };
    const fail = (n: Node, p: string, message: string) => this.fail(input, n, p, message);
    if (!id) fail(node, path, 'input: missing "id"');
    else if (id.value.type !== 'string' || id.value.value === '') fail(id.value, child(path, 'id'), `input "id" must be a non-empty string, found ${describe(id.value)}`);
    const type = props.get('type');
    if (!type) fail(node, path, `${label}: missing "type" ("promptString" or "pickString")`);
    else if (type.value.value !== 'promptString' && type.value.value !== 'pickString') {
      fail(
        type.value,
        child(path, 'type'),
        type.value.value === 'command'
          ? `${label}: "command" inputs are not supported; use "promptString" or "pickString"`
          : `${label}: unknown type ${display(type.value)} (expected "promptString" or "pickString")`,
      );
    }
    const description = this.optionalString(input, 'description');
    const dflt = this.optionalString(input, 'default');
    let password: boolean | undefined;
    const pw = props.get('password');
    if (pw) {
      if (pw.value.type !== 'boolean') fail(pw.value, child(path, 'password'), `${label}: "password" must be true or false, found ${describe(pw.value)}`);
      else password = pw.value.value;
    }
    const options = this.stringArray(input, 'options', (o, at) => {
      if (o.type === 'string') return o.value;
      if (o.type === 'object') {
        // VS Code also accepts { label, value }: the value is what gets substituted.
        const v = this.properties(o, at).get('value');
        if (v && v.value.type === 'string') return v.value.value;
        fail(o, at, `${label}: an option object needs a string "value"`);
      } else fail(o, at, `${label}: options must be strings, found ${describe(o)}`);
      return undefined;
    });
    if (type?.value.value === 'pickString' && !props.has('options')) fail(node, path, `${label}: a pickString input needs "options"`);
    this.warnUnknownKeys(props, INPUT_KEYS, path);
    if (!input.ok) return undefined;
    if (type!.value.value === 'pickString' && dflt !== undefined && options && !options.includes(dflt)) {
      this.warning(props.get('default')!.value, child(path, 'default'), `${label}: the default ${JSON.stringify(dflt)} is not one of the options`);
    }
    const def: InputDefinition = {
      id: id!.value.value,
      type: type!.value.value,
      ...(description !== undefined ? { description } : {}),
      ...(password !== undefined ? { password } : {}),
      ...(options !== undefined ? { options } : {}),
      ...(dflt !== undefined ? { default: dflt } : {}),
    };
    return def;
  }

  readServers(node: Node, path: string, inputs: InputTable | undefined): ServerEntry[] {
    if (node.type !== 'object') {
      this.error(node, path, `"${path}" must be an object mapping server names to definitions, found ${describe(node)}`);
      return [];
    }
    const entries: ServerEntry[] = [];
    for (const [name, { key, value }] of this.properties(node, path)) {
      const at = child(path, name);
      if (name.trim() === '') {
        this.error(key, at, 'a server name must not be empty');
        continue;
      }
      const config = this.readServer(name, key, value, at);
      if (!config) continue;
      const referenced = this.inputReferences(name, value, at, inputs);
      if (!this.secretInputIsPassword(name, config, value, at, inputs)) continue;
      // The file's sandbox block is part of what the user consents to for an entry that uses it.
      const fileSandbox = config.type === 'stdio' && config.sandbox && value.type === 'object' && !this.properties(value, at, true).has('sandbox') && this.fileSandbox;
      const raw = fileSandbox ? { entry: getNodeValue(value), sandbox: getNodeValue(fileSandbox.node) } : getNodeValue(value);
      const usedDefs = referenced.filter((id) => inputs?.defs.has(id)).map((id) => inputs!.defs.get(id)!);
      const timeoutSeconds = this.readTimeout(value, at, name);
      const protocolVersion = this.readProtocol(value, at, name);
      const dev = this.readDev(value, at, name);
      const registrySource = registrySourceOf(getNodeValue(value));
      entries.push({
        id: entryId(this.source, name),
        name,
        source: this.source,
        config,
        ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
        ...(protocolVersion !== undefined ? { protocolVersion } : {}),
        ...(dev !== undefined ? { dev } : {}),
        ...(registrySource ? { registrySource } : {}),
        fingerprint: fingerprintOf(raw, usedDefs.map((d) => d.raw)),
        inputs: usedDefs.map((d) => d.def),
      });
    }
    return entries;
  }

  /**
   * A client secret from an input must come from one with `password: true`: only those are kept
   * in secret storage and masked while typed. False (reported) otherwise; the entry is dropped.
   */
  private secretInputIsPassword(name: string, config: ServerConfig, node: Node, path: string, inputs: InputTable | undefined): boolean {
    if (config.type === 'stdio' || !config.oauth) return true;
    let ok = true;
    for (const { keys, value } of secretOAuthFields(config.oauth)) {
      const id = value.match(/^\$\{input:([^}]+)\}$/)?.[1];
      if (id === undefined || inputs?.defs.get(id)?.def.password === true) continue;
      const at = keys.reduce((p, k) => child(p, k), child(path, 'oauth'));
      const where = findNodeAtLocation(node, ['oauth', ...keys]) ?? node;
      this.error(where, at, `server "${name}": oauth.${keys.join('.')} uses input "${id}", which must be defined in "inputs" with "password": true (only those are kept in secret storage)`, name);
      ok = false;
    }
    return ok;
  }

  /** `timeout` in seconds (Cline's key): the server's request timeout; anything but a positive number is warned about and ignored. */
  private readTimeout(node: Node, path: string, name: string): number | undefined {
    const prop = this.properties(node, path, true).get('timeout');
    if (!prop) return undefined;
    const v = prop.value;
    if (v.type === 'number' && Number.isFinite(v.value) && v.value > 0) return v.value as number;
    this.warning(v, child(path, 'timeout'), `server "${name}": "timeout" must be a positive number of seconds, found ${describe(v)}; it is ignored`, name);
    return undefined;
  }

  /** `protocolVersion`: pins the server's era or version ("auto", "legacy", "modern" or a version); anything else is warned about and ignored. */
  private readProtocol(node: Node, path: string, name: string): ProtocolPreference | undefined {
    const prop = this.properties(node, path, true).get('protocolVersion');
    if (!prop) return undefined;
    const v = prop.value;
    if (v.type === 'string' && isProtocolPreference(v.value)) return v.value;
    this.warning(v, child(path, 'protocolVersion'), `server "${name}": "protocolVersion" must be one of ${PROTOCOL_PREFERENCES.map((p) => JSON.stringify(p)).join(', ')}, found ${describe(v)}; it is ignored`, name);
    return undefined;
  }

  /** `dev`: `watch` (a glob) and `debug` (`{ "type": "node" }`); a malformed part is warned about and ignored. */
  private readDev(node: Node, path: string, name: string): DevOptions | undefined {
    const prop = this.properties(node, path, true).get('dev');
    if (!prop) return undefined;
    const at = child(path, 'dev');
    if (prop.value.type !== 'object') {
      this.warning(prop.value, at, `server "${name}": "dev" must be an object such as {"watch": "src/**/*.ts"}, found ${describe(prop.value)}; it is ignored`, name);
      return undefined;
    }
    const fields = this.properties(prop.value, at, true);
    const watch = fields.get('watch')?.value;
    const debug = fields.get('debug')?.value;
    let watchGlob: string | undefined;
    if (watch) {
      if (watch.type === 'string' && String(watch.value).trim() !== '') watchGlob = String(watch.value);
      else this.warning(watch, child(at, 'watch'), `server "${name}": "dev.watch" must be a glob such as "src/**/*.js", found ${describe(watch)}; it is ignored`, name);
    }
    let debugType: string | undefined;
    if (debug) {
      const type = debug.type === 'object' ? this.properties(debug, child(at, 'debug'), true).get('type')?.value : undefined;
      if (type?.type === 'string' && debugTypeOf(String(type.value)) !== undefined) debugType = String(type.value);
      else this.warning(debug, child(at, 'debug'), `server "${name}": "dev.debug" must be {"type": "node"}, {"type": "debugpy"} or {"type": "python"}; it is ignored`, name);
    }
    if (watchGlob === undefined && debugType === undefined) return undefined;
    return { ...(watchGlob !== undefined ? { watch: watchGlob } : {}), ...(debugType !== undefined ? { debug: { type: debugType } } : {}) };
  }

  /** One server entry: its kind (`type`, else `url` means http), then the reader of that kind. */
  private readServer(name: string, keyNode: Node, node: Node, path: string): ServerConfig | undefined {
    const label = `server "${name}"`;
    if (node.type !== 'object') {
      this.error(node, path, `${label} must be an object, found ${describe(node)}`, name);
      return undefined;
    }
    const props = this.properties(node, path, false, name);
    const typeProp = props.get('type');
    let kind: ServerConfig['type'];
    if (typeProp) {
      const t = typeProp.value;
      const known: Record<string, ServerConfig['type']> = { stdio: 'stdio', http: 'http', sse: 'sse' };
      // The names other hosts use for the streamable HTTP transport in .mcp.json.
      if (this.source.kind === 'dot-mcp-json') Object.assign(known, { 'streamable-http': 'http', streamableHttp: 'http', streamable_http: 'http' });
      if (t.type === 'string' && Object.prototype.hasOwnProperty.call(known, t.value)) kind = known[t.value];
      else {
        this.error(t, child(path, 'type'), `${label}: unknown type ${display(t)} (expected "stdio", "http" or "sse")`, name);
        return undefined;
      }
    } else kind = props.has('url') && !props.has('command') ? 'http' : 'stdio';
    const entry: ObjectReading = { label, anchor: keyNode, path, props, serverName: name, ok: true };
    const config = kind === 'stdio' ? this.readStdioServer(entry) : this.readRemoteServer(entry, kind);
    // Keys of the other kind are ignored: say so, at the key.
    for (const key of kind === 'stdio' ? REMOTE_KEYS : STDIO_KEYS) {
      if (key !== 'type' && props.has(key)) this.warning(props.get(key)!.key, child(path, key), `${label}: "${key}" is ignored for a${kind === 'stdio' ? ' stdio' : ` ${kind}`} server`, name);
    }
    this.warnUnknownKeys(props, [...STDIO_KEYS, ...REMOTE_KEYS, ...ENTRY_KEYS], path, name);
    this.checkVariables(props, kind === 'stdio' ? STDIO_KEYS : REMOTE_KEYS, path, name);
    return entry.ok ? config : undefined;
  }

  /** Reports an error in the object being read; the object is then dropped. */
  private fail(reading: ObjectReading, node: Node, path: string, message: string): void {
    reading.ok = false;
    this.error(node, path, message, reading.serverName);
  }

  // ---- field readers shared by servers and inputs: each reports a wrong value at the value ----

  /** An optional string property; anything else is an error. */
  private optionalString(reading: ObjectReading, key: string): string | undefined {
    const p = reading.props.get(key);
    if (!p) return undefined;
    if (p.value.type !== 'string') {
      this.fail(reading, p.value, child(reading.path, key), `${reading.label}: "${key}" must be a string, found ${describe(p.value)}`);
      return undefined;
    }
    return p.value.value;
  }

  /** An optional array of strings; `readItem` turns one element into a string (or reports it and returns undefined). */
  private stringArray(reading: ObjectReading, key: string, readItem: (item: Node, path: string, index: number) => string | undefined): string[] | undefined {
    const p = reading.props.get(key);
    if (!p) return undefined;
    if (p.value.type !== 'array') {
      this.fail(reading, p.value, child(reading.path, key), `${reading.label}: "${key}" must be an array of strings, found ${describe(p.value)}`);
      return undefined;
    }
    const out: string[] = [];
    (p.value.children ?? []).forEach((item, i) => {
      const value = readItem(item, `${child(reading.path, key)}[${i}]`, i);
      if (value !== undefined) out.push(value);
    });
    return out;
  }

  /** An optional object of named values; `readValue` reads one (or reports it and returns undefined). */
  private namedValues<T>(reading: ObjectReading, key: string, readValue: (name: string, nameNode: Node, value: Node, path: string) => T | undefined): Record<string, T> | undefined {
    const p = reading.props.get(key);
    if (!p) return undefined;
    if (p.value.type !== 'object') {
      this.fail(reading, p.value, child(reading.path, key), `${reading.label}: "${key}" must be an object, found ${describe(p.value)}`);
      return undefined;
    }
    const out: Record<string, T> = {};
    for (const [name, { key: nameNode, value }] of this.properties(p.value, child(reading.path, key), false, reading.serverName)) {
      const read = readValue(name, nameNode, value, child(child(reading.path, key), name));
      if (read !== undefined) out[name] = read;
    }
    return out;
  }

  // ---- one reader per server kind ----

  private readStdioServer(entry: ObjectReading): StdioServerConfig {
    const { label, path, props } = entry;
    const fail = (n: Node, p: string, message: string) => this.fail(entry, n, p, message);
    const command = props.get('command');
    let commandValue = '';
    if (!command) fail(entry.anchor, path, props.has('url') ? `${label}: missing "command" (a "url" needs "type": "http" or "sse")` : `${label}: missing "command" (or "url" for a remote server)`);
    else if (command.value.type !== 'string') fail(command.value, child(path, 'command'), `${label}: "command" must be a string, found ${describe(command.value)}`);
    else if (command.value.value.trim() === '') fail(command.value, child(path, 'command'), `${label}: "command" must not be empty`);
    else commandValue = command.value.value;

    const args =
      this.stringArray(entry, 'args', (a, at, i) => {
        if (a.type === 'string') return a.value;
        fail(a, at, `${label}: args[${i}] must be a string, found ${describe(a)}`);
        return undefined;
      }) ?? [];
    const env =
      this.namedValues<string | null>(entry, 'env', (k, _, v, at) => {
        // Numbers are accepted (VS Code does); null removes an inherited variable.
        if (v.type === 'string') return v.value;
        if (v.type === 'null') return null;
        if (v.type === 'number') return String(v.value);
        fail(v, at, `${label}: env.${k} must be a string or null, found ${describe(v)}`);
        return undefined;
      }) ?? {};
    const envFile = this.optionalString(entry, 'envFile');
    const cwd = this.optionalString(entry, 'cwd');
    if (command && command.value.type === 'string' && /\s/.test(commandValue.trim()) && args.length === 0 && !/[\\/]/.test(commandValue.trim().split(/\s+/)[0])) {
      // "npx -y pkg" is a common mistake; "/Applications/My App/bin/x" is a path with a space.
      this.warning(command.value, child(path, 'command'), `${label}: "command" contains spaces; put the arguments in "args" (the command is run without a shell)`, entry.serverName);
    }
    const sandbox = this.readSandboxOf(entry);
    return {
      type: 'stdio',
      command: commandValue,
      args,
      env,
      ...(envFile !== undefined ? { envFile } : {}),
      ...(cwd !== undefined ? { cwd } : {}),
      ...(sandbox ? { sandbox } : {}),
    };
  }

  /** `sandboxEnabled` and the `sandbox` block (the entry's, else the file's; see sandboxBlock.ts). */
  private readSandboxOf(entry: ObjectReading): SandboxConfig | undefined {
    const enabled = entry.props.get('sandboxEnabled');
    const own = entry.props.get('sandbox');
    const block = own ? { node: own.value, path: child(entry.path, 'sandbox') } : enabled ? this.fileSandbox : undefined;
    return readSandbox(
      {
        label: entry.label,
        fail: (n, p, message) => this.fail(entry, n, p, message),
        warn: (n, p, message) => this.warning(n, p, message, entry.serverName),
        properties: (n, p) => this.properties(n, p, false, entry.serverName),
        warnUnknownKeys: (props, known, p) => this.warnUnknownKeys(props, known, p, entry.serverName),
      },
      enabled ? { node: enabled.value, path: child(entry.path, 'sandboxEnabled') } : undefined,
      block,
    );
  }

  private readRemoteServer(entry: ObjectReading, kind: RemoteServerConfig['type']): RemoteServerConfig {
    const { label, path, props } = entry;
    const fail = (n: Node, p: string, message: string) => this.fail(entry, n, p, message);
    const url = props.get('url');
    let urlValue = '';
    if (!url) fail(entry.anchor, path, `${label}: missing "url" (a ${kind} server needs one)`);
    else if (url.value.type !== 'string') fail(url.value, child(path, 'url'), `${label}: "url" must be a string, found ${describe(url.value)}`);
    // A URL built from variables is checked once they are substituted.
    else if (!/^https?:\/\//i.test(url.value.value) && !url.value.value.includes('${')) fail(url.value, child(path, 'url'), `${label}: "url" must start with http:// or https://`);
    else urlValue = url.value.value;
    const headers = this.namedValues(entry, 'headers', (k, kn, v, at) => {
      if (!HEADER_NAME.test(k)) fail(kn, at, `${label}: ${JSON.stringify(k)} is not a valid HTTP header name`);
      else if (v.type === 'string') return v.value;
      else fail(v, at, `${label}: headers.${k} must be a string, found ${describe(v)}`);
      return undefined;
    });
    const oauthProp = props.get('oauth');
    const oauth = oauthProp ? this.readOAuth(entry, oauthProp.value, child(path, 'oauth')) : undefined;
    return { type: kind, url: urlValue, ...(headers ? { headers } : {}), ...(oauth ? { oauth } : {}) };
  }

  /** `"oauth"`: the client and grant (see oauthBlock.ts). */
  private readOAuth(entry: ObjectReading, node: Node, path: string): OAuthClientConfig | undefined {
    return readOAuthBlock(
      {
        label: `${entry.label}: "oauth"`,
        fail: (n, p, message) => this.fail(entry, n, p, message),
        properties: (n, p) => this.properties(n, p, false, entry.serverName),
        warnUnknownKeys: (props, known, p) => this.warnUnknownKeys(props, known, p, entry.serverName),
      },
      node,
      path,
    );
  }

  /** Warns about a key that looks like a typo of a known one (`comand`, `Args`). Other unknown keys are other hosts' business. */
  private warnUnknownKeys(props: Map<string, Property>, known: string[], path: string, serverName?: string): void {
    for (const [key, { key: keyNode }] of props) {
      if (known.includes(key) || FOREIGN_KEYS.has(key)) continue;
      const near = known.find((k) => k.toLowerCase() === key.toLowerCase() || editDistance(k, key) <= 2);
      if (near) this.warning(keyNode, child(path, key), `unknown property "${key}": did you mean "${near}"?`, serverName);
    }
  }

  /** Warns about variables in the substituted fields that can never resolve, at the variable itself. */
  private checkVariables(props: Map<string, Property>, keys: readonly string[], path: string, serverName: string): void {
    const fields = keys.filter((k) => k !== 'type' && props.has(k));
    const strings = fields.flatMap((k) => stringNodes(props.get(k)!.value, child(path, k)));
    for (const { node: str, path: at } of strings) {
      for (const ref of findVariables(str.value)) {
        const problem = checkVariableName(ref.name, this.dialect);
        if (problem) this.warning(this.spanOf(str, ref.start, ref.end) as Node, at, problem, serverName);
      }
    }
  }

  /** Input ids an entry references, in first-use order; undefined ones are reported. */
  private inputReferences(name: string, node: Node, path: string, inputs: InputTable | undefined): string[] {
    const ids: string[] = [];
    for (const { node: str, path: at } of stringNodes(node, path)) {
      for (const ref of findVariables(str.value)) {
        if (!ref.name.startsWith('input:')) continue;
        const id = ref.name.slice('input:'.length);
        if (!id) continue;
        if (!ids.includes(id)) ids.push(id);
        if (this.source.kind === 'vscode-mcp-json' && !inputs?.defs.has(id)) {
          this.warning(this.spanOf(str, ref.start, ref.end) as Node, at, `input "${id}" is not defined in "inputs"; you will be asked for a value`, name);
        }
      }
    }
    return ids;
  }

  /**
   * The text span of `value[start, end)` inside a string node. Exact when the literal has no
   * escape sequences (the usual case); otherwise the whole string.
   */
  private spanOf(str: Node, start: number, end: number): { offset: number; length: number } {
    if (this.text === undefined || str.offset < 0) return { offset: -1, length: 0 };
    const literal = this.text.slice(str.offset, str.offset + str.length);
    if (literal.includes('\\')) return { offset: str.offset, length: str.length };
    return { offset: str.offset + 1 + start, length: end - start };
  }
}

function display(node: Node): string {
  return node.type === 'string' ? JSON.stringify(node.value) : describe(node);
}

function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = [i];
    for (let j = 1; j <= n; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[n];
}

