import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ListOptions, McpClient, RootsProvider } from '../client/client';
import { LoggingLevels, Tool, describeSkippedItem } from '../client/schemas';
import { DisposableStore } from '../protocol/disposable';
import { McpLocalError, connectionEndOf, errorMessage } from '../protocol/errors';
import { RequestOptions } from '../protocol/connection';
import { Transport } from '../protocol/transport';
import { Redactor } from '../protocol/redaction';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../transport/lineDecoder';
import { transportFactory } from '../transport/transportFactory';
import { CliCommand, CliOptions, USAGE, UsageError, parseArguments } from './arguments';
import { STDERR_TAIL_SHOWN, STDOUT_HEAD_SHOWN, describeFailure } from './failureLines';
import { inspectServer, wholeInspection } from './inspect';
import { CliTarget, cliTargets } from './configServers';
import { serveGateway } from './gateway';
import { pinsChanged, renderSearchResults, searchListedTools } from './toolChecks';
import { CUT_DEEP_NOTE, printableJson, renderCallResult, renderInspection, renderLogMessage, renderProgress, renderPromptResult, renderReadResult, renderTaskStatus, renderTasks, renderTools } from './render';
import { formatBytes } from '../protocol/text';
import { callTool } from '../usecases/callTool';
import { diffOffers } from '../usecases/offerDiff';
import { readOfferSnapshot, renderOfferChanges } from './diff';
import { LoadedReplay, RecordedReplies, loadReplay, openRecorder, renderReplay, replaySteps } from './replay';
import type { RecordingWriter } from '../usecases/recording';
import { RunApproval } from './verbs/approval';
import { invalidArguments, toolToCall } from './verbs/call';
import { listSkillsCommand, loadSkillCommand, skillsIo } from './verbs/skills';
import { withSkillsCapability } from '../skills/wire';
import { approveReplay, otherServerWarning } from './verbs/replay';
import { approveOwnServers, approveServerTests, testResultsJson } from './verbs/test';
import { SavedTestFile, SavedTestResult, describeTestResult, testResult } from '../usecases/savedTests';
import { runSavedTest } from '../usecases/savedTestRunner';
import { readSavedTests, testSummary, writeJunit } from './savedTests';
import { describeDiagnosis, diagnose } from '../usecases/doctor';
import { StatusLine } from './statusLine';
import { EraMemory } from '../client/era';
import { PROBE_RESTART_NOTE, exitedOnProbe } from '../client/eraProbe';
import { describeLeftTasks, listTasks, pause } from '../client/tasks';
import { cliEraKey, cliEraStore } from './eraCache';
import { outputSchemaProblem } from './outputCheck';
import { terminalSafe } from './terminalText';
import { cliSession, signInFailure } from './signIn';
import { timestamp, traceClient } from './trace';
import { runRegistryCli } from './registryGallery';
import { cliSandboxOptions } from './sandboxArguments';
import type { AuthProvider, OAuthSession } from '../auth';

/** Where the CLI writes; injected so it can run in-process. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** The width of the terminal stderr writes to; undefined when it is not a terminal (no progress line then). */
  readonly stderrColumns?: number;
  /** The width stdout's tables fit (`inspect`): the terminal's, else $COLUMNS, else 80. */
  readonly stdoutColumns?: number;
  /** Asks the user a yes/no question on the terminal; absent when there is none to ask on. */
  readonly ask?: (question: string) => Promise<boolean>;
}

/** Exit statuses. */
export const ExitCode = { Ok: 0, ToolError: 1, Failure: 2, Interrupted: 130 } as const;

/** Raised when the run is stopped from outside (SIGINT, SIGTERM, SIGHUP). */
export class Interrupted extends Error {
  override readonly name = 'Interrupted';
  /** The status to exit with: 128 + the signal's number, as shells report it (130 for Ctrl-C). */
  constructor(
    message: string,
    readonly exitCode: number = ExitCode.Interrupted,
  ) {
    super(message);
  }
}

