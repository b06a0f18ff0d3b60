import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ListOptions, McpClient, RootsProvider } from '../client/client';
import { LoggingLevels, ResourceTemplate, Tool, describeSkippedItem } from '../client/schemas';
import { DisposableStore } from '../protocol/disposable';
import { McpLocalError, ResponseError } from '../protocol/errors';
import { ErrorCodes } from '../protocol/messages';
import { TransportCloseReason } from '../protocol/transport';
import { RequestOptions } from '../protocol/connection';
import { Transport } from '../protocol/transport';
import { Redactor } from '../registry/logText';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../transport/lineDecoder';
import { transportFactory } from '../transport/transportFactory';
import { CliCommand, CliOptions, USAGE, UsageError, parseArguments } from './arguments';
import { CliTarget, cliTargets } from './configServers';
import { serveGateway } from './gateway';
import { CUT_DEEP_NOTE, Inspection, printableJson, renderCallResult, renderInspection, renderLogMessage, renderProgress, renderPromptResult, renderReadResult, renderTools } from './render';
import { formatBytes } from '../protocol/text';
import { callTool } from '../usecases/callTool';
import { StatusLine } from './statusLine';
import { terminalSafe } from './terminalText';
import { cliSession } from './signIn';
import { timestamp, traceClient } from './trace';
import type { AuthProvider, OAuthSession } from '../auth';

/** Where the CLI writes; injected so it can run in-process. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** The width of the terminal stderr writes to; undefined when it is not a terminal (no progress line then). */
  readonly stderrColumns?: number;
}

/** Exit statuses. */
export const ExitCode = { Ok: 0, ToolError: 1, Failure: 2, Interrupted: 130 } as const;

/** Raised when the run is stopped from outside (SIGINT, SIGTERM). */
export class Interrupted extends Error {
  override readonly name = 'Interrupted';
}

/** How many server stderr lines to show when the server dies unexpectedly. */
const STDERR_TAIL_SHOWN = 10;

/** Signals from outside the run. */
export interface CliSignals {
  /** Cancels the operation and shuts the server down politely (stdin, SIGTERM, SIGKILL). */
  readonly interrupt?: AbortSignal;
  /** Skips the remaining grace periods of the shutdown. */
  readonly force?: AbortSignal;
}

/**
 * Runs one CLI invocation and resolves with its exit status. Never throws: every failure is
 * reported as one `mcp-host: …` line on stderr (plus the server's last stderr lines when it died).
 * Control characters in what is written are escaped (`terminalSafe`); `--json` keeps every value.
 */
export async function runCli(argv: readonly string[], terminal: CliIo, signals: CliSignals = {}): Promise<number> {
  // The one place output leaves: server text (and our own) cannot drive the terminal.
  const io: CliIo = { stdout: (text) => terminal.stdout(terminalSafe(text)), stderr: (text) => terminal.stderr(terminalSafe(text)) };
  let options: CliOptions;
  try {
    const parsed = parseArguments(argv);
    if (parsed.kind === 'help') {
      io.stdout(USAGE + '\n');
      return ExitCode.Ok;
    }
    options = parsed.options;
  } catch (error) {
    io.stderr(describeFailure(error).join('\n') + '\n');
    return ExitCode.Failure;
  }

  let targets: CliTarget[];
  try {
    targets = await cliTargets(options.server);
    if (targets.length > 1 && options.command.kind !== 'tools' && options.command.kind !== 'gateway') {
      throw new UsageError(`${options.command.kind} talks to one server; the config defines ${targets.map((t) => t.name).join(', ')}: choose one with --server NAME`);
    }
  } catch (error) {
    io.stderr(describeFailure(error).join('\n') + '\n');
    return ExitCode.Failure;
  }
  if (options.command.kind === 'gateway') return runGateway(targets, options, options.command.port, io, terminal, signals);
  if (targets.length === 1) return runOn(targets[0], options, io, terminal, signals, (client, out, req, status) => execute(client, options.command, options.json, out, req, status));

  // `tools` over several servers of a config file: one after another, each listed under its name.
  const listed: { server: string; tools: Tool[] }[] = [];
  let code: number = ExitCode.Ok;
  for (const target of targets) {
    const name = target.name!;
    const named: CliIo = { stdout: io.stdout, stderr: (text) => io.stderr(text.replace(/^mcp-host: /gm, `mcp-host: ${name}: `)) };
    const status = await runOn(target, options, named, terminal, signals, async (client, _out, req) => {
      listed.push({ server: name, tools: await client.listTools(req) });
      return ExitCode.Ok;
    });
    if (status === ExitCode.Interrupted) return status;
    if (status !== ExitCode.Ok) code = status;
  }
  if (options.json) io.stdout(printableJson({ servers: listed }).text + '\n');
  else io.stdout(listed.map((l) => `== ${l.server}\n${renderTools(l.tools)}`).join('\n') + '\n');
  return code;
}

