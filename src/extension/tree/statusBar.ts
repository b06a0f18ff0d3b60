// The status bar entry: "$(server) MCP 2 running, 1 error"; "Reading configuration…" until the
// configuration was read once; hidden when nothing is configured.
// A click focuses the MCP Host view.
import * as vscode from 'vscode';
import { countStatuses, statusBarText } from './statusBarText';
import { statusWord } from './serverRowText';
import { connectionWord } from '../../registry/connectionStatus';
import { truncate } from '../../protocol/text';
import { READING_CONFIGURATION, type ServersTreeModel, WAITING_CONSENT_REASON } from './serversTree';

export class McpStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('mcpHost.status', vscode.StatusBarAlignment.Left, 10);
  private readonly subscription: vscode.Disposable;

  constructor(private readonly model: ServersTreeModel) {
    this.item.name = 'MCP Host';
    this.item.command = 'mcpHost.servers.focus';
    this.subscription = model.onDidChange(() => this.update());
    this.update();
  }

  update(): void {
    // Until the first read, no count: "MCP 0 running" would say something about servers not yet known.
    if (!this.model.isLoaded()) {
      this.item.text = `$(loading~spin) MCP ${READING_CONFIGURATION}`;
      this.item.tooltip = 'MCP Host is reading the workspace configuration';
      this.item.backgroundColor = undefined;
      this.item.show();
      return;
    }
    const servers = this.model.servers();
    const shown = servers.map((h) => ({ name: h.entry.name, handle: h, status: this.model.displayStatus(h) }));
    const problems = this.model.problems().filter((p) => p.severity === 'error').length;
    const counts = countStatuses(shown.map((s) => s.status.kind), problems);
    const waiting = shown.filter((s) => s.status.kind === 'waiting');
    const reconnecting = shown.filter((s) => s.handle.status.kind === 'error' && s.handle.status.reconnecting === true).length;
    const text = statusBarText(counts, waiting.length > 0 && waiting.every((s) => s.status.reason === WAITING_CONSENT_REASON) ? 'consent' : 'you', reconnecting);
    if (!text) {
      this.item.hide();
      return;
    }
    this.item.text = text;
    const lines = shown.map((s) => `${s.name}: ${s.status.kind === 'error' && s.handle.status.kind === 'error' ? connectionWord(s.handle.status) : statusWord(s.status.kind)}${s.status.kind === 'error' && s.status.reason ? ` (${truncate(this.model.redact(s.status.reason), 120)})` : ''}`);
    if (problems) lines.push(`${problems} configuration problem${problems === 1 ? '' : 's'}`);
    this.item.tooltip = `MCP Host — click to show the servers\n\n${lines.join('\n')}`;
    this.item.backgroundColor = counts.error ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
