import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { LoggingLevel, LoggingLevels } from '../client/schemas';
import { PROTOCOL_PREFERENCES, ProtocolPreference, isProtocolPreference } from '../client/era';
import { SANDBOX_FLAG, SANDBOX_REPEATABLE_FLAGS, SANDBOX_VALUE_FLAGS, parseSandboxFlags } from './sandboxArguments';
import { signInOptions } from './signInArguments';
import type { SandboxPolicy } from '../sandbox/policy';
import { UsageError } from './usageError';

/** What the user asked for on the command line. */
export type CliCommand =
  | { readonly kind: 'inspect' }
  | { readonly kind: 'tools'; /** `--search`: rank the tools by this query instead of listing them. */ readonly search?: { readonly query: string; readonly limit: number } }
  | { readonly kind: 'call'; readonly tool: string; readonly args: Record<string, unknown>; /** `--task`: run as a task where the tool allows one. */ readonly task?: boolean; /** `--no-validate`: send the arguments unchecked. */ readonly noValidate?: boolean }
  /** The tasks the server holds (2025-11-25 `tasks/list`). */
  | { readonly kind: 'tasks' }
  | { readonly kind: 'read'; readonly uri: string }
  /** The skills the server lists (Skills extension), and one loaded and verified (`--out`: written to a folder). */
  | { readonly kind: 'skills' }
  | { readonly kind: 'skill'; readonly uri: string; readonly out?: string }
  | { readonly kind: 'prompt'; readonly name: string; readonly args: Record<string, string> }
  | { readonly kind: 'ping' }
  /** Compare a snapshot (`inspect --json`) with the live server. */
  | { readonly kind: 'diff'; readonly before: string; readonly options: DiffOptions }
  /** Send the client's side of a recording again and compare the answers. */
  | { readonly kind: 'replay'; readonly recording: string; readonly ignore: readonly string[] }
  /** Run the saved calls of a test file (`.vscode/mcp-tests.json`); `junit`: write a JUnit XML report there. */
  | { readonly kind: 'test'; readonly file: string; readonly junit?: string }
  /** Walk the path to the server step by step and say where it breaks. */
  | { readonly kind: 'doctor' }
  /** Serve the servers to other MCP clients through the loopback gateway (`--port`: 0 picks one). */
  | { readonly kind: 'gateway'; readonly port?: number };

/** `mcp-host diff`'s own options. */
export interface DiffOptions {
  /** `--server-version`: a changed server version counts as a change. */
  readonly serverVersion: boolean;
}

export interface CliOptions {
  readonly command: CliCommand;
  readonly json: boolean;
  readonly trace: boolean;
  /** Absolute directories exposed as roots. */
  readonly roots: readonly string[];
  /** `--protocol-version`: the era or version to speak (auto when absent). */
  readonly protocolVersion?: ProtocolPreference;
  readonly timeoutMs?: number;
  /** `--connect-timeout`: the quiet time after a stdio server's last output before a silent `server/discover` means legacy. */
  readonly connectTimeoutMs?: number;
  /** `--strict`: a result that breaks its tool's outputSchema fails the run (exit 1) instead of a warning. */
  readonly strict: boolean;
  readonly maxMessageBytes?: number;
  /** The server's log messages (`notifications/message`) at this level or above go to stderr. */
  readonly logLevel: LoggingLevel;
  /** `--pins FILE`: check each server's tools against the pins in FILE (new tools are pinned). */
  readonly pinsFile?: string;
  /** `--record FILE`: write the session's frames there (JSON Lines, secrets redacted). */
  readonly record?: string;
  /** `--yes`: run a recording's or a test file's calls that may change things without asking. */
  readonly yes?: boolean;
  /** The server: a command and its arguments (everything after `--`), a URL (`--url`), or servers of a config file (`--config`). */
  readonly server: CliServer | CliConfigServers;
}

/**
 * `--config FILE [--server NAME]...`: servers of a `.vscode/mcp.json` or `.mcp.json` file (every
 * server when no `--server` is given), read when the command runs. `signIn` applies to its remote
 * servers that have no Authorization header.
 */