/** How long an interrupted run waits for the server to stop before saying it is stopping it. */
const STOPPING_NOTE_AFTER_MS = 1000;

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
    if (parsed.kind === 'help' || parsed.kind === 'version') {
      io.stdout((parsed.kind === 'help' ? USAGE : `mcp-host ${cliVersion()}`) + '\n');
      return ExitCode.Ok;
    }
    if (parsed.kind === 'registry') return runRegistryCli(parsed.argv, io, signals.interrupt ? { signal: signals.interrupt } : {});
    if (parsed.kind === 'diff-files') {
      const changes = diffOffers(readOfferSnapshot(parsed.before), readOfferSnapshot(parsed.after), parsed.options);
      io.stdout(renderOfferChanges(changes, parsed.json) + '\n');
      return changes.length ? ExitCode.ToolError : ExitCode.Ok;
    }
    options = parsed.options;
  } catch (error) {
    io.stderr(describeFailure(error).join('\n') + '\n');
    return ExitCode.Failure;
  }

  if (options.command.kind === 'test') return runSavedTestsCli(options.command, options, io, terminal, signals);
  if (options.command.kind === 'doctor') return runDoctorCli(options, io);

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
  const command = options.command;
  const search = command.kind === 'tools' ? command.search : undefined;
  // A replay gives the server the answers the recorded client gave (sampling, elicitation, roots).
  let replay: LoadedReplay | undefined;
  try {
    if (command.kind === 'replay') replay = loadReplay(command.recording);
    const otherServer = replay && otherServerWarning(replay, targets[0].resolved);
    if (otherServer) io.stderr(otherServer + '\n');
    if (options.record && (targets.length > 1 || search)) throw new UsageError('--record records one server: choose one with --server NAME');
  } catch (error) {
    io.stderr(describeFailure(error).join('\n') + '\n');
    return ExitCode.Failure;
  }
  if (targets.length === 1 && !search) return runOn(targets[0], options, io, terminal, signals, (client, out, req, status) => execute(client, options, { ...out, stdoutColumns: terminal.stdoutColumns }, req, status, replay, { yes: options.yes === true, ...(terminal.ask ? { ask: terminal.ask } : {}) }), replay?.replies);

  // `tools` over several servers of a config file, or a search: one server after another.
  const listed: { server: string; tools: Tool[] }[] = [];
  let code: number = ExitCode.Ok;
  for (const target of targets) {
    const named: CliIo = target.name === undefined ? io : { stdout: io.stdout, stderr: (text) => io.stderr(text.replace(/^mcp-host: /gm, `mcp-host: ${target.name}: `)) };
    const status = await runOn(target, options, named, terminal, signals, async (client, _out, req) => {
      listed.push({ server: target.name ?? client.serverInfo?.name ?? 'server', tools: await client.listTools(req) });
      return ExitCode.Ok;
    });
    if (status === ExitCode.Interrupted) return status;
    if (status !== ExitCode.Ok) code = status;
  }
  if (search) {
    const results = searchListedTools(listed, search.query, search.limit);
    io.stdout((options.json ? printableJson({ results }).text : renderSearchResults(results, search.query)) + '\n');
  } else if (options.json) io.stdout(printableJson({ servers: listed }).text + '\n');
  else io.stdout(listed.map((l) => `== ${l.server}\n${renderTools(l.tools)}`).join('\n') + '\n');
  return code;
}

/**
 * `mcp-host test FILE`: each server the tests name is started once and its tests run in order;
 * one line a test, a summary, JUnit XML when asked. Exit 0 when all pass, 1 when one fails, 2
 * when one could not run (its server did not start, a request failed).
 */
