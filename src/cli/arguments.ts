import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { LoggingLevel, LoggingLevels, ProtocolVersion, SUPPORTED_PROTOCOL_VERSIONS, isSupportedVersion } from '../client/schemas';

/** What the user asked for on the command line. */
export type CliCommand =
  | { readonly kind: 'inspect' }
  | { readonly kind: 'tools' }
  | { readonly kind: 'call'; readonly tool: string; readonly args: Record<string, unknown> }
  | { readonly kind: 'read'; readonly uri: string }
  | { readonly kind: 'prompt'; readonly name: string; readonly args: Record<string, string> }
  | { readonly kind: 'ping' };

export interface CliOptions {
  readonly command: CliCommand;
  readonly json: boolean;
  readonly trace: boolean;
  /** Absolute directories exposed as roots. */
  readonly roots: readonly string[];
  readonly protocolVersion?: ProtocolVersion;
  readonly timeoutMs?: number;
  readonly maxMessageBytes?: number;
  /** The server's log messages (`notifications/message`) at this level or above go to stderr. */
  readonly logLevel: LoggingLevel;
  /** The server command and its arguments (everything after `--`). */
  readonly server: { readonly command: string; readonly args: readonly string[] };
}

/** The result of parsing: run something, or print the usage. */
export type ParsedArguments = { readonly kind: 'run'; readonly options: CliOptions } | { readonly kind: 'help' };

/** A mistake on the command line; exits with code 2 and a hint to `--help`. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const USAGE = `Usage: mcp-host <command> [options] -- SERVER_COMMAND [SERVER_ARGS...]

Runs an MCP server over stdio, performs one operation and shuts the server down.

Commands:
  inspect            server info, negotiated version, capabilities, instructions,
                     and every tool, resource, resource template and prompt
  tools              the tools with their descriptions and parameters
  call TOOL          call a tool (arguments from --args) and print its result
  read URI           read a resource and print its contents
  prompt NAME        get a prompt (arguments from --args) and print its messages
  ping               print the round-trip time of a ping

Options:
  --args JSON              arguments for call/prompt, a JSON object: '{"a":1}'
  --json                   print one JSON document instead of readable text
  --trace                  print every JSON-RPC frame and the server's stderr to stderr
  --roots DIR[,DIR...]     expose these directories to the server as roots (the command
                           waits briefly for the server to ask for them)
  --protocol-version V     offer this protocol version (${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})
  --timeout MS             per-request timeout in milliseconds (default 60000); for
                           call, each progress report from the server restarts it
  --log-level LEVEL        print the server's log messages at this level or above to
                           stderr: ${LoggingLevels.join(', ')} (default info)
  --max-message-mb N       largest message accepted from the server, in MiB (default 128)
  -h, --help               print this help

Exit status: 0 on success, 1 when the tool reported an error (isError),
2 for usage, connection and protocol errors, 130 when interrupted (Ctrl-C;
a second Ctrl-C kills the server without waiting).

Examples:
  mcp-host inspect -- npx -y @modelcontextprotocol/server-everything
  mcp-host call echo --args '{"message":"hi"}' -- node server.js
  mcp-host call list_allowed_directories --roots . -- npx -y @modelcontextprotocol/server-filesystem`;

const COMMANDS = ['inspect', 'tools', 'call', 'read', 'prompt', 'ping'] as const;
type CommandName = (typeof COMMANDS)[number];
const VALUE_FLAGS = ['--args', '--roots', '--protocol-version', '--timeout', '--max-message-mb', '--log-level'] as const;
type ValueFlag = (typeof VALUE_FLAGS)[number];
const BOOLEAN_FLAGS = ['--json', '--trace'] as const;

/** Parses `argv` (without `node` and the script). Throws UsageError on any mistake. */
export function parseArguments(argv: readonly string[]): ParsedArguments {
  const dash = argv.indexOf('--');
  const own = dash >= 0 ? argv.slice(0, dash) : argv;
  const serverArgv = dash >= 0 ? argv.slice(dash + 1) : [];
  if (own.includes('-h') || own.includes('--help') || own[0] === 'help') return { kind: 'help' };

  const values = new Map<ValueFlag, string>();
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
      if (values.has(flag as ValueFlag)) throw new UsageError(`${flag} was given twice`);
      values.set(flag as ValueFlag, value);
    } else {
      throw new UsageError(`unknown option ${flag}`);
    }
  }

  if (positionals.length === 0) throw new UsageError('missing command (one of inspect, tools, call, read, prompt, ping)');
  const name = positionals[0];
  if (!(COMMANDS as readonly string[]).includes(name)) throw new UsageError(`unknown command ${JSON.stringify(name)} (expected one of ${COMMANDS.join(', ')})`);
  const command = buildCommand(name as CommandName, positionals.slice(1), values.get('--args'));

  if (dash < 0 || serverArgv.length === 0) throw new UsageError('missing server command: put it after --, for example: -- node server.js');
  const [serverCommand, ...serverArgs] = serverArgv;
  if (serverCommand.length === 0) throw new UsageError('the server command is empty');

  return {
    kind: 'run',
    options: {
      command,
      json: booleans.has('--json'),
      trace: booleans.has('--trace'),
      roots: parseRoots(values.get('--roots')),
      protocolVersion: parseVersion(values.get('--protocol-version')),
      timeoutMs: parsePositive('--timeout', values.get('--timeout'), true),
      maxMessageBytes: parseMaxMessageBytes(values.get('--max-message-mb')),
      logLevel: parseLogLevel(values.get('--log-level')),
      server: { command: serverCommand, args: serverArgs },
    },
  };
}

function buildCommand(name: CommandName, operands: string[], argsJson: string | undefined): CliCommand {
  const expect = (count: number, what?: string) => {
    if (operands.length < count) throw new UsageError(`${name} needs ${what}: mcp-host ${name} ${what?.toUpperCase()} ... -- SERVER_COMMAND`);
    if (operands.length > count) throw new UsageError(`unexpected argument ${JSON.stringify(operands[count])} (the server command goes after --)`);
  };
  if (argsJson !== undefined && name !== 'call' && name !== 'prompt') throw new UsageError(`--args only applies to call and prompt, not ${name}`);
  switch (name) {
    case 'inspect':
    case 'tools':
    case 'ping':
      expect(0);
      return { kind: name };
    case 'call':
      expect(1, 'a tool name');
      return { kind: 'call', tool: operands[0], args: parseArgsJson(argsJson) };
    case 'read':
      expect(1, 'a resource URI');
      return { kind: 'read', uri: operands[0] };
    case 'prompt':
      expect(1, 'a prompt name');
      return { kind: 'prompt', name: operands[0], args: promptArguments(parseArgsJson(argsJson)) };
    default: {
      const never: never = name;
      throw new UsageError(`unknown command ${String(never)}`);
    }
  }
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

function parseVersion(text: string | undefined): ProtocolVersion | undefined {
  if (text === undefined) return undefined;
  if (!isSupportedVersion(text)) throw new UsageError(`--protocol-version ${text} is not supported (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
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