export interface CliConfigServers {
  readonly kind: 'config';
  /** Absolute path of the file. */
  readonly file: string;
  readonly names: readonly string[];
  readonly signIn: CliSignIn;
  /** `--sandbox`: every stdio server of the file runs sandboxed (its own block, else the default policy). */
  readonly requireSandbox?: boolean;
}

/** How `--transport` picks the HTTP transport: `auto` tries Streamable HTTP, then HTTP+SSE. */
export type CliTransportMode = 'auto' | 'http' | 'sse';

export type CliServer =
  | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[]; /** `--sandbox`: the policy it runs under. */ readonly sandbox?: SandboxPolicy }
  | { readonly kind: 'remote'; readonly url: string; readonly headers: Readonly<Record<string, string>>; readonly mode: CliTransportMode; readonly signIn?: CliSignIn };

export type { CliSignIn } from './signInArguments';
import type { CliSignIn } from './signInArguments';

/** The result of parsing: run something against a server, compare two snapshot files (no server), or print the usage. */
export type ParsedArguments =
  | { readonly kind: 'run'; readonly options: CliOptions }
  | { readonly kind: 'diff-files'; readonly before: string; readonly after: string; readonly json: boolean; readonly options: DiffOptions }
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  /** `registry search|show|install …`: the words after `registry`, parsed by cli/registryGallery.ts. */
  | { readonly kind: 'registry'; readonly argv: readonly string[] };

export { UsageError } from './usageError';

export { USAGE } from './usage';

const COMMANDS = ['inspect', 'tools', 'call', 'read', 'skills', 'skill', 'prompt', 'ping', 'diff', 'replay', 'test', 'doctor', 'gateway', 'tasks'] as const;
type CommandName = (typeof COMMANDS)[number];
/** gateway: end when stdin closes (for a parent process that holds the pipe); otherwise it serves until a signal. */
export const EXIT_ON_STDIN_CLOSE = '--exit-on-stdin-close';
const VALUE_FLAGS = ['--port', '--record', '--ignore', '--junit', '--args', '--roots', '--protocol-version', '--timeout', '--max-message-mb', '--log-level', '--url', '--transport', '--header', '--token-cache', '--client-id', '--client-secret-env', '--client-metadata-url', '--scope', '--grant', '--private-key-file', '--workload-token-file', '--workload-token-env', '--dpop', '--connect-timeout', '--config', '--server', '--search', '--limit', '--pins', '--out', ...SANDBOX_VALUE_FLAGS] as const;
/** Flags that may be given more than once. */
const REPEATABLE_FLAGS: readonly string[] = ['--header', '--server', '--ignore', ...SANDBOX_REPEATABLE_FLAGS];
type ValueFlag = (typeof VALUE_FLAGS)[number];
const BOOLEAN_FLAGS = ['--json', '--trace', '--strict', '--no-browser', '--server-version', '--allow-local-auth', '--task', '--yes', '--no-validate', EXIT_ON_STDIN_CLOSE, SANDBOX_FLAG] as const;
/** The flags of sign-in, which only apply with --url. */
const SIGN_IN_FLAGS = ['--no-browser', '--allow-local-auth', '--token-cache', '--client-id', '--client-secret-env', '--client-metadata-url', '--scope', '--grant', '--private-key-file', '--workload-token-file', '--workload-token-env', '--dpop'] as const;