async function runSavedTestsCli(command: Extract<CliCommand, { kind: 'test' }>, options: CliOptions, io: CliIo, terminal: CliIo, signals: CliSignals): Promise<number> {
  let file: SavedTestFile;
  let targets: CliTarget[];
  let approval: RunApproval = { yes: options.yes === true, ...(terminal.ask ? { ask: terminal.ask } : {}) };
  try {
    file = readSavedTests(command.file);
    const names = [...new Set(file.tests.map((t) => t.server))];
    targets = await cliTargets(options.server.kind === 'config' ? { ...options.server, names } : options.server);
    // A test file that brings its own servers starts them only with the user's yes.
    if (options.server.kind === 'config' && options.server.file === command.file) {
      await approveOwnServers(targets, file.tests, approval, io.stderr);
      approval = { ...approval, yes: true };
    }
  } catch (error) {
    io.stderr(describeFailure(error).join('\n') + '\n');
    return ExitCode.Failure;
  }
  const results: SavedTestResult[] = [];
  for (const target of targets) {
    // A server given by `--` or `--url` has no name: every test runs against it.
    const tests = target.name === undefined ? file.tests : file.tests.filter((t) => t.server === target.name);
    const ran: SavedTestResult[] = [];
    const named: CliIo = target.name === undefined ? io : { stdout: io.stdout, stderr: (text) => io.stderr(text.replace(/^mcp-host: /gm, `mcp-host: ${target.name}: `)) };
    const code = await runOn(target, options, named, terminal, signals, async (client, out, req) => {
      await approveServerTests(client, tests, approval, out.stderr, req);
      for (const test of tests) {
        const result = await runSavedTest(test, { client: async () => client, origin: 'mcp-host test', ...(req.signal ? { signal: req.signal } : {}) });
        ran.push(result);
        if (!options.json) out.stdout(describeTestResult(result).join('\n') + '\n');
      }
      return ExitCode.Ok;
    });
    results.push(...ran);
    if (code === ExitCode.Interrupted) return code;
    for (const test of tests.slice(ran.length)) {
      const result = testResult(test, [], 0, new Error(`the server ${test.server} could not run (see above)`));
      results.push(result);
      if (!options.json) io.stdout(describeTestResult(result).join('\n') + '\n');
    }
  }
  io.stdout((options.json ? testResultsJson(results) : testSummary(results)) + '\n');
  if (command.junit) {
    const problem = writeJunit(command.junit, results);
    if (problem) io.stderr(`mcp-host: ${problem}\n`);
  }
  if (results.some((r) => r.outcome === 'error')) return ExitCode.Failure;
  return results.some((r) => r.outcome === 'failed') ? ExitCode.ToolError : ExitCode.Ok;
}

/** `mcp-host doctor`: a diagnosis of each server named (no sign-in is started; a 401 is reported with its metadata). */
async function runDoctorCli(options: CliOptions, io: CliIo): Promise<number> {
  let targets: CliTarget[];
  try {
    targets = await cliTargets(options.server);
  } catch (error) {
    io.stderr(describeFailure(error).join('\n') + '\n');
    return ExitCode.Failure;
  }
  let healthy = true;
  for (const target of targets) {
    const redactor = new Redactor(target.resolved.secretValues);
    const diagnosis = await diagnose(target.resolved, {
      createTransport: () => createTransport(target, options.maxMessageBytes, undefined),
      clientInfo: { name: 'mcp-host-cli', version: cliVersion() },
      timeoutMs: options.timeoutMs ?? 10_000,
      tokenState: () => (target.resolved.type !== 'stdio' && target.signIn?.tokenCache ? `tokens are kept in ${target.signIn.tokenCache}` : undefined),
    });
    healthy &&= diagnosis.healthy;
    const heading = target.name ? [`== ${target.name}`] : [];
    io.stdout(redactor.redact([...heading, ...describeDiagnosis(diagnosis)].join('\n')) + '\n');
  }
  return healthy ? ExitCode.Ok : ExitCode.Failure;
}

/**
 * `gateway`: connects to every target (each through runOn, nested, so each keeps its own sign-in
 * and shutdown), serves them until interrupted, then ends the sessions and shuts the servers down.
 */
