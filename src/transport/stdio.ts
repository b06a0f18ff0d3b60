// Runs an MCP server as a child process and speaks NDJSON over its stdin/stdout: the batched
// writes and the sliced reads (the hot path) live here; starting the process is stdioLaunch.ts,
// stopping its tree stdioShutdown.ts.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { McpLocalError, errorMessage } from '../protocol/errors';
import { Emitter } from '../protocol/events';
import { OutboundFrame, Transport, TransportCloseInfo, TransportLog, TransportStats } from '../protocol/transport';
import { mergeEnv, ProcessEnv } from './commandResolver';
import { DEFAULT_MAX_MESSAGE_BYTES, LineDecoder } from './lineDecoder';
import { ProcessTree } from './processTree';
import type { StdioSandbox } from './sandboxedLaunch';
import { launchServerProcess } from './stdioLaunch';
import { delay, ProcessShutdown, ServerProcess } from './stdioShutdown';
import { StderrExcerpt } from '../protocol/stderrExcerpt';
import { TextLineSplitter } from './textLineSplitter';

export interface StdioTransportOptions {
  /** The executable: a bare name searched on PATH, or a path (relative ones resolve against `cwd`). */
  readonly command: string;
  readonly args?: readonly string[];
  /** Variables laid over this process's environment; an `undefined` value unsets one. Its PATH is the one searched. */
  readonly env?: ProcessEnv;
  /** Working directory of the server; default this process's. */
  readonly cwd?: string;
  /** Largest inbound message in bytes; longer lines are dropped and reported. Default 128 MiB. */
  readonly maxMessageBytes?: number;
  /** How long to wait for the server to exit after its stdin is closed. Default 3000 ms. */
  readonly closeGraceMs?: number;
  /** How long to wait after SIGTERM before SIGKILL. Default 3000 ms. */
  readonly termGraceMs?: number;
  /**
   * Once aborted (the user interrupted: Ctrl-C), closing does not wait `closeGraceMs` for the
   * server to end on its own after stdin ends: SIGTERM follows at once, and only the wait for
   * its exit after that (`termGraceMs`) remains. A server busy with a long call ignores the end
   * of its stdin until the call is done.
   */
  readonly interrupted?: AbortSignal;
  /** How many of the last stderr lines to keep for the close info. Default 20. */
  readonly stderrTailLines?: number;
  /** How often the server's descendants are recorded while it runs (Linux; see ProcessTree.watch). Default 2000 ms. */
  readonly processScanMs?: number;
  /** Run the server inside this bubblewrap sandbox (see sandboxedLaunch.ts); a sandbox that cannot start fails the start. */
  readonly sandbox?: StdioSandbox;
}

/**
 * Set in every server's environment with a value unique to that server: its descendants inherit
 * it, so shutdown finds them even after they left its process tree (see ProcessTree).
 */
export const PROCESS_TAG_VARIABLE = 'MCP_HOST_PROCESS_TAG';

/** After the process exits, how long to wait for its stdout/stderr to end (a grandchild may hold them open forever). */
const STREAM_SETTLE_MS = 250;

type Phase =
  | { readonly kind: 'idle' }
  | { readonly kind: 'starting' }
  | { readonly kind: 'running'; readonly server: ServerProcess }
  /** The process exited; onClose has fired or is about to, once its output is read. */
  | { readonly kind: 'exited'; readonly server: ServerProcess }
  /** Never ran: closed before it started, or failed to start. */
  | { readonly kind: 'done' };

