// "Record Session" of a server in the editor: every frame of its sessions (restarts included)
// goes to a JSON Lines recording (the CLI's --record format, secrets redacted), until the user
// stops it. A recording replays with `mcp-host replay` and is a shareable bug report.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { McpClient } from '../client/client';
import type { Disposable } from '../protocol/disposable';
import type { ServerHandle } from '../registry/serverRegistry';
import { RecordingWriter } from '../usecases/recording';

interface Recording {
  readonly file: string;
  readonly fd: number;
  readonly writer: RecordingWriter;
  /** Lines not yet on disk: written together once per turn of the event loop. */
  readonly pending: string[];
  pendingChars: number;
  flush?: ReturnType<typeof setImmediate>;
  subscription?: Disposable;
}

/** Pending lines past this many characters are written at once, without waiting for the turn's end. */
const MAX_PENDING_CHARS = 1024 * 1024;

export class SessionRecorder implements vscode.Disposable {
  private readonly recordings = new Map<string, Recording>();

  constructor(
    private readonly storage: vscode.Uri,
    private readonly redact: (text: string) => string,
    private readonly log: (id: string, text: string) => void,
  ) {}

  isRecording(id: string): boolean {
    return this.recordings.has(id);
  }

  /** Starts recording a server (its current client at once, later ones as they come), or stops it. */
  async toggle(h: ServerHandle): Promise<void> {
    if (this.recordings.has(h.id)) {
      const file = this.stop(h.id);
      const choice = await vscode.window.showInformationMessage(`MCP Host: the recording of ${h.entry.name} is saved (${file}). Replay it against a build with \`mcp-host replay\`.`, 'Open', 'Open in Timeline', 'Copy Path');
      if (choice === 'Open') await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
      if (choice === 'Open in Timeline') await vscode.commands.executeCommand('mcpHost.timeline.openRecording', vscode.Uri.file(file));
      if (choice === 'Copy Path') await vscode.env.clipboard.writeText(file);
      return;
    }
    const dir = join(this.storage.fsPath, 'recordings');
    mkdirSync(dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = join(dir, `${h.entry.name.replace(/[^\w.-]+/g, '_')}-${stamp}.jsonl`);
    const fd = openSync(file, 'w', 0o600);
    const command = h.resolved ? (h.resolved.type === 'stdio' ? [h.resolved.command, ...h.resolved.args].join(' ') : h.resolved.url) : h.entry.name;
    // A flood of frames (100,000 notifications) is a write per batch, not a system call per frame.
    const recording: Recording = { file, fd, pending: [], pendingChars: 0, writer: new RecordingWriter((line) => this.append(recording, line), this.redact, { server: command }) };
    this.recordings.set(h.id, recording);
    if (h.client) this.attach(h.id, h.client);
    this.log(h.id, `recording this server's frames to ${file}`);
    void vscode.window.showInformationMessage(`MCP Host: recording ${h.entry.name}'s session. Run "Record Session" again to stop.`);
  }

  /** A new client of a server (a restart): its frames join the recording. */
  attach(id: string, client: McpClient): void {
    const recording = this.recordings.get(id);
    if (!recording) return;
    recording.subscription?.dispose();
    recording.subscription = client.onFrame((frame) => recording.writer.frame(frame));
  }

  private append(recording: Recording, line: string): void {
    recording.pending.push(line);
    recording.pendingChars += line.length + 1;
    if (recording.pendingChars >= MAX_PENDING_CHARS) this.flush(recording);
    else recording.flush ??= setImmediate(() => this.flush(recording));
  }

  private flush(recording: Recording): void {
    if (recording.flush) clearImmediate(recording.flush);
    recording.flush = undefined;
    if (recording.pending.length === 0) return;
    const text = recording.pending.join('\n') + '\n';
    recording.pending.length = 0;
    recording.pendingChars = 0;
    writeSync(recording.fd, text);
  }

  private stop(id: string): string {
    const recording = this.recordings.get(id)!;
    this.recordings.delete(id);
    recording.subscription?.dispose();
    this.flush(recording);
    closeSync(recording.fd);
    this.log(id, `recording stopped: ${recording.file}`);
    return recording.file;
  }

  dispose(): void {
    for (const id of [...this.recordings.keys()]) this.stop(id);
  }
}
