// The timeline page: an editor tab (a time axis wants the editor's width, and a recording opens
// beside the live timeline as a document does) that draws a Timeline on a canvas. The page gets
// the items in batches (at most ten a second while visible, however many frames arrive), its
// filter is applied here and sent back as a mask, and a click asks for one item's details.
// Export writes a selection as a recording (the `--record` format, redacted).
import { closeSync, openSync, writeSync } from 'node:fs';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../protocol/errors';
import { formatBytes } from '../../protocol/text';
import { Recording, RecordingWriter, parseRecording, wholeLines } from '../../usecases/recording';
import { recordingTimeline } from '../../timeline/recordingTimeline';
import { TimelineInboundSchema, TimelineOutbound } from '../../timeline/timelineMessages';
import type { Timeline } from '../../timeline/timelineModel';
import { TimelineSelection, historyEntryFor, itemDetails, selectionFrames } from '../../timeline/timelineSelection';
import { TIMELINE_SCHEMA, TimelineView } from '../../timeline/timelineView';
import { UseCaseCommands } from '../panels/useCaseCommands';
import { TIMELINE_FEATURE } from '../webview/webviewPage';
import { WebviewOutbox, webviewHtml, webviewOptions } from '../webview/webviewPanel';
import type { TimelineHost } from './timelineFeed';

export const TIMELINE_VIEW_TYPE = 'mcpHost.timeline';

/** Batches while the page is visible, and while it is not (it keeps its state: retainContextWhenHidden). */
const VISIBLE_BATCH_MS = 100;
const HIDDEN_BATCH_MS = 1000;

/** Where a page's items come from: the live servers, or a recording file. */
type Source = { readonly kind: 'live' } | { readonly kind: 'recording'; readonly file: string; readonly recording: Recording };

/** The id of a recording's one server. */
const RECORDING_SERVER = 'recording';

export class TimelinePanel implements vscode.Disposable {
  private static live: TimelinePanel | undefined;
  private static readonly open = new Set<TimelinePanel>();

  /** Opens (or reveals) the live timeline; with `serverId`, shows only that server, else every server (the chips narrow it). */
  static showLive(host: TimelineHost, serverId?: string): TimelinePanel {
    const existing = TimelinePanel.live;
    if (existing) {
      existing.panel.reveal();
      existing.post({ type: 'focusServer', ...(serverId ? { server: serverId } : {}) });
      return existing;
    }
    const panel = new TimelinePanel(host, host.timeline, { kind: 'live' }, 'Timeline', serverId);
    TimelinePanel.live = panel;
    return panel;
  }