/** The messages of one flush: they go out in one write and share one promise. */
interface Batch {
  readonly messages: string[];
  /** Total length of the messages, in UTF-16 units. */
  length: number;
  readonly done: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/** A message at least this long (in UTF-16 units) is written on its own, encoded once into an exact-size buffer. */
const LARGE_MESSAGE = 64 * 1024;
/** A batch this long (UTF-16 units) is written at once instead of at the end of the tick. */
const EARLY_FLUSH = 32 * 1024;
/**
 * Output waiting for a server that does not read its stdin (batch plus stream buffer, in
 * UTF-16 units and bytes alike) past which its stdout is no longer read: a server flooding
 * requests it never reads the answers to would otherwise grow the host's memory without end.
 */
const PAUSE_READING_ABOVE = 8 * 1024 * 1024;
/** The same for the number of waiting messages: each small one costs far more than its length. */
const PAUSE_READING_ABOVE_MESSAGES = 10_000;
/** Reading resumes once the waiting output is below this. */
const RESUME_READING_BELOW = 1024 * 1024;
/**
 * Bytes of stdout handed on per turn of the event loop (cut at the next newline). A flooding
 * server's output arrives 64 KiB per read, hundreds of messages whose handling would otherwise
 * hold the host for tens of milliseconds at once; the rest of the read waits for the next turn.
 */
const STDOUT_SLICE_BYTES = 16 * 1024;
/** Reading pauses while this much waits to be handed on, and resumes at a quarter of it. */
const UNREAD_PAUSE_BYTES = 256 * 1024;
const UNREAD_RESUME_BYTES = 64 * 1024;

/**
 * Runs an MCP server as a child process and exchanges newline-delimited JSON-RPC over its
 * stdin/stdout; stderr lines become logs. Imports no `vscode`.
 *
 * Shutdown (`close()`) is a sequence: end stdin and wait `closeGraceMs`; then SIGTERM the whole
 * process tree and wait `termGraceMs`; then SIGKILL it. "The whole tree" is the server's process
 * group and session, every descendant seen through parent links while the server ran and before
 * it is signalled, and every process carrying its {@link PROCESS_TAG_VARIABLE} (see
 * {@link ProcessTree}, which also says what cannot be found). A second `close()` while closing skips the remaining grace
 * periods and goes straight to SIGKILL; it returns the same promise. When the server exits on
 * its own, processes it left behind are cleaned up the same way.
 */
export class StdioTransport implements Transport {
  private readonly _onMessage = new Emitter<{ readonly message: unknown; readonly bytes: number; readonly text: string }>((e) => this.listenerFailed('onMessage', e));
  private readonly _onClose = new Emitter<TransportCloseInfo>((e) => this.listenerFailed('onClose', e));
  // A failing log listener cannot be reported through the log itself.
  private readonly _onLog = new Emitter<TransportLog>();

  /** One parsed JSON value per line of the server's stdout, with its size in bytes. */
  readonly onMessage = this._onMessage.event;
  /** Fires exactly once: when the process exits, when start fails, or on close before start. */
  readonly onClose = this._onClose.event;
  /** Server stderr lines, skipped stdout lines and lifecycle steps. */
  readonly onLog = this._onLog.event;

  private readonly stderrTailLines: number;
  private readonly stopper: ProcessShutdown;

  private phase: Phase = { kind: 'idle' };
  private starting: Promise<void> | undefined;
  private shutdown: Promise<void> | undefined;
  private closeCalls = 0;
  private closeFired = false;

  /**
   * Messages sent since the last flush. They go out together on the next tick (one write, one
   * syscall for many requests), or on 'drain' while stdin is above its high-water mark.
   */
  private batch: Batch | undefined;
  private flushScheduled = false;
  private blocked = false;
  private accepting = false;
  /** Reading the server's stdout is paused until it reads what waits for it (back-pressure). */
  private readingPaused = false;
  /** Reads of stdout not yet handed to the decoder (a flood's), and their size. */
  private readonly unread: Buffer[] = [];
  private unreadBytes = 0;
  private nextSlice: ReturnType<typeof setImmediate> | undefined;
  /** Reading the server's stdout is paused while much of it waits in `unread`. */
  private slicing = false;

  private readonly stderrTail: string[] = [];
  private readonly stderrExcerpt = new StderrExcerpt();
  private readonly decoder: LineDecoder;
  private readonly counters = { bytesSent: 0, bytesReceived: 0, messagesSent: 0 };
  private pid: number | undefined;
  private startedAt: number | undefined;

