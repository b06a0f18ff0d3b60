// "Record Session" of a server in the editor: every frame of its sessions (restarts included)
// goes to a JSON Lines recording (the CLI's --record format, secrets redacted), until the user
// stops it. A recording replays with `mcp-host replay` and is a shareable bug report.
import { closeSync, mkdirSync, write, writeSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { McpClient } from '../../client/client';
import type { Disposable } from '../../protocol/disposable';
import type { ServerHandle } from '../../registry/serverRegistry';
import { PendingLines } from '../../usecases/pendingLines';
import { RecordingWriter } from '../../usecases/recording';
import { createRecordingFile, recordedServerLabel } from '../../usecases/recordingFile';

interface Recording {
  readonly id: string;
  readonly file: string;
  readonly fd: number;
  readonly writer: RecordingWriter;
  /** Lines not yet handed to the file (as bytes): written together, at most FLUSH_MS after the first. */
  readonly pending: PendingLines;
  flush?: ReturnType<typeof setTimeout>;
  /** Where the next write goes: writes are positional, so one still in flight and the next cannot swap places. */
  position: number;
  /** Writes handed to the OS and not yet done, by position (the file is closed after the last). */
  readonly inFlight: Map<number, Buffer>;
  closing?: boolean;
  closed?: boolean;
  subscription?: Disposable;
}

/** Pending lines past this many bytes are written at once, without waiting for the timer. */
const MAX_PENDING_BYTES = 256 * 1024;
/**
 * How long lines wait for more. A write per turn of the event loop was a write per few frames in
 * a flood (1,600 for 100,000 frames), each waking a thread of the pool: a tenth of the extension
 * host's time during the flood went to handing them over.
 */
const FLUSH_MS = 200;

export class SessionRecorder implements vscode.Disposable {
  private readonly recordings = new Map<string, Recording>();

  constructor(
    private readonly storage: vscode.Uri,
    private readonly redact: (text: string) => string,
    private readonly log: (id: string, text: string) => void,
    /** A recording started or stopped (the server's row shows it). */
    private readonly changed: () => void = () => {},
  ) {}

  isRecording(id: string): boolean {
    return this.recordings.has(id);
  }

  /** Starts recording a server (its current client at once, later ones as they come), or stops it. */
  async toggle(h: ServerHandle): Promise<void> {
    if (this.recordings.has(h.id)) {
      const file = this.stop(h.id);
      this.changed();
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
    const fd = createRecordingFile(file);
    const command = h.resolved ? recordedServerLabel(h.resolved) : h.entry.name;
    // A flood of frames (100,000 notifications) is a write per batch, not a system call per frame.
    const recording: Recording = { id: h.id, file, fd, pending: new PendingLines(2 * MAX_PENDING_BYTES), position: 0, inFlight: new Map(), writer: new RecordingWriter((head, message, tail) => this.append(recording, head, message, tail), this.redact, { server: command }) };
    this.recordings.set(h.id, recording);
    this.changed();
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

  private append(recording: Recording, head: string, message?: string, tail?: string): void {
    recording.pending.append(head, message, tail);
    if (recording.pending.bytes >= MAX_PENDING_BYTES) this.flush(recording);
    else recording.flush ??= setTimeout(() => this.flush(recording), FLUSH_MS);
  }

  /**
   * Hands the pending lines to the file. The write itself runs off the event loop (a synchronous
   * write of a flood's batch held the extension host for tens of milliseconds); `sync` (stopping
   * when the extension shuts down) writes at once.
   */
  private flush(recording: Recording, sync = false): void {
    if (recording.flush) clearTimeout(recording.flush);
    recording.flush = undefined;
    if (recording.pending.bytes === 0) return;
    const bytes = recording.pending.take();
    const position = recording.position;
    recording.position += bytes.length;
    if (sync) {
      writeSync(recording.fd, bytes, 0, bytes.length, position);
      return;
    }
    recording.inFlight.set(position, bytes);
    this.writeAt(recording, bytes, position);
  }

  private writeAt(recording: Recording, bytes: Buffer, position: number, key = position): void {
    write(recording.fd, bytes, 0, bytes.length, position, (error, written) => {
      if (recording.closed) return;
      // A file takes a write whole; should it not, the rest follows at its place.
      if (!error && written < bytes.length) return this.writeAt(recording, bytes.subarray(written), position + written, key);
      recording.inFlight.delete(key);
      if (error) this.log(recording.id, `the recording ${recording.file} could not be written: ${error.message}`);
      if (recording.closing && recording.inFlight.size === 0) this.close(recording);
    });
  }

  /** Closes the file once its last write is done: "recording stopped" means the file is whole. */
  private close(recording: Recording): void {
    if (recording.closed) return;
    recording.closed = true;
    closeSync(recording.fd);
    this.log(recording.id, `recording stopped: ${recording.file}`);
  }

  /** Stops a recording: what is pending is written, and the file closes (and the log says so) once every write is done. */
  private stop(id: string, sync = false): string {
    const recording = this.recordings.get(id)!;
    this.recordings.delete(id);
    recording.subscription?.dispose();
    this.flush(recording, sync);
    // Shutting down, a write still in flight may never finish: it is written again, at its place.
    if (sync) {
      for (const [position, bytes] of recording.inFlight) writeSync(recording.fd, bytes, 0, bytes.length, position);
      recording.inFlight.clear();
    }
    recording.closing = true;
    if (recording.inFlight.size === 0) this.close(recording);
    return recording.file;
  }

  dispose(): void {
    for (const id of [...this.recordings.keys()]) this.stop(id, true);
  }
}