/**
 * `gateway`: connects to every target (each through runOn, nested, so each keeps its own sign-in
 * and shutdown), serves them until interrupted, then ends the sessions and shuts the servers down.
 */
function runGateway(targets: readonly CliTarget[], options: CliOptions, port: number | undefined, io: CliIo, terminal: CliIo, signals: CliSignals): Promise<number> {
  const names = targets.map((t, i) => t.name ?? (targets.length === 1 ? 'server' : `server-${i + 1}`));
  const connect = async (index: number, clients: { name: string; client: McpClient }[]): Promise<number> => {
    if (index === targets.length) {
      const stop = signals.interrupt ?? new AbortController().signal;
      await serveGateway({ servers: clients, port, json: options.json, trace: options.trace, stdout: io.stdout, stderr: io.stderr, signal: stop });
      return ExitCode.Ok;
    }
    const name = names[index];
    const named: CliIo = { stdout: io.stdout, stderr: (text) => io.stderr(targets.length > 1 ? text.replace(/^mcp-host: /gm, `mcp-host: ${name}: `) : text) };
    return runOn(targets[index], options, named, terminal, signals, (client) => connect(index + 1, [...clients, { name, client }]));
  };
  return connect(0, []);
}

/** What a command does once connected; resolves with the exit status. */
type ConnectedAction = (client: McpClient, out: CliIo, req: ListOptions, status: StatusLine) => Promise<number>;

/**
 * Connects to one server, runs `action` and shuts the server down. Never throws: a failure is one
 * `mcp-host: …` line on stderr (plus the server's last stderr lines when it died).
 */
async function runOn(target: CliTarget, options: CliOptions, io: CliIo, terminal: CliIo, signals: CliSignals, action: ConnectedAction): Promise<number> {
  const signal = signals.interrupt;
  // Stops the current request (with notifications/cancelled) when interrupted or when the run cannot go on.
  const stop = new AbortController();
  const store = new DisposableStore();
  const onAbort = () => stop.abort(signal?.reason instanceof Error ? signal.reason : new Interrupted('interrupted'));
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });

  // Values of Authorization-like headers and of secret variables, and everything sign-in obtains, never reach stdout or stderr.
  const { resolved } = target;
  const redactor = new Redactor(resolved.secretValues);
  const out: CliIo = { stdout: (text) => io.stdout(redactor.redact(text)), stderr: (text) => io.stderr(redactor.redact(text)) };
  const status = new StatusLine(out.stderr, terminal.stderr, terminal.stderrColumns);
  let session: OAuthSession | undefined;
  try {
    if (resolved.type !== 'stdio' && target.signIn) {
      const trace = options.trace ? (line: string) => status.printLine(`${timestamp(Date.now())} [auth] ${line}`) : undefined;
      session = cliSession({ serverUrl: resolved.url, signIn: target.signIn, redactor, print: (line) => status.printLine(line), ...(trace ? { trace } : {}) });
    }
  } catch (error) {
    out.stderr(describeFailure(error).join('\n') + '\n');
    return ExitCode.Failure;
  }
  const transport = createTransport(target, options.maxMessageBytes, session && pausingTimeouts(session, () => client));
  // A second close() skips the grace periods and kills the tree.
  const force = () => void transport.close();
  signals.force?.addEventListener('abort', force, { once: true });
  const client = new McpClient({
    clientInfo: { name: 'mcp-host-cli', version: cliVersion() },
    protocol: options.protocolVersion ?? 'auto',
    requestTimeoutMs: options.timeoutMs,
    roots: options.roots.length ? directoryRoots(options.roots) : undefined,
  });
  if (options.trace) store.add(traceClient(client, (line) => status.printLine(line)));
  const minLevel = LoggingLevels.indexOf(options.logLevel);
  store.add(
    client.onLogMessage((message) => {
      if (LoggingLevels.indexOf(message.level) >= minLevel) status.printLine(renderLogMessage(message));
    }),
  );
  store.add(
    client.onTransportLog((log) => {
      if (log.kind !== 'oversize') return;
      // The dropped message was an answer we are waiting for: failing now beats a timeout.
      const limit = formatBytes(options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
      stop.abort(new McpLocalError('invalid-result', `the server sent a message larger than the ${limit} limit; raise it with --max-message-mb`));
    }),
  );

  // Subscribed before connecting: the request can come right after `initialized`.
  const rootsAsked = new Promise<void>((resolve) => store.add(client.onRootsListed(() => resolve())));

  try {
    if (stop.signal.aborted) throw stop.signal.reason;
    await client.connect(transport, { timeoutMs: options.timeoutMs, signal: stop.signal });
    if (options.roots.length) await rootsApplied(rootsAsked, stop.signal);
    return await action(client, out, { signal: stop.signal }, status);
  } catch (error) {
    status.clear();
    // A cancelled request only says "cancelled"; the reason we stopped is the real story, and
    // for a server that still wants authorization, why sign-in stopped.
    const signInFailure = !stop.signal.aborted && closedForAuthorization(error) ? session?.state().lastError : undefined;
    const reported = stop.signal.aborted ? stop.signal.reason : error;
    out.stderr(describeFailure(signInFailure ? new Error(`sign-in failed: ${signInFailure}`) : reported).join('\n') + '\n');
    return reported instanceof Interrupted ? ExitCode.Interrupted : ExitCode.Failure;
  } finally {
    status.clear();
    signal?.removeEventListener('abort', onAbort);
    await client.close().catch(() => {});
    signals.force?.removeEventListener('abort', force);
    store.dispose();
    client.dispose();
  }
}

