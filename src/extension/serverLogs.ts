// One LogOutputChannel per server ("MCP: <name>"): the registry's lifecycle lines and stderr,
// the server's `notifications/message`, connection diagnostics and, only while the channel is at
// Trace, every JSON-RPC frame. Every line goes through the Redactor. When the channel's level
// changes, a server that declared `logging` is asked to send no more than the channel shows.
import * as vscode from 'vscode';
import type { McpClient } from '../client/client';
import type { RegistryLogLevel } from '../registry';
import { Redactor, formatFrame, formatLogData, isTraceOn, logLevelToMcpLevel, mcpLevelToLogMethod } from './logFormat';

export class ServerLog implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  private client: McpClient | undefined;
  private clientSubscriptions: { dispose(): void }[] = [];
  private frameSubscription: { dispose(): void } | undefined;
  private readonly levelSubscription: vscode.Disposable;

  constructor(
    readonly name: string,
    private readonly redactor: Redactor,
    private readonly maxPayloadChars: () => number,
  ) {
    this.channel = vscode.window.createOutputChannel(name, { log: true });
    this.levelSubscription = this.channel.onDidChangeLogLevel((level) => {
      this.updateFrameTracing();
      this.sendLevel(level, 'the output channel log level changed');
    });
  }

  private disposed = false;

  write(level: RegistryLogLevel, text: string): void {
    // A server that is still shutting down may log after the channel is gone.
    if (this.disposed) return;
    this.channel[level](this.redactor.redact(text));
  }

  /** Follows a new client of this server (called before it connects, so the handshake is traced). */
  attach(client: McpClient): void {
    this.detach();
    this.client = client;
    const max = this.maxPayloadChars;
    this.clientSubscriptions.push(
      client.onLogMessage((m) => {
        this.write(mcpLevelToLogMethod(m.level), `server ${m.level}: ${formatLogData(m.logger, m.data, max())}`);
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
    );
    this.updateFrameTracing();
  }

  private detach(): void {
    this.frameSubscription?.dispose();
    this.frameSubscription = undefined;
    for (const d of this.clientSubscriptions) d.dispose();
    this.clientSubscriptions = [];
    this.client = undefined;
  }

  /** Subscribes to frames only at Trace: the connection builds no payload while nobody listens. */
  private updateFrameTracing(): void {
    const want = this.client !== undefined && isTraceOn(this.channel.logLevel);
    if (want && !this.frameSubscription && this.client) {
      this.frameSubscription = this.client.onFrame((frame) => {
        // Level may have dropped since; never build the string for nothing.
        if (!isTraceOn(this.channel.logLevel)) return;
        this.channel.trace(formatFrame(frame, this.maxPayloadChars(), this.redactor));
      });
    } else if (!want && this.frameSubscription) {
      this.frameSubscription.dispose();
      this.frameSubscription = undefined;
    }
  }

  /** `logging/setLevel` to match the channel, for a ready server that declared logging. */
  private sendLevel(level: vscode.LogLevel, why: string): void {
    const client = this.client;
    if (!client || client.state.kind !== 'ready' || !client.serverCapabilities?.logging) return;
    const mcpLevel = logLevelToMcpLevel(level);
    client.setLoggingLevel(mcpLevel).then(
      () => this.write('debug', `sent logging/setLevel ${mcpLevel} (${why})`),
      (error: unknown) => this.write('warn', `logging/setLevel ${mcpLevel} failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.disposed = true;
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