  /** Opens a recording in a timeline of its own; a file that is not a recording gets an error that names it. */
  static async showRecording(host: TimelineHost, uri: vscode.Uri): Promise<TimelinePanel | undefined> {
    const where = uri.scheme === 'file' ? uri.fsPath : uri.toString();
    let recording: Recording;
    try {
      recording = parseRecording(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)), where);
    } catch (error) {
      void vscode.window.showErrorMessage(`MCP Host: cannot open ${where} in the timeline: ${errorMessage(error)}`);
      return undefined;
    }
    const timeline = recordingTimeline(recording, RECORDING_SERVER);
    return new TimelinePanel(host, timeline, { kind: 'recording', file: where, recording }, `Timeline — ${basename(where)}`);
  }

  static disposeAll(): void {
    for (const panel of [...TimelinePanel.open]) panel.dispose();
  }

  /** Every open timeline page (for tests). */
  static all(): readonly TimelinePanel[] {
    return [...TimelinePanel.open];
  }

  readonly panel: vscode.WebviewPanel;
  private readonly view: TimelineView;
  private readonly outbox: WebviewOutbox<TimelineOutbound>;
  private readonly disposables: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;

  private constructor(
    private readonly host: TimelineHost,
    private readonly timeline: Timeline,
    private readonly source: Source,
    private readonly title: string,
    private readonly focusServer?: string,
  ) {
    this.panel = vscode.window.createWebviewPanel(TIMELINE_VIEW_TYPE, title, vscode.ViewColumn.Active, webviewOptions(host.extensionUri));
    this.panel.webview.html = webviewHtml(this.panel.webview, host.extensionUri, title, TIMELINE_FEATURE);
    this.outbox = new WebviewOutbox(this.panel.webview);
    this.view = new TimelineView(timeline, (id) => this.serverName(id), () => this.schedule());
    TimelinePanel.open.add(this);
    this.disposables.push(
      this.panel.webview.onDidReceiveMessage((m: unknown) => void this.receive(m)),
      this.panel.onDidDispose(() => this.dispose()),
      // A page that comes back into view catches up at once.
      this.panel.onDidChangeViewState(() => this.panel.visible && this.schedule(0)),
    );
  }

  /** A server as the page names it: a recording's one server by its file (its command line can be long). */
  private serverName(id: string): string {
    return this.source.kind === 'recording' ? basename(this.source.file, '.jsonl') : this.host.serverName(id);
  }

  private post(message: TimelineOutbound): void {
    if (!this.disposed) this.outbox.post(message);
  }

  private schedule(ms = this.panel.visible ? VISIBLE_BATCH_MS : HIDDEN_BATCH_MS): void {
    if (this.disposed || !this.outbox.isReady) return;
    if (this.timer && ms > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), ms);
    this.timer.unref?.();
  }

  /** The time open spans reach: now, or a recording's last frame. */
  private now(): number {
    if (this.source.kind === 'live') return Date.now();
    let last = 0;
    for (const server of this.timeline.servers()) for (const item of this.timeline.items(server)) last = Math.max(last, item.end ?? item.start);
    return last;
  }

  private flush(): void {
    this.timer = undefined;
    if (this.disposed) return;
    const batch = this.view.take();
    if (batch) this.post({ ...batch, now: this.now() });
    const mask = this.view.remaskIfSlower();
    if (mask) this.post(mask);
  }

  private async receive(raw: unknown): Promise<void> {
    const parsed = TimelineInboundSchema.safeParse(raw);
    if (!parsed.success) return;
    const m = parsed.data;
    try {
      switch (m.type) {
        case 'ready':
          this.outbox.open(() => {
            void this.panel.webview.postMessage({ type: 'init', schema: TIMELINE_SCHEMA, mode: this.source.kind, title: this.title, ...(this.focusServer ? { focusServer: this.focusServer } : {}) } satisfies TimelineOutbound);
            void this.panel.webview.postMessage({ ...this.view.snapshot(), now: this.now() } satisfies TimelineOutbound);
          });
          return;
        case 'filter':
          this.post(this.view.setFilter(m.filter));
          return;
        case 'details': {
          const details = itemDetails(this.timeline, m.server, m.id, (text) => this.host.redact(text));
          const item = this.timeline.item(m.server, m.id);
          if (!details || !item) {
            this.post({ type: 'gone', server: m.server, id: m.id });
            return;
          }
          const inHistory = this.source.kind === 'live' && historyEntryFor(item, this.host.history.list(m.server)) !== undefined;
          this.post({ type: 'details', details: { ...details, serverName: this.serverName(m.server), inHistory } });
          return;
        }
        case 'showHistory': {
          const item = this.timeline.item(m.server, m.id);
          const entry = item && this.source.kind === 'live' ? historyEntryFor(item, this.host.history.list(m.server)) : undefined;
          if (entry) await vscode.commands.executeCommand(UseCaseCommands.showHistory, { historyId: entry.id });
          else this.post({ type: 'notice', text: 'That call is not in the history (only calls made from MCP Host’s tool panels, chat and saved tests are).' });
          return;
        }
        case 'export':
          for (const selection of m.selections) await this.export(selection);
          return;
        case 'clear':
          if (this.source.kind === 'live') this.timeline.clear();
          return;
        default: {
          const never: never = m;
          return never;
        }
      }
    } catch (error) {
      void vscode.window.showErrorMessage(`MCP Host: ${errorMessage(error)}`);
    }
  }

  /** Writes a selection of one server as a recording, where the user says. */
  private async export(selection: TimelineSelection): Promise<void> {
    const { frames, leftOut, protocolVersion } = selectionFrames(this.timeline, selection);
    const name = this.serverName(selection.server);
    if (frames.length === 0) {
      this.post({ type: 'notice', text: `Nothing to export from ${name}: ${leftOut ? 'the payloads of the selected frames were let go (mcpHost.timeline.maxPayloadMiB)' : 'the selection holds no frames'}.` });
      return;
    }
    const stamp = new Date(frames[0].time).toISOString().replace(/[:.]/g, '-');
    const fileName = `${(this.source.kind === 'live' ? name : basename(this.source.file, '.jsonl')).replace(/[^\w.-]+/g, '_')}-timeline-${stamp}.jsonl`;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
      title: `Export the selection of ${name} as a recording`,
      saveLabel: 'Export',
      filters: { 'MCP Host recordings': ['jsonl'] },
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, fileName) } : {}),
    });
    if (!target) return;
    const server = this.source.kind === 'live' ? this.host.describeServer(selection.server) : this.source.recording.header.server;
    const version = protocolVersion ?? (this.source.kind === 'recording' ? this.source.recording.header.protocolVersion : undefined);
    const lines: string[] = [];
    const writer = new RecordingWriter(wholeLines((line) => lines.push(line)), (text) => this.host.redact(text), { ...(server ? { server } : {}), ...(version ? { protocolVersion: version } : {}) }, frames[0].time);
    for (const frame of frames) writer.frame(frame);
    const text = `${lines.join('\n')}\n`;
    if (target.scheme === 'file') {
      // Readable by its owner only, as every recording: frames hold the session's data.
      const fd = openSync(target.fsPath, 'w', 0o600);
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
    } else {
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
    }
    const where = target.scheme === 'file' ? target.fsPath : target.toString();
    const summary = `MCP Host: exported ${frames.length} frame${frames.length === 1 ? '' : 's'} (${formatBytes(Buffer.byteLength(text))}) to ${where}${leftOut ? `; ${leftOut} frame${leftOut === 1 ? ' was' : 's were'} left out (their payloads were let go)` : ''}. Replay it with \`mcp-host replay\`.`;
    void vscode.window.showInformationMessage(summary, 'Open in Timeline', 'Copy Path').then(async (choice) => {
      if (choice === 'Open in Timeline') await TimelinePanel.showRecording(this.host, target);
      if (choice === 'Copy Path') await vscode.env.clipboard.writeText(where);
    });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    TimelinePanel.open.delete(this);
    if (TimelinePanel.live === this) TimelinePanel.live = undefined;
    this.view.dispose();
    for (const d of this.disposables) d.dispose();
    this.panel.dispose();
  }
}
