// What @mcp keeps between requests: which servers and tools are switched off for models (per
// workspace), the pins of approved tools (extension storage, per server identity), the session's
// grants, the resources attached with "Add to Chat", and the app views of chat calls. The tree shows the marks it gives.
import * as vscode from 'vscode';
import type { Tool } from '../../client/schemas';
import { SessionGrants } from '../../chat/approval';
import { ChatAppViews } from '../../chat/appViews';
import { DefinitionChange, PinStore, changedTools, serverIdentity, toolPinHash, withPin } from '../../chat/pins';
import type { ServerHandle } from '../../registry/serverRegistry';
import { SkillPinStore, skillChanges, withSkillPin } from '../../chat/skillApproval';
import type { ServerSkills } from '../../skills/serverSkills';
import type { SkillEntry } from '../../skills/wire';

const DISABLED_KEY = 'mcpHost.chat.disabled';
const PINS_KEY = 'mcpHost.chat.pins';
const SKILL_PINS_KEY = 'mcpHost.chat.skillPins';

interface DisabledState {
  readonly servers: string[];
  /** `JSON.stringify([serverId, tool])`. */
  readonly tools: string[];
}

/** A resource attached to the next @mcp request ("Add to Chat"). */
export interface ChatAttachment {
  readonly serverId: string;
  readonly uri: string;
  readonly text: string;
}

/** How the tree marks a tool row (and a server row). */
export interface ChatToolMark {
  readonly disabled: boolean;
  readonly changed: boolean;
}

export class ChatState implements vscode.Disposable {
  readonly grants = new SessionGrants();
  readonly attachments: ChatAttachment[] = [];
  /** Calls with an app view made from chat, and what their views send back. */
  readonly apps = new ChatAppViews();
  /** Model names loaded by find_tools in this session (offered again in later requests). */
  readonly loaded = new Set<string>();
  /** The skills of the running servers (set once the Skills part of the extension is up). */
  skills: ServerSkills | undefined;
  /** Skills the model loaded in this session (skillGrantKey): their files are read without asking again. */
  readonly loadedSkills = new Set<string>();
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  readonly onDidChange = this._onDidChange.event;
  /** Changes already written to the log, so each is logged once. */
  private readonly logged = new Set<string>();

  constructor(private readonly extension: vscode.ExtensionContext) {}

  private disabled(): DisabledState {
    const stored = this.extension.workspaceState.get<DisabledState>(DISABLED_KEY);
    return { servers: Array.isArray(stored?.servers) ? stored.servers : [], tools: Array.isArray(stored?.tools) ? stored.tools : [] };
  }

  isServerEnabled(serverId: string): boolean {
    return !this.disabled().servers.includes(serverId);
  }

  isToolEnabled(serverId: string, tool: string): boolean {
    return !this.disabled().tools.includes(JSON.stringify([serverId, tool]));
  }

  /** Switches a server (no tool) or a tool off for models, or back on. */
  async toggle(serverId: string, tool?: string): Promise<boolean> {
    const state = this.disabled();
    const list = tool === undefined ? state.servers : state.tools;
    const key = tool === undefined ? serverId : JSON.stringify([serverId, tool]);
    const index = list.indexOf(key);
    if (index >= 0) list.splice(index, 1);
    else list.push(key);
    await this.extension.workspaceState.update(DISABLED_KEY, state);
    this._onDidChange.fire();
    return index >= 0;
  }

  private pins(): PinStore {
    return this.extension.globalState.get<PinStore>(PINS_KEY) ?? {};
  }

  /** The changes of `tool` since the user approved it; undefined when it has no pin or is unchanged. */
  pinChanges(server: ServerHandle, tool: Tool, log?: (text: string) => void): DefinitionChange[] | undefined {
    if (!server.resolved) return undefined;
    const [changed] = changedTools(this.pins(), serverIdentity(server.resolved), [tool]);
    if (!changed) return undefined;
    const key = JSON.stringify([server.id, tool.name, changed.changes.map((c) => c.after)]);
    if (!this.logged.has(key)) {
      this.logged.add(key);
      log?.(`Tool ${tool.name} changed since you approved it (${changed.changes.map((c) => c.field).join(', ')}); the next call from chat asks again.`);
    }
    return changed.changes;
  }

  /** Pins `tool` as approved now; `onlyIfNew` keeps an existing pin (a call by hand is not a review of a change). */
  async pin(server: ServerHandle, tool: Tool, options: { onlyIfNew?: boolean } = {}): Promise<void> {
    if (!server.resolved) return;
    const identity = serverIdentity(server.resolved);
    const before = this.pins()[identity]?.[tool.name];
    if (options.onlyIfNew && before) return;
    await this.extension.globalState.update(PINS_KEY, withPin(this.pins(), identity, tool, Date.now()));
    // Only a pin that replaces one the tool had drifted from changes what the tree shows (its ⚠):
    // a first pin shows nothing new, and a redraw of a tree with thousands of rows is not free.
    if (before && before.hash !== toolPinHash(tool)) this._onDidChange.fire();
  }

  /** What changed in the skill since the user approved loading it (empty: unchanged, or never approved). */
  skillChanges(server: ServerHandle, entry: SkillEntry): string[] {
    if (!server.resolved) return [];
    return skillChanges(this.skillPins()[serverIdentity(server.resolved)]?.[entry.uri], entry);
  }

  /** Keeps the skill's file list as approved now. */
  async pinSkill(server: ServerHandle, entry: SkillEntry): Promise<void> {
    if (!server.resolved) return;
    await this.extension.globalState.update(SKILL_PINS_KEY, withSkillPin(this.skillPins(), serverIdentity(server.resolved), entry, Date.now()));
  }

  private skillPins(): SkillPinStore {
    return this.extension.globalState.get<SkillPinStore>(SKILL_PINS_KEY) ?? {};
  }

  async clearPins(): Promise<void> {
    await this.extension.globalState.update(PINS_KEY, undefined);
    await this.extension.globalState.update(SKILL_PINS_KEY, undefined);
    this._onDidChange.fire();
  }

  /** The tree's mark for a tool row of `server`. */
  mark(server: ServerHandle, tool: Tool): ChatToolMark {
    const changed = !!server.resolved && changedTools(this.pins(), serverIdentity(server.resolved), [tool]).length > 0;
    return { disabled: !this.isServerEnabled(server.id) || !this.isToolEnabled(server.id, tool.name), changed };
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}
