// One LogOutputChannel per server ("MCP: <name>"): the registry's lifecycle lines and stderr,
// the server's `notifications/message`, connection diagnostics and, while the channel is at
// Trace, every JSON-RPC frame. Frames are kept in a bounded ring whatever the level (unformatted),
// so raising the level to Trace first shows the ones from before, the `initialize` exchange
// included. Every line goes through the Redactor. When the channel's level changes, a server
// that declared `logging` is asked to send no more than the channel shows.
import * as vscode from 'vscode';
import type { McpClient } from '../../client/client';
import type { LogMessage } from '../../client/schemas';
import { FrameRing } from '../../protocol/frameRing';
import { LineBudget, LogBacklog, channelShows, joinLogEntries, type LogEntry } from './logBacklog';
import { Redactor, formatEarlierFrames, formatFrame, formatLogData, isTraceOn, logLevelToMcpLevel, mcpLevelToLogMethod } from './logFormat';
import { errorMessage } from '../../protocol/errors';
import type { LogSeverity } from '../../protocol/logging';
import { frameToKeep, type Frame } from '../../protocol/frame';

/**
 * A line waiting to be written: text, or a frame or a server's `notifications/message`, formatted
 * only when written (in a flood the backlog holds thousands: their text would outlive many
 * collections for nothing, and the lines dropped would have been formatted in vain).
 */
type WaitingLine = { readonly level: LogSeverity; readonly text: string } | Frame | { readonly logMessage: LogMessage };

/** True for a waiting line that is a frame (the frame as kept is the line: a flood waits in thousands). */
function isFrameLine(line: WaitingLine): line is Frame {
  return 'direction' in line;
}