  constructor(private readonly options: StdioTransportOptions) {
    this.stopper = new ProcessShutdown({ closeGraceMs: options.closeGraceMs ?? 3000, termGraceMs: options.termGraceMs ?? 3000, interrupted: options.interrupted, log: (text) => this.lifecycle(text) });
    this.stderrTailLines = options.stderrTailLines ?? 20;
    this.decoder = new LineDecoder(
      {
        message: (message, bytes, text) => this._onMessage.fire({ message, bytes, text }),
        log: (log) => this._onLog.fire(log),
      },
      { maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES },
    );
  }

  /**
   * Resolves the command on PATH, spawns it and resolves once the process is running.
   * Rejects with `McpLocalError('spawn')` when the command or working directory is missing or
   * the spawn fails (onClose then fires with reason 'start-failed'), and with 'closed' after close().
   */
  start(): Promise<void> {
    if (this.phase.kind === 'done' && this.shutdown) return Promise.reject(new McpLocalError('closed', 'the transport was closed before it started'));
    if (this.phase.kind !== 'idle') return Promise.reject(new McpLocalError('usage', 'start() can only be called once'));
    this.phase = { kind: 'starting' };
    this.starting = this.spawnServer();
    return this.starting;
  }

  /**
   * Writes one message and a newline. Resolves when the bytes were handed to the OS. When stdin
   * is full, sends wait in one queue for one shared 'drain' listener and go out in order.
   * Rejects with `McpLocalError('closed')` once closing has begun or the process has exited.
   * Only the frame's pre-serialised `json` is used.
   */
  send(frame: OutboundFrame): Promise<void> {
    const json = frame.json;
    if (!this.accepting || this.phase.kind !== 'running') return Promise.reject(this.closedError());
    let batch = this.batch;
    if (!batch) {
      let resolve!: () => void;
      let reject!: (error: Error) => void;
      const done = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      this.batch = batch = { messages: [], length: 0, done, resolve, reject };
    }
    batch.messages.push(json);
    batch.length += json.length;
    if (this.blocked) this.pauseReadingIfFlooded();
    // A long burst starts going out before the tick ends, so the server can start on it while
    // the rest is still being written.
    if (!this.blocked && batch.length >= EARLY_FLUSH) this.flush();
    else if (!this.blocked && !this.flushScheduled) {
      this.flushScheduled = true;
      process.nextTick(() => {
        this.flushScheduled = false;
        if (!this.blocked) this.flush();
      });
    }
    return batch.done;
  }

  /**
   * Stops the server: end stdin, SIGTERM the tree after `closeGraceMs`, SIGKILL it after
   * `termGraceMs`. Resolves when the process has exited and its descendants are gone or were
   * killed. Idempotent: later calls return the same promise, and a call while closing skips
   * the remaining grace periods. Never rejects.
   */
  close(): Promise<void> {
    this.closeCalls++;
    if (this.shutdown && this.closeCalls > 1) this.stopper.force();
    return this.ensureShutdown();
  }

  /**
   * Starts closing without waiting, and disposes the events once closed. Unlike a second
   * `close()` it never forces: an owner disposing right after a client closed the transport
   * must not cut the grace periods short.
   */
  dispose(): void {
    void this.ensureShutdown().finally(() => {
      this._onMessage.dispose();
      this._onClose.dispose();
      this._onLog.dispose();
    });
  }

  stats(): TransportStats {
    const decoded = this.decoder.stats();
    return {
      bytesSent: this.counters.bytesSent,
      bytesReceived: this.counters.bytesReceived,
      messagesSent: this.counters.messagesSent,
      messagesReceived: decoded.messages,
      // Every stdout line that was skipped as not JSON-RPC: banners, logs and broken JSON.
      noiseLines: decoded.noiseLines + decoded.invalidJsonLines,
      startedAt: this.startedAt,
      process: { pid: this.pid },
    };
  }

  // ---- start ----

