// The protocol timeline in the editor: the live Timeline of every server, fed from the frames each
// client already emits (from its first frame on, so the timeline shows the past when it opens),
// and the commands that open it ("Open Timeline", "Open Recording in Timeline…"). The page and
// everything only it needs load with the first open (timelinePanel.ts).
import * as vscode from 'vscode';
import type { CallHistory } from '../../usecases/history';
import { DEFAULT_TIMELINE_LIMITS, Timeline, TimelineLimits } from '../../timeline/timelineModel';
import type { EditorHost } from '../editorHost';
import { mcpHostSetting } from '../trust/restrictedSettings';
import type * as TimelinePanelModule from './timelinePanel';

export const TimelineCommands = {
  open: 'mcpHost.timeline.open',
  /** The view's title bar: every server, whatever row is selected (VS Code passes the focused row to title-bar commands). */
  openAll: 'mcpHost.timeline.openAll',
  openRecording: 'mcpHost.timeline.openRecording',
} as const;

/** The limits of each server's ring, from `mcpHost.timeline.maxFrames` and `.maxPayloadMiB`. */
function readLimits(): TimelineLimits {
  const frames = mcpHostSetting('timeline.maxFrames', DEFAULT_TIMELINE_LIMITS.maxFrames);
  const mib = mcpHostSetting('timeline.maxPayloadMiB', DEFAULT_TIMELINE_LIMITS.maxPayloadBytes / (1024 * 1024));
  return {
    maxFrames: Number.isFinite(frames) ? Math.max(1000, Math.floor(frames)) : DEFAULT_TIMELINE_LIMITS.maxFrames,
    maxPayloadBytes: Number.isFinite(mib) ? Math.max(0, mib) * 1024 * 1024 : DEFAULT_TIMELINE_LIMITS.maxPayloadBytes,
  };
}

let panelModule: Promise<typeof TimelinePanelModule> | undefined;
const loadPanel = () => (panelModule ??= import('./timelinePanel.js'));

/** What the timeline pages need from the rest of the extension. */
export interface TimelineHost {
  readonly timeline: Timeline;
  readonly extensionUri: vscode.Uri;
  serverName(id: string): string;
  redact(text: string): string;
  readonly history: CallHistory;
  /** The command line or URL a server is known by (for an export's header), redacted. */
  describeServer(id: string): string;
}

/** Starts the live timeline and registers its commands. */
export function registerTimeline(context: vscode.ExtensionContext, host: EditorHost, history: CallHistory): vscode.Disposable {
  // Read once and on change: the frame path must not ask the configuration for every frame.
  let limits = readLimits();
  const timeline = new Timeline(() => limits);
  const timelineHost: TimelineHost = {
    timeline,
    extensionUri: context.extensionUri,
    serverName: (id) => host.registry.get(id)?.entry.name ?? id,
    redact: (text) => host.redact(text),
    history,
    describeServer: (id) => {
      const h = host.registry.get(id);
      const r = h?.resolved;
      return host.redact(r ? (r.type === 'stdio' ? [r.command, ...r.args].join(' ') : r.url) : (h?.entry.name ?? id));
    },
  };
  const created = host.registry.onDidCreateClient(({ handle, client }) => {
    timeline.sessionStarted(handle.id, Date.now());
    client.onFrame((frame) => timeline.push(handle.id, frame));
  });
  return vscode.Disposable.from(
    { dispose: () => created.dispose() },
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('mcpHost.timeline')) limits = readLimits();
    }),
    vscode.commands.registerCommand(TimelineCommands.open, async (arg?: unknown) => {
      const serverId = typeof arg === 'object' && arg !== null && typeof (arg as { serverId?: unknown }).serverId === 'string' ? (arg as { serverId: string }).serverId : undefined;
      (await loadPanel()).TimelinePanel.showLive(timelineHost, serverId);
    }),
    vscode.commands.registerCommand(TimelineCommands.openAll, async () => (await loadPanel()).TimelinePanel.showLive(timelineHost, undefined)),
    vscode.commands.registerCommand(TimelineCommands.openRecording, async (arg?: unknown) => {
      const uri = arg instanceof vscode.Uri ? arg : typeof arg === 'string' ? vscode.Uri.file(arg) : await pickRecording(context);
      if (uri) await (await loadPanel()).TimelinePanel.showRecording(timelineHost, uri);
    }),
    { dispose: () => void panelModule?.then((m) => m.TimelinePanel.disposeAll()) },
  );
}

/** Asks for a recording, starting where "Record Session" keeps them. */
async function pickRecording(context: vscode.ExtensionContext): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title: 'Open a recording in the timeline',
    openLabel: 'Open in Timeline',
    canSelectMany: false,
    canSelectFiles: true,
    canSelectFolders: false,
    filters: { 'MCP Host recordings': ['jsonl'], 'All files': ['*'] },
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.joinPath(context.globalStorageUri, 'recordings'),
  });
  return picked?.[0];
}