/**
 * The session, with every request's --timeout paused while a challenge is handled: the user may
 * take minutes in the browser, and the request that met the 401 waits for that.
 */
function pausingTimeouts(session: OAuthSession, client: () => McpClient): AuthProvider {
  return {
    authorization: () => session.authorization(),
    onChallenge: async (challenge) => {
      const paused = client().pauseTimeouts();
      try {
        return await session.onChallenge(challenge);
      } finally {
        paused.dispose();
      }
    },
  };
}

/** True when `error` says the server closed the connection for want of authorization (401/403). */
function closedForAuthorization(error: unknown): boolean {
  if (!(error instanceof McpLocalError)) return false;
  const reason = error.details.reason as TransportCloseReason | undefined;
  return reason?.kind === 'authorization-required';
}

/** The server's transport (through the product's one factory), with sign-in when given. */
function createTransport(target: CliTarget, maxMessageBytes: number | undefined, auth: AuthProvider | undefined): Transport {
  const create = transportFactory({ stdio: { maxMessageBytes, stderrTailLines: STDERR_TAIL_SHOWN * 2 }, http: { maxMessageBytes, ...(auth ? { auth } : {}) }, httpMode: target.httpMode });
  return create(target.resolved);
}

async function execute(client: McpClient, command: CliCommand, json: boolean, io: CliIo, req: RequestOptions, status: StatusLine): Promise<number> {
  const print = (text: string) => io.stdout(text.endsWith('\n') ? text : text + '\n');
  // Malformed items are left out of a list; each is named on stderr, the rest printed.
  const lists: ListOptions = { ...req, onSkipped: (skipped) => skipped.forEach((item) => io.stderr(`mcp-host: skipped a malformed item: ${describeSkippedItem(item)}\n`)) };
  const printJson = (value: unknown) => {
    const printed = printableJson(value);
    print(printed.text);
    if (printed.cut) io.stderr(`mcp-host: the result is ${CUT_DEEP_NOTE}\n`);
  };
  switch (command.kind) {
    case 'inspect': {
      const inspection = await inspect(client, lists);
      if (json) printJson(inspection);
      else print(renderInspection(inspection));
      return ExitCode.Ok;
    }
    case 'tools': {
      const tools = await client.listTools(lists);
      if (json) printJson({ tools });
      else print(renderTools(tools));
      return ExitCode.Ok;
    }
    case 'call': {
      // The editor's use case: the CLI does not list tools first, so the server checks the
      // arguments; progress is shown on a terminal and restarts the timeout, as in the editor.
      const outcome = await callTool(
        { serverId: 'cli', tool: { name: command.tool }, arguments: { mode: 'value', value: command.args }, origin: 'the CLI', ...(req.signal ? { signal: req.signal } : {}) },
        { client: () => client, onProgress: (p) => status.show(renderProgress(p)) },
      );
      status.clear();
      if (outcome.kind === 'failed' || outcome.kind === 'unavailable') throw outcome.error;
      if (outcome.kind !== 'answered') throw new UsageError(outcome.kind === 'invalid' ? outcome.errors.map((e) => e.message).join('; ') : 'the call was not confirmed');
      const result = outcome.result;
      if (json) printJson(result);
      else print(renderCallResult(result));
      if (!result.isError) return ExitCode.Ok;
      io.stderr(`mcp-host: the tool ${command.tool} reported an error (isError)\n`);
      return ExitCode.ToolError;
    }
    case 'read': {
      const result = await client.readResource(command.uri, req);
      if (json) printJson(result);
      else print(renderReadResult(result));
      return ExitCode.Ok;
    }
    case 'prompt': {
      const result = await client.getPrompt(command.name, command.args, req);
      if (json) printJson(result);
      else print(renderPromptResult(result));
      return ExitCode.Ok;
    }
    case 'ping': {
      const ms = await client.ping(req);
      if (json) printJson({ roundTripMs: round(ms) });
      else print(`pong in ${round(ms)} ms`);
      return ExitCode.Ok;
    }
    case 'gateway':
      throw new UsageError('gateway serves every server at once (runGateway), not one connection');
    default: {
      const never: never = command;
      throw new UsageError(`unknown command ${JSON.stringify(never)}`);
    }
  }
}