/** Parses `argv` (without `node` and the script). Throws UsageError on any mistake. */
export function parseArguments(argv: readonly string[]): ParsedArguments {
  const dash = argv.indexOf('--');
  const own = dash >= 0 ? argv.slice(0, dash) : argv;
  const serverArgv = dash >= 0 ? argv.slice(dash + 1) : [];
  if (own[0] === 'registry' && !own.includes('-h') && !own.includes('--help')) return { kind: 'registry', argv: argv.slice(1) };
  if (own.includes('-h') || own.includes('--help') || own[0] === 'help') return { kind: 'help' };
  if (own.includes('--version') || own.includes('-V')) return { kind: 'version' };

  const flags = readFlags(own);
  const { values, booleans, positionals } = flags;
  if (positionals.length === 0) throw new UsageError(`missing command (one of ${COMMANDS.join(', ')})`);
  const name = positionals[0];
  if (!(COMMANDS as readonly string[]).includes(name)) throw new UsageError(`unknown command ${JSON.stringify(name)} (expected one of ${COMMANDS.join(', ')})`);
  if (booleans.has('--server-version') && name !== 'diff') throw new UsageError('--server-version only applies to diff');
  if (booleans.has('--task') && name !== 'call') throw new UsageError('--task only applies to call');
  const diffOptions: DiffOptions = { serverVersion: booleans.has('--server-version') };
  if (name === 'diff' && positionals.length === 3) {
    // Two snapshots: nothing to connect to.
    if (dash >= 0 || values.has('--url') || values.has('--config')) throw new UsageError('diff compares two snapshot files, or one snapshot with a server: not two files and a server');
    const stray = [...values.keys()].find((flag) => flag !== '--max-message-mb');
    if (stray) throw new UsageError(`${stray} does not apply to diff of two files`);
    return { kind: 'diff-files', before: positionals[1], after: positionals[2], json: booleans.has('--json'), options: diffOptions };
  }
  const command = parseCommand(name as CommandName, flags, diffOptions);
  // A snapshot that is not there is the mistake to name, before any missing server.
  if (name === 'diff' && positionals.length === 2) readableFile(positionals[1]);
  const pinsFile = values.get('--pins');
  if (pinsFile !== undefined && pinsFile.trim() === '') throw new UsageError('--pins needs a file');
  const record = values.get('--record');
  if (record !== undefined && record.trim() === '') throw new UsageError('--record needs a file');
  const signedIn = parseServerChoice(flags, dash >= 0, serverArgv, command);

  return {
    kind: 'run',
    options: {
      command,
      json: booleans.has('--json'),
      trace: booleans.has('--trace'),
      roots: parseRoots(values.get('--roots')),
      protocolVersion: parseVersion(values.get('--protocol-version')),
      timeoutMs: parsePositive('--timeout', values.get('--timeout'), true),
      connectTimeoutMs: parsePositive('--connect-timeout', values.get('--connect-timeout'), true),
      strict: booleans.has('--strict'),
      maxMessageBytes: parseMaxMessageBytes(values.get('--max-message-mb')),
      logLevel: parseLogLevel(values.get('--log-level')),
      ...(pinsFile !== undefined ? { pinsFile: resolve(pinsFile) } : {}),
      server: signedIn,
      ...(record !== undefined ? { record: resolve(record) } : {}),
      ...(booleans.has('--yes') ? { yes: true } : {}),
    },
  };
}

/** The words before `--`, sorted: flags with a value (once, or several times for the repeatable ones), flags alone, and the rest. */
interface CommandLineFlags {
  readonly values: ReadonlyMap<ValueFlag, string>;
  readonly repeated: Readonly<Record<string, string[]>>;
  readonly booleans: ReadonlySet<string>;
  readonly positionals: readonly string[];
}

/** Sorts the words before `--` into flags and positionals (`--flag value` and `--flag=value` alike); throws on an unknown flag, a missing value, or a value given twice. */
function readFlags(own: readonly string[]): CommandLineFlags {
  const values = new Map<ValueFlag, string>();
  const repeated: Record<string, string[]> = {};
  const booleans = new Set<string>();
  const positionals: string[] = [];
  for (let i = 0; i < own.length; i++) {
    const arg = own[i];
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if ((BOOLEAN_FLAGS as readonly string[]).includes(flag)) {
      if (eq > 0) throw new UsageError(`${flag} takes no value`);
      booleans.add(flag);
    } else if ((VALUE_FLAGS as readonly string[]).includes(flag)) {
      let value: string | undefined;
      if (eq > 0) value = arg.slice(eq + 1);
      else if (i + 1 < own.length) value = own[++i];
      if (value === undefined) throw new UsageError(`${flag} needs a value`);
      if (REPEATABLE_FLAGS.includes(flag)) {
        (repeated[flag] ??= []).push(value);
        continue;
      }
      if (values.has(flag as ValueFlag)) throw new UsageError(`${flag} was given twice`);
      values.set(flag as ValueFlag, value);
    } else {
      throw new UsageError(`unknown option ${flag}`);
    }
  }
  return { values, repeated, booleans, positionals };
}

