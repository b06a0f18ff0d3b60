// What the panel suites share: the vscode double, a UseCaseContext over a real ServerRegistry
// (real MCP servers over stdio), an ExtensionContext of memory mementos and a temporary storage
// folder, and helpers that play the page of a panel (the messages its script posts) and wait for
// what the extension posts back.
import { vscode } from '../../support/vscode/vscodeModule';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as vscodeTypes from 'vscode';
import type { WebviewPanelDouble } from '../../support/vscode/webviewDouble';
import { UseCaseContext } from '../../../src/extension/panels/useCaseContext';
import type { LogSeverity } from '../../../src/protocol/logging';
import type { ServerEntry } from '../../../src/config/types';
import { MemoryMemento } from '../support';
import { REPO, disposeRegistries, makeRegistry, prepare, waitForStatus } from '../../registry/support';

export { vscode };

export interface LoggedLine {
  readonly serverId: string;
  readonly level: LogSeverity;
  readonly text: string;
}

/** A UseCaseContext over `entries`, all started; `close()` disposes it, the servers and the storage. */
export async function panelHost(entries: ServerEntry[]) {
  const storage = mkdtempSync(join(tmpdir(), 'mcp-host-panels-'));
  const { registry } = makeRegistry();
  await registry.update(entries, prepare);
  await Promise.all(registry.list().map((h) => h.whenReady({ start: true })));
  await Promise.all(registry.list().map((h) => waitForStatus(h, 'running', (s) => s.tools !== undefined)));
  const logs: LoggedLine[] = [];
  const serversChanged = new vscode.EventEmitter<unknown>();
  const extension = {
    workspaceState: new MemoryMemento(),
    globalState: new MemoryMemento(),
    globalStorageUri: vscode.Uri.file(storage),
    extensionUri: vscode.Uri.file(REPO),
  } as unknown as vscodeTypes.ExtensionContext;
  const ctx = new UseCaseContext(extension, {
    servers: registry,
    log: (serverId, level, text) => logs.push({ serverId, level, text }),
    onDidChangeServers: serversChanged.event as unknown as vscodeTypes.Event<unknown>,
    redact: (text) => text.replaceAll('hunter2', '****'),
  });
  return {
    ctx,
    registry,
    logs,
    serversChanged,
    idOf: (name: string) => registry.list().find((h) => h.entry.name === name)!.id,
    async close(): Promise<void> {
      ctx.dispose();
      await disposeRegistries();
      rmSync(storage, { recursive: true, force: true });
    },
  };
}

/** The double of the last webview panel the code under test created. */
export function lastPanel(): WebviewPanelDouble {
  const panel = vscode.recorder.webviewPanels.at(-1);
  if (!panel) throw new Error('no webview panel was created');
  return panel;
}

/** Waits until the extension has posted `count` messages of `type` to the page; returns the last. */
export async function posted<T = Record<string, unknown>>(panel: WebviewPanelDouble, type: string, count = 1, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const all = panel.postedOfType<T>(type);
    if (all.length >= count) return all[count - 1];
    if (Date.now() > end) throw new Error(`no ${count}th "${type}" message within ${timeoutMs} ms; posted: ${panel.webview.posted.map((m) => (m as { type: string }).type).join(', ')}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The types of the messages posted to the page, in order. */
export function postedTypes(panel: WebviewPanelDouble): string[] {
  return panel.webview.posted.map((m) => (m as { type: string }).type);
}

/** Polls `probe` until it holds. */
export async function waitUntil(probe: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