/** Lists everything the server declared; sections it did not declare are left out. */
async function inspect(client: McpClient, req: ListOptions): Promise<Inspection> {
  const caps = client.serverCapabilities ?? {};
  const result: { -readonly [K in keyof Inspection]: Inspection[K] } = {
    serverInfo: client.serverInfo!,
    protocolVersion: client.protocolVersion!,
    era: client.era,
    capabilities: caps,
    instructions: client.instructions,
  };
  // Sequential on purpose: a --trace of one request at a time is easier to read.
  if (caps.tools) result.tools = await client.listTools(req);
  if (caps.resources) {
    result.resources = await client.listResources(req);
    result.resourceTemplates = await optionalList(client.listResourceTemplates(req));
  }
  if (caps.prompts) result.prompts = await client.listPrompts(req);
  return result;
}

/** Templates are optional within the resources capability: "method not found" means none. */
async function optionalList(list: Promise<ResourceTemplate[]>): Promise<ResourceTemplate[] | undefined> {
  try {
    return await list;
  } catch (error) {
    if (error instanceof ResponseError && error.code === ErrorCodes.MethodNotFound) return undefined;
    throw error;
  }
}

/** How long a server gets to ask for roots after `initialized` before the command goes ahead anyway. */
const ROOTS_ASK_WAIT_MS = 1000;
/** How long a server gets to apply the roots it was sent (there is no signal for that in MCP). */
const ROOTS_SETTLE_MS = 200;

/**
 * Servers ask for roots right after `initialized` and apply them asynchronously, so a command
 * sent at once would run before the roots take effect (server-filesystem would report no allowed
 * directories). With --roots, wait briefly for that request, then a short settle time after it.
 */
async function rootsApplied(asked: Promise<unknown>, signal: AbortSignal): Promise<void> {
  const wasAsked = await Promise.race([asked.then(() => true), sleep(ROOTS_ASK_WAIT_MS, signal).then(() => false)]);
  if (wasAsked) await sleep(ROOTS_SETTLE_MS, signal);
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

function directoryRoots(dirs: readonly string[]): RootsProvider {
  const roots = dirs.map((dir) => ({ uri: pathToFileURL(dir).href, name: basename(dir) || dir }));
  return { listRoots: () => roots };
}

/** The lines to print for a failure: one `mcp-host:` line, then the server's last stderr lines if it died. */
export function describeFailure(error: unknown): string[] {
  const [first, ...rest] = failureLines(error);
  // One line, whatever the server put in its error message.
  return [first.replace(/\s*[\r\n]+\s*/g, ' '), ...rest];
}

function failureLines(error: unknown): string[] {
  if (error instanceof UsageError) return [`mcp-host: ${error.message}`, `Run 'mcp-host --help' for usage.`];
  if (error instanceof McpLocalError) {
    if (error.kind === 'server-exited') {
      // Built from the error's fields: its message ends with a stderr digest, shown in full below.
      const { method, reason } = error.details as { method?: string; reason?: TransportCloseReason };
      const message = reason ? `${method ? `${method}: ` : ''}the server ${TransportCloseReason.describe(reason)}` : error.message;
      const tail = (error.details.stderrTail as readonly string[] | undefined) ?? [];
      const shown = tail.slice(-STDERR_TAIL_SHOWN);
      return [`mcp-host: ${message}`, ...(shown.length ? ['mcp-host: last lines of the server\'s stderr:', ...shown.map((l) => `  ${l}`)] : [])];
    }
    if (error.kind === 'timeout') return [`mcp-host: ${error.message}; raise it with --timeout MS`];
    return [`mcp-host: ${error.message}`];
  }
  if (error instanceof Error) return [`mcp-host: ${error.message || error.name}`];
  return [`mcp-host: ${String(error)}`];
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

/** The package version when run from the bundle (dist/cli.js next to package.json's folder). */
function cliVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { name?: string; version?: unknown };
    if (pkg.name === 'mcp-host' && typeof pkg.version === 'string') return pkg.version;
  } catch {
    // Not next to the package (tests run the compiled sources): a version is still required.
  }
  return '0.0.0';
}
