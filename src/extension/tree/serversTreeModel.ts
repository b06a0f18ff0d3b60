// What the MCP Host view and the status bar show, read from the registry's handles, the start
// gate (waiting for the user), the sign-ins, the health store and the configuration.
import * as vscode from 'vscode';
import type { Root } from '../../client/client';
import type { ConfigProblem, ConfigSource } from '../../config';
import type { ServerHandle, ServerHealth, ServerHealthStore, ServerRegistry } from '../../registry';
import type { Event } from '../../protocol/events';
import type { ConfigReloader } from '../config/configReloader';
import { serverStateText, type ShownStatus } from './serverRowText';
import type { Redactor } from '../logs/logFormat';
import type { EditorRoots } from '../config/editorRoots';
import type { EditorSignInsOnDemand } from '../signIn/signInsOnDemand';
import { signInSummary } from '../../usecases/serverInfo';
import type { StartGate } from '../trust/startGate';
import { ServersTreeModel, UNTRUSTED_REASON, WAITING_CONSENT_REASON, WAITING_INPUT_REASON } from './serversTree';

export class EditorServersTreeModel implements ServersTreeModel {
  constructor(
    private readonly registry: ServerRegistry,
    private readonly gate: StartGate,
    private readonly signIns: EditorSignInsOnDemand,
    private readonly health: ServerHealthStore,
    private readonly config: ConfigReloader,
    private readonly redactor: Redactor,
    private readonly roots: EditorRoots,
    readonly onDidChange: Event<void>,
    /** Shared with VS Code Chat (the choice is ChatShare's). */
    private readonly shared: (h: ServerHandle) => boolean,
    /** Record Session records it (the recorder's answer; false before the first recording). */
    readonly isRecording: (serverId: string) => boolean,
  ) {}

  servers(): readonly ServerHandle[] {
    return this.registry.list();
  }

  problems(): readonly ConfigProblem[] {
    return this.config.problems();
  }

  isLoaded(): boolean {
    return this.config.isLoaded();
  }

  currentRoots(): Root[] {
    return this.roots.currentRoots();
  }

  redact(text: string): string {
    return this.redactor.redact(text);
  }

  serverHealth(id: string): ServerHealth | undefined {
    return this.health.get(id);
  }

  isShared(h: ServerHandle): boolean {
    return this.shared(h);
  }

  canSignOut(id: string): boolean {
    return this.signIns.canSignOut(id);
  }

  displayStatus(h: ServerHandle): ShownStatus {
    const shown = this.registryStatus(h);
    const state = this.signIns.signInState(h.id);
    const signIn = state ? { signIn: signInSummary(state, Date.now()) } : {};
    if ((shown.kind === 'error' || shown.kind === 'stopped') && this.signIns.needsSignIn(h.id)) return { kind: 'signin', reason: this.signIns.signInReason(h.id), ...signIn };
    return { ...shown, ...signIn };
  }

  /** The state in the words of the server's row (Server Details says the same). */
  stateText(h: ServerHandle): string {
    const shown = this.displayStatus(h);
    return serverStateText({ status: shown.kind, waitingFor: shown.waitingFor, reconnecting: h.status.kind === 'error' && h.status.reconnecting === true });
  }

  private registryStatus(h: ServerHandle): ShownStatus {
    const status = h.status;
    switch (status.kind) {
      case 'stopped':
        if (h.entry.source.workspaceDefined && !vscode.workspace.isTrusted) return { kind: 'blocked', reason: UNTRUSTED_REASON };
        return { kind: 'stopped' };
      case 'starting':
        switch (this.gate.waitingFor(h.id)) {
          case 'consent':
            return { kind: 'waiting', reason: WAITING_CONSENT_REASON, waitingFor: 'consent' };
          case 'input':
            return { kind: 'waiting', reason: WAITING_INPUT_REASON, waitingFor: 'an input' };
          default:
            break;
        }
        return { kind: 'starting' };
      case 'running':
      case 'stopping':
        return { kind: status.kind };
      case 'error':
        return { kind: 'error', reason: status.message };
      case 'blocked':
        return { kind: status.kind, reason: status.reason };
      default: {
        const never: never = status;
        return never;
      }
    }
  }

  originLabel(source: ConfigSource): string {
    const multi = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    let short: string;
    switch (source.kind) {
      case 'vscode-mcp-json':
        short = '.vscode/mcp.json';
        break;
      case 'dot-mcp-json':
        short = '.mcp.json';
        break;
      case 'settings':
        short = source.scope === 'user' ? 'User settings' : source.scope === 'folder' && multi ? 'Folder settings' : 'Workspace settings';
        break;
      default: {
        const never: never = source.kind;
        short = String(never);
      }
    }
    return multi && source.folder ? `${short} (${source.folder.name})` : short;
  }
}