function runGateway(targets: readonly CliTarget[], options: CliOptions, port: number | undefined, io: CliIo, terminal: CliIo, signals: CliSignals): Promise<number> {
  const names = targets.map((t, i) => t.name ?? (targets.length === 1 ? 'server' : `server-${i + 1}`));
  const redactor = new Redactor(targets.flatMap((t) => t.resolved.secretValues));
  const connect = async (index: number, clients: { name: string; client: McpClient }[]): Promise<number> => {
    if (index === targets.length) {
      const stop = signals.interrupt ?? new AbortController().signal;
      await serveGateway({ servers: clients, port, json: options.json, trace: options.trace, stdout: io.stdout, stderr: io.stderr, signal: stop, redact: (text) => redactor.redact(text) });
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
async function runOn(target: CliTarget, options: CliOptions, io: CliIo, terminal: CliIo, signals: CliSignals, action: ConnectedAction, replies?: RecordedReplies): Promise<number> {
  const signal = signals.interrupt;
  // Stops the current request (with notifications/cancelled) when interrupted or when the run cannot go on.
  const stop = new AbortController();
  const store = new DisposableStore();
  // Stopping a stdio server may take its grace periods: after a moment, say what is going on.
  let stoppingNote: ReturnType<typeof setTimeout> | undefined;
  const onAbort = () => {
    stop.abort(signal?.reason instanceof Error ? signal.reason : new Interrupted('interrupted'));
    if (target.resolved.type === 'stdio') stoppingNote = setTimeout(() => io.stderr('mcp-host: stopping the server…\n'), STOPPING_NOTE_AFTER_MS);
  };
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });

  // Values of Authorization-like headers and of secret variables, and everything sign-in obtains, never reach stdout or stderr.
  const { resolved } = target;
  const redactor = new Redactor(resolved.secretValues);
  const out: CliIo = { stdout: (text) => io.stdout(redactor.redact(text)), stderr: (text) => io.stderr(redactor.redact(text)) };
  const status = new StatusLine(out.stderr, terminal.stderr, terminal.stderrColumns);
  let session: OAuthSession | undefined;
  let recorder: RecordingWriter | undefined;
  try {
    session = signInSession(target, options.trace, redactor, status);
    recorder = options.record === undefined ? undefined : openRecorder(options.record, resolved, redactor, store);
  } catch (error) {
    out.stderr(describeFailure(error).join('\n') + '\n');
    return ExitCode.Failure;
  }
  // The era each server spoke is kept across runs: only the first run against a server probes.
  const eras = { memory: new EraMemory(cliEraStore()), key: cliEraKey(resolved.type === 'stdio' ? { kind: 'stdio', command: resolved.command, args: resolved.args } : { kind: 'remote', url: resolved.url }, process.cwd()) };
  let transport!: Transport;
  let client!: McpClient;
  let rootsAsked!: Promise<void>;
  /** The first lines the server printed on stdout, for a command that exits before answering. */
  let heads: { stdout: string[] } = { stdout: [] };
  /** True once the handshake completed: a later exit is one during a request, not at start. */
  let answered = false;
  const open = () => {
    transport = createTransport(target, options.maxMessageBytes, session && pausingTimeouts(session, () => client), signal);
    client = newCliClient(options, eras, replies);
    const current = client;
    if (replies) for (const [method, handler] of replies.handlers) store.add(current.onRequest(method, handler));
    if (recorder) store.add(current.onFrame((frame) => recorder.frame(frame)));
    heads = { stdout: [] };
    watchClient(client, options, status, stop, heads, store);
    // Subscribed before connecting: the request can come right after `initialized`.
    rootsAsked = new Promise<void>((resolve) => store.add(current.onRootsListed(() => resolve())));
  };
  open();
  // A second close() skips the grace periods and kills the tree.
  const force = () => void transport.close();
  signals.force?.addEventListener('abort', force, { once: true });

  // The transports' timers (reconnect delays, request timeouts) are unref'd so they never hold an
  // editor; the run holds the process itself until it settles, or a request still waiting (a
  // stream being resumed) would end the process with status 0 and nothing printed.
  const keepAlive = setInterval(() => {}, 1 << 30);
  try {
    if (stop.signal.aborted) throw stop.signal.reason;
    try {
      await client.connect(transport, { timeoutMs: options.timeoutMs, signal: stop.signal });
    } catch (error) {
      // A server that exits when probed is started again, once: the era memory now says initialize.
      if (stop.signal.aborted || !exitedOnProbe(error)) throw error;
      status.printLine(`mcp-host: ${PROBE_RESTART_NOTE}`);
      await client.close().catch(() => {});
      client.dispose();
      open();
      await client.connect(transport, { timeoutMs: options.timeoutMs, signal: stop.signal });
    }
    answered = true;
    if (options.roots.length) await rootsApplied(rootsAsked, stop.signal);
    if (options.pinsFile && (await pinsChanged(client, options.pinsFile, resolved, out.stderr, stop.signal))) return ExitCode.Failure;
    return await action(client, out, { signal: stop.signal }, status);
  } catch (error) {
    status.clear();
    // A cancelled request only says "cancelled"; the reason we stopped is the real story, and
    // for a server that still wants authorization, why sign-in stopped.
    const signIn = !stop.signal.aborted && closedForAuthorization(error) ? session?.state() : undefined;
    const reported = stop.signal.aborted ? stop.signal.reason : error;
    const beforeAnswering = !answered && resolved.type === 'stdio' ? heads : undefined;
    out.stderr(describeFailure(signIn?.lastError ? new Error(signInFailure(signIn)) : reported, beforeAnswering).join('\n') + '\n');
    return reported instanceof Interrupted ? reported.exitCode : ExitCode.Failure;
  } finally {
    status.clear();
    signal?.removeEventListener('abort', onAbort);
    await client.close().catch(() => {});
    clearTimeout(stoppingNote);
    signals.force?.removeEventListener('abort', force);
    store.dispose();
    client.dispose();
    clearInterval(keepAlive);
  }
}

/** The sign-in of a remote server given sign-in flags (or an `"oauth"` block); none for stdio. Throws a usage error for a flag it cannot use. */
function signInSession(target: CliTarget, trace: boolean, redactor: Redactor, status: StatusLine): OAuthSession | undefined {
  const { resolved } = target;
  if (resolved.type === 'stdio' || !target.signIn) return undefined;
  const traceLine = trace ? (line: string) => status.printLine(`${timestamp(Date.now())} [auth] ${line}`) : undefined;
  return cliSession({ serverUrl: resolved.url, signIn: target.signIn, redactor, print: (line) => status.printLine(line), ...(traceLine ? { trace: traceLine } : {}), ...(resolved.oauth ? { oauth: resolved.oauth } : {}) });
}

/** The CLI's client of one server, before it connects. */
function newCliClient(options: CliOptions, eraMemory: { readonly memory: EraMemory; readonly key: string }, replies: RecordedReplies | undefined): McpClient {
  return new McpClient({
    clientInfo: { name: 'mcp-host-cli', version: cliVersion() },
    protocol: options.protocolVersion ?? 'auto',
    requestTimeoutMs: options.timeoutMs,
    roots: options.roots.length ? directoryRoots(options.roots) : undefined,
    eraMemory,
    ...(options.connectTimeoutMs === undefined ? {} : { probeTimeoutMs: options.connectTimeoutMs }),
    // A replay declares what the recorded client did; otherwise the Skills extension is declared.
    capabilities: replies ? replies.capabilities : withSkillsCapability(),
  });
}

/** The client's output the run shows: --trace frames, log messages, the first lines of a server's output; an oversize answer stops the run. */
function watchClient(client: McpClient, options: CliOptions, status: StatusLine, stop: AbortController, heads: { stdout: string[] }, store: DisposableStore): void {
  if (options.trace) store.add(traceClient(client, (line) => status.printLine(line)));
  const minLevel = LoggingLevels.indexOf(options.logLevel);
  store.add(
    client.onLogMessage((message) => {
      if (LoggingLevels.indexOf(message.level) >= minLevel) status.printLine(renderLogMessage(message));
    }),
  );
  store.add(
    client.onTransportLog((log) => {
      if ((log.kind === 'noise' || log.kind === 'invalid-json') && heads.stdout.length < STDOUT_HEAD_SHOWN) heads.stdout.push(log.text);
      if (log.kind !== 'oversize') return;
      // The dropped message was an answer we are waiting for: failing now beats a timeout.
      const limit = formatBytes(options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
      stop.abort(new McpLocalError('invalid-result', `the server sent a message larger than the ${limit} limit; raise it with --max-message-mb`));
    }),
  );
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
    proof: (request, authorization) => session.proof(request, authorization),
    noteNonce: (url, nonce) => session.noteNonce(url, nonce),
  };
}

/** True when `error` says the server closed the connection for want of authorization (401/403). */
function closedForAuthorization(error: unknown): boolean {
  if (!McpLocalError.is(error)) return false;
  const reason = connectionEndOf(error).reason;
  return reason?.kind === 'authorization-required';
}

/** The server's transport (through the product's one factory), with sign-in when given. */
function createTransport(target: CliTarget, maxMessageBytes: number | undefined, auth: AuthProvider | undefined, interrupted?: AbortSignal): Transport {
  // Interrupted, the server is stopped at once (SIGTERM, then the grace for its exit): Ctrl-C is prompt.
  const create = transportFactory({ stdio: { maxMessageBytes, stderrTailLines: STDERR_TAIL_SHOWN * 2, ...(interrupted ? { interrupted } : {}) }, http: { maxMessageBytes, ...(auth ? { auth } : {}) }, httpMode: target.httpMode, ...cliSandboxOptions(target) });
  // The entry, so its own sandbox applies as in the editor.
  return create(target.resolved, target.entry);
}

/** Runs the command on a connected client; `steps` are the requests of a recording to replay, read before connecting. */
async function execute(client: McpClient, options: CliOptions, io: CliIo, req: RequestOptions, status: StatusLine, replay: LoadedReplay | undefined, approval: RunApproval): Promise<number> {
  const { command, json } = options;
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
      // What was received is printed even when a list fails; the error follows on stderr.
      const { inspection, failed } = await inspectServer(client, lists);
      if (json) printJson(failed ? { ...inspection, failed: { list: failed.list, error: errorMessage(failed.error) } } : inspection);
      else print(renderInspection(inspection, { columns: io.stdoutColumns, ...(failed ? { failedList: failed.list } : {}) }));
      if (failed) throw failed.error;
      return ExitCode.Ok;
    }
    case 'tools': {
      const tools = await client.listTools(lists);
      if (json) printJson({ tools });
      else print(renderTools(tools));
      return ExitCode.Ok;
    }
    case 'call':
      return runCall(client, command, options.strict, io, req, status, { json, print, printJson });
    case 'read': {
      const result = await client.readResource(command.uri, req);
      if (json) printJson(result);
      else print(renderReadResult(result));
      return ExitCode.Ok;
    }
    case 'skills':
      await listSkillsCommand(client, json, skillsIo(io, printJson), req);
      return ExitCode.Ok;
    case 'skill':
      await loadSkillCommand(client, command.uri, command.out, json, skillsIo(io, printJson), req);
      return ExitCode.Ok;
    case 'prompt': {
      const result = await client.getPrompt(command.name, command.args, req);
      if (json) printJson(result);
      else print(renderPromptResult(result));
      return ExitCode.Ok;
    }
    case 'diff': {
      // Read first: a wrong path fails before the server is asked anything.
      const before = readOfferSnapshot(command.before);
      const changes = diffOffers(before, await wholeInspection(client, lists), command.options);
      print(renderOfferChanges(changes, json));
      return changes.length ? ExitCode.ToolError : ExitCode.Ok;
    }
    case 'test':
    case 'doctor':
    case 'gateway':
      throw new UsageError(`${command.kind} runs its own servers`);
    case 'replay': {
      await approveReplay(client, replay!, approval, io.stderr, req);
      const replayed = await replaySteps(client, replay!.steps, command.ignore, req.signal);
      print(renderReplay(replayed, json));
      return replayed.some((r) => r.outcome === 'different') ? ExitCode.ToolError : ExitCode.Ok;
    }
    case 'tasks': {
      const listing = await listTasks(client, req);
      if (json) printJson({ tasks: listing.tasks, ...(listing.stopped ? { stopped: listing.stopped, pages: listing.pages } : {}) });
      else print(renderTasks(listing.tasks));
      if (listing.stopped) io.stderr(`mcp-host: tasks/list: ${describeLeftTasks(listing)}\n`);
      return ExitCode.Ok;
    }
    case 'ping': {
      const ms = await client.ping(req);
      if (json) printJson({ roundTripMs: round(ms) });
      else print(`pong in ${round(ms)} ms`);
      return ExitCode.Ok;
    }
    default: {
      const never: never = command;
      throw new UsageError(`unknown command ${JSON.stringify(never)}`);
    }
  }
}