export class ServerLog implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  private client: McpClient | undefined;
  private clientSubscriptions: { dispose(): void }[] = [];
  private readonly levelSubscription: vscode.Disposable;
  /** This server's recent frames, across its restarts. */
  private readonly frames = new FrameRing();
  /** The sequence number of the last frame written to the channel. */
  private shownFrame = 0;
  private traceWasOn: boolean;

  constructor(
    readonly name: string,
    private readonly redactor: Redactor,
    private readonly maxPayloadChars: () => number,
  ) {
    this.channel = vscode.window.createOutputChannel(name, { log: true });
    this.traceWasOn = isTraceOn(this.channel.logLevel);
    this.levelSubscription = this.channel.onDidChangeLogLevel((level) => {
      const traceOn = isTraceOn(level);
      if (traceOn && !this.traceWasOn) this.showEarlierFrames();
      this.traceWasOn = traceOn;
      this.sendLevel(level, 'the output channel log level changed');
    });
  }

  private disposed = false;
  /**
   * Lines on their way to the channel, written a budget's worth per turn: VS Code's log costs more
   * than everything else a frame costs, so a server that floods (100,000 notifications at Trace)
   * would otherwise hold the extension host for whole chunks of its output at once.
   */
  private readonly waiting = new LogBacklog<WaitingLine>((line) => (isFrameLine(line) ? 'frame' : 'logMessage' in line ? 'message' : 'keep'));
  private writer: ReturnType<typeof setImmediate> | undefined;
  /** Lines per turn, following what VS Code's log takes to write them: a flood's backlog never holds the extension host for long. */
  private readonly budget = new LineBudget();

  /** Whether the channel shows Trace now (callers build trace lines only then). */
  get traceOn(): boolean {
    return isTraceOn(this.channel.logLevel);
  }

  write(level: LogSeverity, text: string): void {
    // A server that is still shutting down may log after the channel is gone.
    if (this.disposed) return;
    this.enqueue({ level, text });
  }

  private enqueue(line: WaitingLine): void {
    this.waiting.push(line);
    this.writer ??= setImmediate(() => this.writeSome());
  }

  private writeSome(): void {
    this.writer = undefined;
    if (this.disposed) return;
    const channelLevel = this.channel.logLevel;
    const entries: LogEntry[] = [];
    const drops = this.waiting.takeDrops();
    if (drops) {
      const what = [drops.frames > 0 ? `${drops.frames} frame line(s)` : '', drops.messages > 0 ? `${drops.messages} log message(s) of the server` : ''].filter(Boolean).join(' and ');
      entries.push({ level: 'warn', text: `${what} were not written: the server sent them faster than the log could take them (Record Session and the timeline keep every frame)` });
    }
    const started = performance.now();
    const lines = this.waiting.take(this.budget.size);
    for (const line of lines) {
      const level = isFrameLine(line) ? 'trace' : 'logMessage' in line ? mcpLevelToLogMethod(line.logMessage.level) : line.level;
      // Formatted only when shown (VS Code would drop the line at the channel's level anyway).
      if (channelShows(channelLevel, level)) entries.push({ level, text: this.textOf(line) });
    }
    // One call for the turn's lines: VS Code's file logger writes and flushes each call on its own.
    if (entries.length > 0) this.channel[entries[0].level](joinLogEntries(entries, Date.now()));
    // VS Code writes the lines in microtasks queued by these calls: this one runs after them.
    queueMicrotask(() => this.budget.measured(performance.now() - started, lines.length));
    if (this.waiting.size > 0) this.writer = setImmediate(() => this.writeSome());
  }

  private textOf(line: WaitingLine): string {
    if (isFrameLine(line)) return formatFrame(line, this.maxPayloadChars(), this.redactor);
    if ('logMessage' in line) return this.redactor.redact(`server ${line.logMessage.level}: ${formatLogData(line.logMessage.logger, line.logMessage.data, this.maxPayloadChars())}`);
    return this.redactor.redact(line.text);
  }

  /** Follows a new client of this server (called before it connects, so the handshake is traced). */
  attach(client: McpClient): void {
    this.detach();
    this.client = client;
    this.clientSubscriptions.push(
      client.onLogMessage((logMessage) => {
        if (!this.disposed) this.enqueue({ logMessage });
      }),
      client.onDiagnostic((d) => this.write('warn', `connection (${d.kind}): ${d.text}`)),
      client.onRootsListed((r) => this.write('info', `the server asked for roots; answered ${r.roots.length}: ${r.roots.map((x) => x.uri).join(', ') || '(none)'}`)),
      client.onToolsListChanged(() => this.write('debug', 'notifications/tools/list_changed')),
      client.onResourcesListChanged(() => this.write('debug', 'notifications/resources/list_changed')),
      client.onPromptsListChanged(() => this.write('debug', 'notifications/prompts/list_changed')),
      client.onDidChangeState((state) => {
        if (state.kind === 'ready') this.sendLevel(this.channel.logLevel, 'the server is ready');
        if (state.kind === 'closed') this.detach();
      }),
      // Kept at every level (a reference, no formatting); written only at Trace.
      client.onFrame((frame) => {
        const kept = this.frames.push(frame);
        if (!isTraceOn(this.channel.logLevel) || this.disposed) return;
        // A flood's backlog holds thousands: each waits as the ring keeps it (its text alone, when
        // it has one); one larger than the ring, whose message the ring let go, waits whole.
        this.enqueue(kept.omitted ? frameToKeep(frame) : kept);
        this.shownFrame = this.frames.lastSeq;
      }),
    );
  }

  /** Writes the kept frames the channel has not shown yet (from before the level was Trace). */
  private showEarlierFrames(): void {
    const earlier = this.frames.since(this.shownFrame);
    if (earlier.length === 0 || this.disposed) return;
    for (const line of formatEarlierFrames(earlier, this.maxPayloadChars(), this.redactor)) this.enqueue({ level: 'trace', text: line });
    this.shownFrame = earlier[earlier.length - 1].seq;
  }

  private detach(): void {
    for (const d of this.clientSubscriptions) d.dispose();
    this.clientSubscriptions = [];
    this.client = undefined;
  }

  /** The server's log level to match the channel (`logging/setLevel`, or `_meta` for a modern server), for a ready server that declared logging. */
  private sendLevel(level: vscode.LogLevel, why: string): void {
    const client = this.client;
    if (!client || client.state.kind !== 'ready' || !client.serverCapabilities?.logging) return;
    const mcpLevel = logLevelToMcpLevel(level);
    client.setLoggingLevel(mcpLevel).then(
      // A modern server has no logging/setLevel: the level rides in each request's _meta (the codec says which).
      () => this.write('debug', `${client.eraCodec?.describeLoggingLevel(mcpLevel) ?? `sent logging/setLevel ${mcpLevel}`} (${why})`),
      (error: unknown) => this.write('warn', `logging/setLevel ${mcpLevel} failed: ${errorMessage(error)}`),
    );
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.disposed = true;
    if (this.writer) clearImmediate(this.writer);
    this.waiting.clear();
    this.detach();
    this.levelSubscription.dispose();
    this.channel.dispose();
  }
}

/**
 * The channels of every server, by server id; created on first use and kept for the session (a
 * server removed from the config still logs its shutdown, and gets its channel back if it returns).
 */
export class ServerLogs implements vscode.Disposable {
  private readonly logs = new Map<string, ServerLog>();

  constructor(
    private readonly redactor: Redactor,
    private readonly maxPayloadChars: () => number,
    /** The channel name of a server: "MCP: <name>", unique among the current servers. */
    private readonly channelName: (serverId: string) => string,
  ) {}

  get(serverId: string): ServerLog {
    let log = this.logs.get(serverId);
    if (!log) {
      log = new ServerLog(this.channelName(serverId), this.redactor, this.maxPayloadChars);
      this.logs.set(serverId, log);
    }
    return log;
  }

  has(serverId: string): boolean {
    return this.logs.has(serverId);
  }

  dispose(): void {
    for (const log of this.logs.values()) log.dispose();
    this.logs.clear();
  }
}