  private async spawnServer(): Promise<void> {
    const { command } = this.options;
    const args = [...(this.options.args ?? [])];
    const cwd = path.resolve(this.options.cwd ?? process.cwd());
    const tag = { name: PROCESS_TAG_VARIABLE, value: randomBytes(12).toString('hex') };
    const env = mergeEnv(process.env, { ...this.options.env, [tag.name]: tag.value });

    let child: ChildProcessWithoutNullStreams;
    try {
      child = await launchServerProcess({ command, args, cwd, env, tagName: tag.name, sandbox: this.options.sandbox }, () => this.shutdown !== undefined);
    } catch (cause) {
      const error = McpLocalError.is(cause)
        ? cause
        : new McpLocalError('spawn', `cannot start "${command}": ${errorMessage(cause)}`, { command, cause });
      this.phase = { kind: 'done' };
      this.fireClose(error.kind === 'closed' ? { reason: { kind: 'closed-by-client' } } : { reason: { kind: 'start-failed', message: error.message }, error });
      throw error;
    }

    this.pid = child.pid;
    this.startedAt = Date.now();
    this.accepting = true;
    this.phase = { kind: 'running', server: this.attach(child, tag) };
    this.lifecycle(`started ${[command, ...args].join(' ')} (pid ${child.pid})${this.options.sandbox ? ' in its sandbox' : ''}`);
  }