/** `call TOOL`: the editor's tool-call use case, its result printed, its outputSchema checked (failing with --strict); exit 1 for a tool error. */
async function runCall(client: McpClient, command: Extract<CliCommand, { kind: 'call' }>, strict: boolean, io: CliIo, req: RequestOptions, status: StatusLine, { json, print, printJson }: CommandOutput): Promise<number> {
  const refusal = command.task ? client.eraCodec?.taskFlagRefusal() : undefined;
  if (refusal) io.stderr(`mcp-host: ${refusal}\n`);
  // The editor's use case: the CLI does not list tools first, so the server checks the
  // arguments; progress is shown on a terminal and restarts the timeout, as in the editor.
  const outcome = await callTool(
    { serverId: 'cli', tool: await toolToCall(client, command.tool, command.noValidate === true, req), arguments: { mode: 'value', value: command.args }, origin: 'the CLI', ...(req.signal ? { signal: req.signal } : {}), ...(command.task ? { task: true } : {}) },
    // A task's status line (status message, elapsed, progress) replaces the plain progress line.
    { client: () => client, onProgress: (p) => status.show(renderProgress(p)), onTaskStatus: (update) => status.show(renderTaskStatus(update)) },
  );
  status.clear();
  if (outcome.kind === 'failed' || outcome.kind === 'unavailable') throw outcome.error;
  if (outcome.kind !== 'answered') throw outcome.kind === 'invalid' ? invalidArguments(command.tool, outcome.errors) : new UsageError('the call was not confirmed');
  const result = outcome.result;
  if (json) printJson(result);
  else print(renderCallResult(result));
  // As the editor does: a result that breaks its own outputSchema is said (and fails with --strict).
  const problem = await outputSchemaProblem(client, command.tool, result, req);
  if (problem) io.stderr(`mcp-host: warning: ${problem.text}${problem.broken && !strict ? ' (--strict makes this fail)' : ''}\n`);
  if (problem?.broken && strict) return ExitCode.ToolError;
  if (!result.isError) return ExitCode.Ok;
  io.stderr(`mcp-host: the tool ${command.tool} reported an error (isError)\n`);
  return ExitCode.ToolError;
}

/** How a command prints: as text (a newline added) or, with --json, as JSON (cut when too deep, said on stderr). */
interface CommandOutput {
  readonly json: boolean;
  readonly print: (text: string) => void;
  readonly printJson: (value: unknown) => void;
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
  return pause(ms, signal, () => {});
}

function directoryRoots(dirs: readonly string[]): RootsProvider {
  const roots = dirs.map((dir) => ({ uri: pathToFileURL(dir).href, name: basename(dir) || dir }));
  return { listRoots: () => roots };
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