/** The command with its own flags, each checked to belong to it (in this order: the first mistake is the one reported). */
function parseCommand(name: CommandName, { values, repeated, booleans, positionals }: CommandLineFlags, diffOptions: DiffOptions): CliCommand {
  const ignore = repeated['--ignore'] ?? [];
  if (ignore.length && name !== 'replay') throw new UsageError('--ignore only applies to replay');
  for (const pointer of ignore) if (!pointer.startsWith('/')) throw new UsageError(`--ignore takes a JSON Pointer such as /result/content/0/text, got ${JSON.stringify(pointer)}`);
  const junit = values.get('--junit');
  if (junit !== undefined && name !== 'test') throw new UsageError('--junit only applies to test');
  if (booleans.has(EXIT_ON_STDIN_CLOSE) && name !== 'gateway') throw new UsageError(`${EXIT_ON_STDIN_CLOSE} only applies to gateway`);
  const out = values.get('--out');
  if (out !== undefined && (name !== 'skill' || out.trim() === '')) throw new UsageError(name !== 'skill' ? '--out only applies to skill' : '--out needs a folder');
  const built = withSearch(buildCommand(name, positionals.slice(1), values.get('--args'), diffOptions, ignore, junit, values.get('--port')), values.get('--search'), values.get('--limit'));
  const command = built.kind === 'skill' && out !== undefined ? { ...built, out: resolve(out) } : built.kind === 'call' ? { ...built, ...(booleans.has('--task') ? { task: true } : {}), ...(booleans.has('--no-validate') ? { noValidate: true } : {}) } : built;
  if (booleans.has('--no-validate') && name !== 'call') throw new UsageError('--no-validate only applies to call');
  if (booleans.has('--yes') && name !== 'replay' && name !== 'test') throw new UsageError('--yes only applies to replay and test');
  return command;
}

/** The server(s) to run against: a config file's (`--config`, or a test file's own), a command after `--`, or `--url` with its sign-in flags. */
function parseServerChoice({ values, repeated, booleans }: CommandLineFlags, dashGiven: boolean, serverArgv: readonly string[], command: CliCommand): CliServer | CliConfigServers {
  const signInFlags = SIGN_IN_FLAGS.filter((flag) => booleans.has(flag) || values.has(flag as ValueFlag));
  // A test file names its servers: those of --config, of the file itself (its own "servers"), or of the mcp.json beside it.
  const configFile = values.get('--config') ?? (command.kind === 'test' && !dashGiven && !values.has('--url') ? testServersFile(command.file) : undefined);
  let chosen: CliServer | CliConfigServers;
  if (configFile !== undefined) {
    chosen = parseConfigServers(configFile, repeated['--server'] ?? [], dashGiven, values, booleans, repeated['--header'] ?? []);
  } else {
    if (repeated['--server']) throw new UsageError('--server only applies with --config FILE');
    const server = parseServer(dashGiven, serverArgv, values.get('--url'), repeated['--header'] ?? [], values.get('--transport'));
    if (server.kind === 'stdio' && signInFlags.length) throw new UsageError(`${signInFlags[0]} only applies with --url`);
    chosen = server.kind === 'remote' ? withSignIn(server, values, booleans, signInFlags) : server;
  }
  const sandbox = parseSandboxFlags(chosen.kind, values, repeated, booleans);
  if (!sandbox) return chosen;
  return sandbox.kind === 'command' ? { ...(chosen as Extract<CliServer, { kind: 'stdio' }>), sandbox: sandbox.policy } : { ...(chosen as CliConfigServers), requireSandbox: true };
}