  /** Wires the process's streams and events. */
  private attach(child: ChildProcessWithoutNullStreams, tag: { readonly name: string; readonly value: string }): ServerProcess {
    const stderrLines = new TextLineSplitter((line) => {
      this.stderrTail.push(line);
      if (this.stderrTail.length > this.stderrTailLines) this.stderrTail.shift();
      this.stderrExcerpt.push(line);
      this._onLog.fire({ kind: 'stderr', text: line });
    });

    child.stdout.on('data', (chunk: Buffer) => {
      if (this.closeFired) return;
      this.counters.bytesReceived += chunk.length;
      this.deliver(child, chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (!this.closeFired) stderrLines.push(chunk);
    });
    // Without these listeners a broken pipe (the server exited) would crash the host.
    child.stdin.on('error', (error) => this.lifecycle(`stdin: ${error.message}`));
    child.stdout.on('error', (error) => this.lifecycle(`stdout: ${error.message}`));
    child.stderr.on('error', (error) => this.lifecycle(`stderr: ${error.message}`));
    child.stdin.on('drain', () => this.flushWrites());
    child.on('error', (error) => this.lifecycle(`process: ${error.message}`));

    const outputEnded = Promise.all([streamEnded(child.stdout), streamEnded(child.stderr)]);
    let markExited!: () => void;
    let markSettled!: () => void;
    const server: ServerProcess = {
      child,
      tree: new ProcessTree(child.pid!, process.platform, tag),
      exit: new Promise<void>((resolve) => (markExited = resolve)),
      settled: new Promise<void>((resolve) => (markSettled = resolve)),
      exited: false,
    };
    // A child that calls setsid() and outlives its parent is only reachable if seen before.
    server.tree.watch(this.options.processScanMs ?? 2000);

    child.once('exit', (code, signal) => {
      server.tree.unwatch();
      server.exited = true;
      markExited();
      this.phase = { kind: 'exited', server };
      this.stopSending('the server exited');
      // What it wrote before it died is read to the end. (While it is being closed it stays
      // paused: reading a flood only to drop it would keep the host busy until the kill.)
      this.resumeReading('the server exited');
      this.lifecycle(signal ? `process exited on ${signal}` : `process exited with code ${code}`);
      // Deliver what the server wrote before it died, then report the exit.
      void Promise.race([outputEnded, delay(STREAM_SETTLE_MS)]).then(() => {
        this.deliverUnread();
        this.decoder.end();
        stderrLines.end();
        this.fireClose({ reason: { kind: 'process-exited', code, signal }, process: { pid: child.pid, stderrTail: [...this.stderrTail], stderrExcerpt: this.stderrExcerpt.lines() } });
        child.stdin.destroy();
        child.stdout.destroy();
        child.stderr.destroy();
        markSettled();
      });
      // Processes the server left behind are cleaned up even when nobody calls close().
      void this.ensureShutdown();
    });
    return server;
  }

  // ---- send ----

  /**
   * Writes the pending batch: runs of small messages joined into one string, each large
   * message encoded once into an exact-size buffer (joining would copy it again, and two huge
   * ones could pass the longest string V8 allows). Only the last write carries the callback:
   * a stream completes writes in order, and after an error it fails every later one.
   */
  private flush(): void {
    const batch = this.batch;
    if (!batch) return;
    this.batch = undefined;
    const stdin = this.currentChild()?.stdin;
    if (!stdin || !this.accepting) {
      batch.reject(this.closedError());
      return;
    }
    const server = this.phase.kind === 'running' ? this.phase.server : undefined;
    const done = (error?: Error | null) => {
      if (!error) return batch.resolve();
      // A broken pipe mostly means the server is exiting: its exit (code, output), reported
      // through onClose first, says more than EPIPE does.
      void Promise.race([server?.settled, delay(STREAM_SETTLE_MS * 2)]).then(() => batch.reject(this.closedError(error)));
    };
    const { messages } = batch;
    this.counters.messagesSent += messages.length;
    let ok = true;
    let runStart = 0;
    const writeRun = (end: number, last: boolean) => {
      if (end === runStart) return;
      const text = end - runStart === 1 ? `${messages[runStart]}\n` : `${messages.slice(runStart, end).join('\n')}\n`;
      this.counters.bytesSent += Buffer.byteLength(text, 'utf8');
      ok = (last ? stdin.write(text, 'utf8', done) : stdin.write(text, 'utf8')) && ok;
    };
    for (let i = 0; i < messages.length; i++) {
      const json = messages[i];
      if (json.length < LARGE_MESSAGE) continue;
      writeRun(i, false);
      runStart = i + 1;
      const length = Buffer.byteLength(json, 'utf8');
      const data = Buffer.allocUnsafe(length + 1);
      data.write(json, 0, length, 'utf8');
      data[length] = 0x0a;
      this.counters.bytesSent += data.length;
      const last = i === messages.length - 1;
      ok = (last ? stdin.write(data, done) : stdin.write(data)) && ok;
    }
    writeRun(messages.length, true);
    if (!ok) {
      this.blocked = true;
      this.pauseReadingIfFlooded();
    }
  }

  /** On 'drain': what was sent while stdin was full goes out now. */
  private flushWrites(): void {
    this.blocked = false;
    this.flush();
    if (this.readingPaused && this.waitingOutput() < RESUME_READING_BELOW) this.resumeReading('the server read what was waiting for it');
  }

  /**
   * Hands a read of stdout to the decoder. A small read with nothing waiting goes at once; a larger
   * one waits in `unread` and is handed on STDOUT_SLICE_BYTES (to a newline) per turn of the event
   * loop, in order. Reading pauses while much waits.
   */
  private deliver(child: ChildProcessWithoutNullStreams, chunk: Buffer): void {
    if (this.unread.length === 0 && chunk.length <= STDOUT_SLICE_BYTES) {
      this.decoder.push(chunk);
      return;
    }
    this.unread.push(chunk);
    this.unreadBytes += chunk.length;
    if (this.unreadBytes > UNREAD_PAUSE_BYTES && !this.slicing) {
      this.slicing = true;
      child.stdout.pause();
    }
    this.nextSlice ??= setImmediate(() => this.deliverSlice(child));
  }

  private deliverSlice(child: ChildProcessWithoutNullStreams): void {
    this.nextSlice = undefined;
    // Paused because the server does not read its stdin: what was read waits too (each request
    // handed on would queue one more answer for it); reading again hands it on first.
    if (this.closeFired || this.readingPaused) return;
    let budget = STDOUT_SLICE_BYTES;
    while (budget > 0 && this.unread.length > 0) {
      const head = this.unread[0];
      const cut = head.length <= budget ? head.length : head.indexOf(0x0a, budget - 1) + 1 || head.length;
      if (cut === head.length) this.unread.shift();
      else this.unread[0] = head.subarray(cut);
      this.unreadBytes -= cut;
      budget -= cut;
      this.decoder.push(cut === head.length ? head : head.subarray(0, cut));
    }
    if (this.unread.length > 0) this.nextSlice = setImmediate(() => this.deliverSlice(child));
    if (this.slicing && this.unreadBytes <= UNREAD_RESUME_BYTES) {
      this.slicing = false;
      if (!this.readingPaused) child.stdout.resume();
    }
  }

  /** Hands on everything still waiting (the server exited: its last words come before the close). */
  private deliverUnread(): void {
    if (this.nextSlice) clearImmediate(this.nextSlice);
    this.nextSlice = undefined;
    for (const chunk of this.unread.splice(0)) this.decoder.push(chunk);
    this.unreadBytes = 0;
  }

  /** Characters sent but not yet handed to the OS: the pending batch and the stdin buffer. */
  private waitingOutput(): number {
    return (this.batch?.length ?? 0) + (this.currentChild()?.stdin.writableLength ?? 0);
  }

  /**
   * Stops reading the server's stdout while it does not read its stdin: the answers to what it
   * sends would pile up here. The server then blocks on its own full stdout pipe.
   */
  private pauseReadingIfFlooded(): void {
    const child = this.currentChild();
    if (!child || this.readingPaused) return;
    if (this.waitingOutput() <= PAUSE_READING_ABOVE && (this.batch?.messages.length ?? 0) <= PAUSE_READING_ABOVE_MESSAGES) return;
    this.readingPaused = true;
    child.stdout.pause();
    this.lifecycle(`the server is not reading its stdin: ${Math.round(this.waitingOutput() / 1024)} KiB wait for it; its output is not read until it catches up`);
  }

  private resumeReading(why: string): void {
    if (!this.readingPaused) return;
    this.readingPaused = false;
    const child = this.phase.kind === 'running' || this.phase.kind === 'exited' ? this.phase.server.child : undefined;
    if (!this.slicing) child?.stdout.resume();
    if (child && this.unread.length > 0) this.nextSlice ??= setImmediate(() => this.deliverSlice(child));
    this.lifecycle(`reading the server's output again: ${why}`);
  }

  /**
   * Refuses further sends. With `deliver` (a graceful close, stdin still open) the pending batch
   * is written first unless stdin is full, so cancellations sent just before closing arrive;
   * otherwise it fails.
   */
  private stopSending(why: string, deliver = false): void {
    if (deliver && !this.blocked) this.flush();
    this.accepting = false;
    const batch = this.batch;
    this.batch = undefined;
    batch?.reject(new McpLocalError('closed', `message not sent: ${why}`));
  }

  private closedError(cause?: Error): McpLocalError {
    const why = this.phase.kind === 'exited' ? 'the server process has exited' : 'the transport is closed';
    return new McpLocalError('closed', cause ? `${why} (${cause.message})` : why, cause ? { cause } : {});
  }

  // ---- shutdown ----

  private ensureShutdown(): Promise<void> {
    this.shutdown ??= this.runShutdown();
    return this.shutdown;
  }

  private async runShutdown(): Promise<void> {
    if (this.phase.kind === 'starting') await this.starting?.catch(() => undefined);
    const phase = this.phase;
    switch (phase.kind) {
      case 'idle':
        this.phase = { kind: 'done' };
        this.fireClose({ reason: { kind: 'closed-by-client' } });
        return;
      case 'starting':
      case 'done':
        return;
      case 'running':
      case 'exited':
        await this.stopTree(phase.server);
        return;
      default: {
        const never: never = phase;
        throw new Error(`unexpected phase ${JSON.stringify(never)}`);
      }
    }
  }

  private async stopTree(server: ServerProcess): Promise<void> {
    this.stopSending('the transport is closing', !server.exited);
    await this.stopper.stop(server);
  }

  // ---- helpers ----

  private currentChild(): ChildProcessWithoutNullStreams | undefined {
    return this.phase.kind === 'running' ? this.phase.server.child : undefined;
  }

  private fireClose(info: TransportCloseInfo): void {
    if (this.closeFired) return;
    this.closeFired = true;
    if (this.nextSlice) clearImmediate(this.nextSlice);
    this.unread.length = 0;
    this.decoder.reset();
    this._onClose.fire(info);
  }

  private lifecycle(text: string): void {
    this._onLog.fire({ kind: 'lifecycle', text });
  }

  private listenerFailed(event: string, error: unknown): void {
    this.lifecycle(`an ${event} listener threw: ${errorMessage(error)}`);
  }
}

/** Resolves when a child's output pipe has ended or closed. */
function streamEnded(stream: NodeJS.ReadableStream): Promise<void> {
  return new Promise((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
  });
}