/** Throws a usage error naming `file` when it cannot be read ("file not found" when it is not there). */
function readableFile(file: string): void {
  try {
    accessSync(file, constants.R_OK);
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (error as Error).message}`);
  }
}

/** Where `mcp-host test FILE` finds its servers without --config: FILE itself when it has a `servers` map, else the `mcp.json` beside it. */
function testServersFile(file: string): string {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`cannot read ${file}`);
  }
  return /"servers"\s*:/.test(text) ? file : join(dirname(file), 'mcp.json');
}

/** The server to talk to: the command after `--`, or `--url` with its headers and transport. */
function parseServer(hasDash: boolean, serverArgv: readonly string[], url: string | undefined, headers: readonly string[], transport: string | undefined): CliServer {
  if (url === undefined) {
    if (headers.length) throw new UsageError('--header only applies with --url');
    if (transport !== undefined) throw new UsageError('--transport only applies with --url');
    if (!hasDash || serverArgv.length === 0) throw new UsageError('missing server command: put it after --, for example: -- node server.js (or give --url URL)');
    const [command, ...args] = serverArgv;
    if (command.length === 0) throw new UsageError('the server command is empty');
    return { kind: 'stdio', command, args };
  }
  if (hasDash) throw new UsageError('give either --url or a server command after --, not both');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--url ${JSON.stringify(url)} is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`--url must be an http:// or https:// URL, got ${JSON.stringify(url)}`);
  if (transport !== undefined && transport !== 'auto' && transport !== 'http' && transport !== 'sse') throw new UsageError(`--transport must be auto, http or sse, got ${JSON.stringify(transport)}`);
  const byName: Record<string, string> = {};
  for (const header of headers) {
    const colon = header.indexOf(':');
    const name = colon > 0 ? header.slice(0, colon).trim() : '';
    // RFC 9110 token characters; a value must not break the header block.
    // Nothing of it is quoted back: a mistyped header may well be a credential.
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError('--header needs "Name: value", with a name of letters, digits and "-"');
    const value = header.slice(colon + 1).trim();
    if (/[\r\n]/.test(value)) throw new UsageError(`--header ${name}: a value must not contain a line break`);
    byName[name] = value;
  }
  return { kind: 'remote', url, headers: byName, mode: transport ?? 'auto' };
}

/** `--config FILE [--server NAME]...`: the file is read when the command runs. */
function parseConfigServers(file: string, names: readonly string[], hasDash: boolean, values: ReadonlyMap<ValueFlag, string>, booleans: ReadonlySet<string>, headers: readonly string[]): CliConfigServers {
  if (hasDash) throw new UsageError('give either --config or a server command after --, not both');
  if (headers.length) throw new UsageError('--header only applies with --url (a config file gives its servers\' headers)');
  for (const flag of ['--url', '--transport'] as const) if (values.has(flag)) throw new UsageError(`give either --config or ${flag}, not both`);
  if (file.trim() === '') throw new UsageError('--config needs a file');
  for (const name of names) if (name.trim() === '') throw new UsageError('--server needs a server name');
  return { kind: 'config', file: resolve(file), names: [...new Set(names)], signIn: signInOptions(values, booleans) };
}

/** Adds sign-in to a remote server, unless an Authorization header is its credential. */
function withSignIn(server: Extract<CliServer, { kind: 'remote' }>, values: ReadonlyMap<ValueFlag, string>, booleans: ReadonlySet<string>, given: readonly string[]): CliServer {
  const hasAuthorization = Object.keys(server.headers).some((name) => name.toLowerCase() === 'authorization');
  if (hasAuthorization) {
    if (given.length) throw new UsageError(`${given[0]} does not apply with an Authorization header (sign-in would replace it)`);
    return server;
  }
  return { ...server, signIn: signInOptions(values, booleans) };
}

function buildCommand(name: CommandName, operands: string[], argsJson: string | undefined, diffOptions: DiffOptions, ignore: readonly string[], junit: string | undefined, port: string | undefined): CliCommand {
  const expect = (count: number, what?: string) => {
    if (operands.length < count) throw new UsageError(`${name} needs ${what}: mcp-host ${name} ${what?.toUpperCase()} ... -- SERVER_COMMAND`);
    if (operands.length > count) throw new UsageError(`unexpected argument ${JSON.stringify(operands[count])} (the server command goes after --)`);
  };
  if (argsJson !== undefined && name !== 'call' && name !== 'prompt') throw new UsageError(`--args only applies to call and prompt, not ${name}`);
  if (port !== undefined && name !== 'gateway') throw new UsageError(`--port only applies to gateway, not ${name}`);
  switch (name) {
    case 'inspect':
    case 'tools':
    case 'skills':
    case 'ping':
    case 'tasks':
    case 'doctor':
      expect(0);
      return { kind: name };
    case 'call':
      expect(1, 'a tool name');
      return { kind: 'call', tool: operands[0], args: parseArgsJson(argsJson) };
    case 'read':
    case 'skill':
      expect(1, name === 'read' ? 'a resource URI' : 'a skill URI');
      return { kind: name, uri: operands[0] };
    case 'gateway': {
      expect(0);
      const n = Number(port);
      if (port !== undefined && (port.trim() === '' || !Number.isInteger(n) || n < 0 || n > 65535)) throw new UsageError(`--port must be a port number (0-65535), got ${JSON.stringify(port)}`);
      return port === undefined ? { kind: 'gateway' } : { kind: 'gateway', port: n };
    }
    case 'prompt':
      expect(1, 'a prompt name');
      return { kind: 'prompt', name: operands[0], args: promptArguments(parseArgsJson(argsJson)) };
    case 'diff':
      if (operands.length === 0) throw new UsageError('diff needs a snapshot: mcp-host diff A.json [B.json | -- SERVER_COMMAND | --url URL]');
      expect(1);
      return { kind: 'diff', before: operands[0], options: diffOptions };
    case 'replay':
      expect(1, 'a recording');
      return { kind: 'replay', recording: operands[0], ignore };
    case 'test':
      if (operands.length === 0) throw new UsageError('test needs a test file: mcp-host test .vscode/mcp-tests.json [--config FILE] [--junit OUT.xml]');
      expect(1);
      return { kind: 'test', file: resolve(operands[0]), ...(junit !== undefined ? { junit: resolve(junit) } : {}) };
    default: {
      const never: never = name;
      throw new UsageError(`unknown command ${String(never)}`);
    }
  }
}

/** `tools --search QUERY [--limit K]`. */
function withSearch(command: CliCommand, query: string | undefined, limitText: string | undefined): CliCommand {
  if (query === undefined) {
    if (limitText !== undefined) throw new UsageError('--limit only applies with --search');
    return command;
  }
  if (command.kind !== 'tools') throw new UsageError(`--search only applies to tools, not ${command.kind}`);
  if (query.trim() === '') throw new UsageError('--search needs a query');
  return { kind: 'tools', search: { query, limit: parsePositive('--limit', limitText, true) ?? 10 } };
}

function parseArgsJson(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--args is not valid JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError(`--args must be a JSON object such as '{"name":"value"}', got ${describeType(value)}`);
  }
  return value as Record<string, unknown>;
}

/** Prompt arguments are strings on the wire; numbers and booleans are converted for convenience. */
function promptArguments(args: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(args)) {
    if (typeof value === 'string') out[key] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') out[key] = String(value);
    else throw new UsageError(`prompt arguments must be strings; ${JSON.stringify(key)} is ${describeType(value)}`);
  }
  return out;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function parseRoots(text: string | undefined): string[] {
  if (text === undefined) return [];
  const dirs = text.split(',').filter((d) => d.length > 0);
  if (dirs.length === 0) throw new UsageError('--roots needs at least one directory');
  return dirs.map((dir) => {
    const path = resolve(dir);
    let isDirectory = false;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch {
      throw new UsageError(`--roots: ${path} does not exist`);
    }
    if (!isDirectory) throw new UsageError(`--roots: ${path} is not a directory`);
    return path;
  });
}

function parseVersion(text: string | undefined): ProtocolPreference | undefined {
  if (text === undefined) return undefined;
  if (!isProtocolPreference(text)) throw new UsageError(`--protocol-version ${text} is not supported (use one of: ${PROTOCOL_PREFERENCES.join(', ')})`);
  return text;
}

function parseLogLevel(text: string | undefined): LoggingLevel {
  if (text === undefined) return 'info';
  if ((LoggingLevels as readonly string[]).includes(text)) return text as LoggingLevel;
  throw new UsageError(`--log-level must be one of ${LoggingLevels.join(', ')}, got ${JSON.stringify(text)}`);
}

function parsePositive(flag: string, text: string | undefined, integer: boolean): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
    throw new UsageError(`${flag} must be a positive ${integer ? 'integer' : 'number'}, got ${JSON.stringify(text)}`);
  }
  return n;
}

function parseMaxMessageBytes(text: string | undefined): number | undefined {
  const mb = parsePositive('--max-message-mb', text, false);
  if (mb === undefined) return undefined;
  const bytes = Math.floor(mb * 1024 * 1024);
  if (!Number.isSafeInteger(bytes) || bytes < 1) throw new UsageError(`--max-message-mb ${text} is out of range`);
  return bytes;
}
