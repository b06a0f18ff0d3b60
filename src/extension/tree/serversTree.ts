// The "Servers" tree of the MCP Host view: configuration problems first, then one row per
// configured server with what it declared (Tools, Resources, Resource Templates, Prompts), the
// Roots it was given, or why it is not running. Labels are stable (the end-to-end tests and the
// menus' `viewItem` clauses rely on them); server-provided text only reaches escaped Markdown.
import * as vscode from 'vscode';
import type { ChatState } from '../chat/chatState';
import type { Root } from '../../client/client';
import { describeSkippedItem, type Prompt, type Resource, type ResourceTemplate, type Tool } from '../../client/schemas';
import type { ConfigProblem, ConfigSource } from '../../config';
import type { ListKind, ServerHandle, ServerHealth } from '../../registry';
import { type ShownStatus, hostOf, rowStatusWord, serverDescription, serverRowMarks, serverTooltip, statusIcon } from './serverRowText';
import { escapeMarkdown } from '../../content/untrustedText';
import { itemDescription, promptTooltip, resourceTooltip, templateTooltip, toolTooltip } from './itemTooltips';
import { relativeTime, relativeTimeChangesAt, rootsDescription } from './rowTime';
import { transportLabel } from '../../protocol/redaction';
import { truncate } from '../../protocol/text';
import { serverRowClick, serverRowExpands } from './serverRowClick';
import { displayCommandLine, formatCommandLine } from '../../protocol/redaction';
import type { Event } from '../../protocol/events';
import { SubscriptionState, resourceRowMark } from '../../usecases/subscriptions';
import type { TaskEntry } from '../../usecases/taskStore';
import { describeTaskGroup, elapsedChangesAfter } from '../../usecases/taskText';
import { TreeRowClock } from './treeRowClock';
import type { SkillsTreeSection } from '../skills/skillsTree';
import { rowAccessibilityLabel } from './treeRowSpeech';
import { problemItem } from './problemRow';
import type { ServerIcons } from './serverIcons';
import { TreeNode, expansionKey, isRunning, leafId, parentOf, taskDescription, taskIds, tasksDescription, tasksKey } from './treeNodes';

export type { TreeNode };
import { serverOffersTasks } from '../../client/modernTasks';
import { GroupPages, occurrences, pagedRows } from './groupPages';
import { runsSandboxed, sandboxRequirement } from '../trust/sandboxSettings';
import { describeSandbox, sandboxPolicyOf } from '../../sandbox/policy';

/** The subscription state of resources (the use cases' `SubscriptionSet`). */
export interface ResourceSubscriptions {
  state(serverId: string, uri: string): SubscriptionState | undefined;
  readonly onDidChange: Event<void>;
}

/** The running and recent tasks of each server (the use cases' TaskStore). */
export interface ServerTasks {
  list(serverId: string): readonly TaskEntry[];
  /** What the server's tasks/list left unlisted, in words. */
  unlisted(serverId: string): string | undefined;
  /** Fires with the server whose tasks changed. */
  readonly onDidChange: Event<string>;
}

/** What the tree shows; implemented by the host. */
export interface ServersTreeModel {
  servers(): readonly ServerHandle[];
  problems(): readonly ConfigProblem[];
  /** The status to show: the registry's, or `blocked` for a workspace server in an untrusted workspace; `signIn` sums up its sign-in. */
  displayStatus(handle: ServerHandle): ShownStatus;
  /** True when the server holds a sign-in (tokens or a registered client) that Sign Out would delete. */
  canSignOut?(serverId: string): boolean;
  /** Opted in to "Share with VS Code Chat". */
  isShared?(handle: ServerHandle): boolean;
  /** Record Session records it. */ isRecording?(serverId: string): boolean;
  /** ".vscode/mcp.json", ".mcp.json", "User settings" (with the folder in a multi-root window). */
  originLabel(source: ConfigSource): string;
  /** The roots servers get right now. */
  currentRoots(): readonly Root[];
  /** Removes known secrets from text shown in the tree (command lines, stderr). */
  redact(text: string): string;
  /** What the last health ping said, if anything pings. */
  serverHealth?(serverId: string): ServerHealth | undefined;
  /** The configuration has been read once (until then the tree says it is starting). */
  isLoaded(): boolean;
  readonly onDidChange: vscode.Event<void>;
}

/** Where the tree keeps which rows the user opened or closed (the workspace's state). */
export interface ExpansionMemory {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

/** Why a server waits, as the tree and the status bar show it. */
export const WAITING_CONSENT_REASON = 'Waiting for your consent to start it (a dialog is open, or queued behind another)';
export const WAITING_INPUT_REASON = 'Waiting for an input value it needs (a dialog is open, or queued behind another)';

/** Trust reason, as the tree shows it. */
/** What the view (and the status bar) say until the configuration has been read once. */
export const READING_CONFIGURATION = 'Reading configuration…';
export const UNTRUSTED_REASON = 'Workspace is not trusted — trust it to start servers defined in this workspace';


/** A row's default action (click, double-click, Enter), by the kind of row. */
const DEFAULT_ACTIONS = {
  server: { command: 'mcpHost.server.details', title: 'Show Server Details' },
  tool: { command: 'mcpHost.tool.call', title: 'Call Tool…' },
  resource: { command: 'mcpHost.resource.open', title: 'Open Resource' },
  resourceTemplate: { command: 'mcpHost.template.read', title: 'Read Resource from Template…' },
  prompt: { command: 'mcpHost.prompt.get', title: 'Get Prompt…' },
  /** A server waiting for the user to sign in: the click signs in. */
  signin: { command: 'mcpHost.server.signIn', title: 'Sign In' },
  /** The error row of a server that failed: the click walks the path to it (the connection doctor). */
  error: { command: 'mcpHost.server.diagnose', title: 'Diagnose Connection' },
} as const;

const EXPANSION_KEY = 'mcpHost.tree.expansion';

const GROUP_LABELS: Record<ListKind, string> = { tools: 'Tools', resources: 'Resources', templates: 'Resource Templates', prompts: 'Prompts' };
const GROUP_NOUNS: Record<ListKind, string> = { tools: 'tools', resources: 'resources', templates: 'resource templates', prompts: 'prompts' };
const TASK_ICONS: Record<TaskEntry['status'], string> = { working: 'loading~spin', input_required: 'bell-dot', completed: 'pass', failed: 'error', cancelled: 'circle-slash' };
const GROUP_ICONS: Record<ListKind, string> = { tools: 'tools', resources: 'files', templates: 'file-code', prompts: 'comment-discussion' };

export class ServersTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<TreeNode | TreeNode[] | undefined | void>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private subscription: vscode.Disposable | undefined;
  private model: ServersTreeModel | undefined;
  private timer: NodeJS.Timeout | undefined;
  private resourceSubscriptions: ResourceSubscriptions | undefined;
  private chatMarks: ChatState | undefined;
  private skills: SkillsTreeSection | undefined;
  private serverTasks: ServerTasks | undefined;
  private icons: ServerIcons | undefined;
  /** Rows the user expanded (true) or collapsed (false), by a key that survives restarts and reloads. */
  private expansion = new Map<string, boolean>();
  private memory: ExpansionMemory | undefined;
  /** The state of its server each expandable row was drawn in. */
  private readonly drawnIn = new WeakMap<TreeNode, string>();
  /** The node last drawn for each expansion key (getChildren makes new nodes on every redraw). */
  private readonly latest = new Map<string, TreeNode>();
  /** How many rows each long group shows. */
  private readonly pages = new GroupPages();
  /** Rows whose text moves (relative times, running tasks): redrawn alone when their text changes. */
  private readonly clock = new TreeRowClock<TreeNode>((nodes) => this._onDidChangeTreeData.fire(nodes));
  /** The task ids each Tasks group was drawn with (a change of the set redraws the group, not the tree). */
  private readonly drawnTaskIds = new Map<string, string>();

  /** The model; only rows the model gave exist before it is attached, so this is always set when read. */
  private get m(): ServersTreeModel {
    if (!this.model) throw new Error('the servers tree has no model yet');
    return this.model;
  }

  /**
   * The view can be registered before its model exists (so VS Code never shows "no data
   * provider" while the extension starts): it says "Reading configuration…" until `attach()`.
   */
  attach(model: ServersTreeModel): void {
    this.subscription?.dispose();
    this.model = model;
    this.subscription = model.onDidChange(() => this.refresh());
    this.refresh();
  }

  /**
   * Keeps each row's expansion across server restarts, list changes and window reloads: VS Code
   * forgets it whenever a row is replaced, so the tree remembers it itself, in `memory`.
   */
  trackExpansion(view: vscode.TreeView<TreeNode>, memory: ExpansionMemory): vscode.Disposable {
    this.memory = memory;
    this.expansion = new Map(Object.entries(memory.get<Record<string, boolean>>(EXPANSION_KEY) ?? {}));
    const remember = (node: TreeNode, expanded: boolean) => {
      // VS Code reports rows it drops (a server that stops takes its groups along) as collapsed,
      // and the report can arrive after the row was drawn anew (a quick restart): only a collapse
      // of the row on screen, whose server is still in the state it was drawn in, is the user's.
      const key = expansionKey(node);
      if (!expanded && key && this.latest.get(key) !== node) return;
      if (!expanded && 'serverId' in node && this.drawnIn.get(node) !== this.stateOf(node.serverId)) return;
      this.remember(node, expanded);
    };
    return vscode.Disposable.from(
      view.onDidExpandElement((e) => {
        remember(e.element, true);
        // Opening a list of a modern server past its ttlMs (or sent without one) fetches it again.
        if (e.element.kind === 'group') void this.handle(e.element.serverId)?.refreshIfStale(e.element.list);
      }),
      view.onDidCollapseElement((e) => remember(e.element, false)),
    );
  }

  /** Keeps a row's expansion in `memory` (written only when it changes: reads of children call this often). */
  private remember(node: TreeNode, expanded: boolean): void {
    const key = expansionKey(node);
    if (!key || !this.memory || this.expansion.get(key) === expanded) return;
    this.expansion.set(key, expanded);
    void this.memory.update(EXPANSION_KEY, Object.fromEntries(this.expansion));
  }

  private stateOf(serverId: string): string | undefined {
    const h = this.handle(serverId);
    return h ? this.m.displayStatus(h).kind : undefined;
  }

  private collapsibleState(node: TreeNode, fallback: vscode.TreeItemCollapsibleState): vscode.TreeItemCollapsibleState {
    if ('serverId' in node) {
      const state = this.stateOf(node.serverId);
      if (state) this.drawnIn.set(node, state);
    }
    const key = expansionKey(node);
    if (key) this.latest.set(key, node);
    if (fallback === vscode.TreeItemCollapsibleState.None) return fallback;
    const remembered = key ? this.expansion.get(key) : undefined;
    if (remembered === undefined) return fallback;
    return remembered ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
  }

  /** Redraws the whole tree, coalescing bursts of changes into one. */
  refresh(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.redrawAll();
    }, 30);
  }

  /** Every row is drawn anew (and the moving ones register again as they are). */
  private redrawAll(): void {
    this.clock.clear();
    this.drawnTaskIds.clear();
    this._onDidChangeTreeData.fire();
  }

  /** Rows that move with time change only while the view shows them. */
  followVisibility(view: vscode.TreeView<TreeNode>): vscode.Disposable {
    this.clock.setVisible(view.visible);
    return view.onDidChangeVisibility((e) => this.clock.setVisible(e.visible));
  }

  /** Marks tool rows switched off for language models or changed since the user approved them (from @mcp's state). */
  showChatMarks(source: ChatState): vscode.Disposable {
    this.chatMarks = source;
    const sub = source.onDidChange(() => this.refresh());
    this.refresh();
    return new vscode.Disposable(() => {
      sub.dispose();
      if (this.chatMarks === source) this.chatMarks = undefined;
    });
  }

  /** Shows a Skills group under each running server that offers skills (extension/skills/skillsTree.ts). */
  showSkills(section: SkillsTreeSection): vscode.Disposable {
    this.skills = section;
    const sub = section.onDidChange(() => this.refresh());
    this.refresh();
    return new vscode.Disposable(() => {
      sub.dispose();
      if (this.skills === section) this.skills = undefined;
    });
  }

  /**
   * Shows a Tasks group under each running server that runs tasks (or has some), from `source`.
   * A running task's row is redrawn alone as its elapsed time or state moves (the row under the
   * pointer, and its Cancel Task, stay put); the group only when tasks come or go.
   */
  showTasks(source: ServerTasks): vscode.Disposable {
    this.serverTasks = source;
    const sub = source.onDidChange((serverId) => this.tasksChanged(serverId));
    this.refresh();
    return new vscode.Disposable(() => {
      sub.dispose();
      if (this.serverTasks === source) this.serverTasks = undefined;
    });
  }

  private tasksChanged(serverId: string): void {
    const group = this.clock.node(tasksKey(serverId));
    const drawn = this.drawnTaskIds.get(serverId);
    const now = taskIds(this.serverTasks?.list(serverId) ?? []);
    // No group on screen yet (its server row gets one), or it turns empty or not (its id changes): the tree.
    if (!group || drawn === undefined || (drawn === '') !== (now === '')) return this.refresh();
    if (drawn !== now) {
      this.drawnTaskIds.set(serverId, now);
      this._onDidChangeTreeData.fire(group);
      return;
    }
    this.clock.check((key) => key === tasksKey(serverId) || key.startsWith(`${tasksKey(serverId)}/`));
  }

  /** Draws the servers' own icons (ServerIcons) on their rows. */
  showIcons(icons: ServerIcons): vscode.Disposable {
    this.icons = icons;
    return icons.onDidChange(() => this.refresh());
  }

  /** Shows each resource row's subscription (and offers Subscribe / Unsubscribe) from `source`. */
  showSubscriptions(source: ResourceSubscriptions): vscode.Disposable {
    this.resourceSubscriptions = source;
    const sub = source.onDidChange(() => this.refresh());
    this.refresh();
    return new vscode.Disposable(() => {
      sub.dispose();
      if (this.resourceSubscriptions === source) this.resourceSubscriptions = undefined;
    });
  }

  getChildren(node?: TreeNode): TreeNode[] {
    if (!node) {
      if (!this.model?.isLoaded()) return [{ kind: 'loading' }];
      const problems: TreeNode[] = this.m.problems().map((problem, index) => ({ kind: 'problem', problem, index }));
      const servers: TreeNode[] = this.m.servers().map((h) => ({ kind: 'server', serverId: h.id }));
      this.pages.keepOnly(new Set(this.m.servers().map((h) => h.id)));
      return [...problems, ...servers];
    }
    const handle = 'serverId' in node ? this.handle(node.serverId) : undefined;
    if (!handle || !this.model) return [];
    // VS Code asks for the children of a row only while it is open, and its report of the user
    // opening a row is lost when it arrives during a redraw (the extension host forgets its rows
    // until they are drawn again), so being asked is what tells the tree for sure.
    this.remember(node, true);
    switch (node.kind) {
      case 'server':
        return this.serverChildren(handle);
      case 'group':
        return this.groupChildren(handle, node.list);
      case 'roots': {
        const index = occurrences();
        return this.rootsOf(handle).roots.map((root) => ({ kind: 'root', serverId: handle.id, root, index: index(root.uri) }));
      }
      case 'stderr':
        return node.lines.map((line, i) => ({ kind: 'detail', serverId: handle.id, key: `stderr:${i}`, label: truncate(this.m.redact(line), 300), tooltip: this.m.redact(line) }));
      case 'tasks':
        return (this.serverTasks?.list(handle.id) ?? []).map((task) => ({ kind: 'task', serverId: handle.id, task }));
      case 'skills':
      case 'skill':
        return this.skills?.children(node) ?? [];
      default:
        return [];
    }
  }

  /** The row, named for a screen reader by what it shows (its tooltip would be read otherwise). */
  getTreeItem(node: TreeNode): vscode.TreeItem {
    const item = this.drawItem(node);
    this.icons?.decorate(item, node, 'serverId' in node ? this.handle(node.serverId) : undefined);
    const h = node.kind === 'server' ? this.handle(node.serverId) : undefined;
    const state = h && rowStatusWord({ status: this.m.displayStatus(h).kind, reconnecting: h.status.kind === 'error' && h.status.reconnecting === true });
    const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
    item.accessibilityInformation = { label: rowAccessibilityLabel({ kind: node.kind, label, ...(typeof item.description === 'string' ? { description: item.description } : {}), ...(state ? { state } : {}) }) };
    return item;
  }

  private drawItem(node: TreeNode): vscode.TreeItem {
    if (!this.model && node.kind !== 'loading') return new vscode.TreeItem(READING_CONFIGURATION);
    switch (node.kind) {
      case 'loading': {
        const item = new vscode.TreeItem(READING_CONFIGURATION, vscode.TreeItemCollapsibleState.None);
        item.id = 'loading';
        item.iconPath = new vscode.ThemeIcon('loading~spin');
        return item;
      }
      case 'problem':
        return problemItem(node.problem, node.index);
      case 'server': {
        const handle = this.handle(node.serverId);
        return handle ? this.serverItem(node, handle) : new vscode.TreeItem(node.serverId);
      }
      case 'group': {
        const handle = this.handle(node.serverId);
        return handle ? this.groupItem(node, handle, node.list) : new vscode.TreeItem(GROUP_LABELS[node.list]);
      }
      case 'roots': {
        const handle = this.handle(node.serverId);
        return handle ? this.rootsItem(node, handle) : new vscode.TreeItem('Roots');
      }
      case 'tool': {
        const t = node.tool;
        const item = this.leaf(leafId(node.serverId, 'tool', t.name, node.index), t.name, 'tool', 'tools');
        item.description = itemDescription(t.title ?? t.annotations?.title, t.description);
        const handle = this.handle(node.serverId);
        const chat = handle && this.chatMarks?.mark(handle, t);
        if (chat?.changed) item.description = `⚠ changed since you approved it · ${item.description ?? ''}`;
        if (chat?.disabled) item.description = `off for models · ${item.description ?? ''}`;
        item.command = { ...DEFAULT_ACTIONS.tool, arguments: [node] };
        return item;
      }
      case 'resource': {
        const r = node.resource;
        const canSubscribe = this.handle(node.serverId)?.client?.serverCapabilities?.resources?.subscribe === true;
        const mark = resourceRowMark(canSubscribe, this.resourceSubscriptions?.state(node.serverId, r.uri));
        const item = this.leaf(leafId(node.serverId, 'resource', r.uri, node.index), r.name, mark.contextValue, mark.icon);
        item.command = { ...DEFAULT_ACTIONS.resource, arguments: [node] };
        item.description = mark.badge ? `${mark.badge} · ${r.uri}` : r.uri;
        return item;
      }
      case 'resourceTemplate': {
        const t = node.template;
        const item = this.leaf(leafId(node.serverId, 'template', t.uriTemplate, node.index), t.name, 'resourceTemplate', 'file-code');
        item.command = { ...DEFAULT_ACTIONS.resourceTemplate, arguments: [node] };
        item.description = t.uriTemplate;
        return item;
      }
      case 'prompt': {
        const p = node.prompt;
        const item = this.leaf(leafId(node.serverId, 'prompt', p.name, node.index), p.name, 'prompt', 'comment-discussion');
        item.command = { ...DEFAULT_ACTIONS.prompt, arguments: [node] };
        item.description = itemDescription(p.title, p.description);
        return item;
      }
      case 'more':
        return this.moreItem(node);
      case 'root': {
        const item = this.leaf(leafId(node.serverId, 'root', node.root.uri, node.index), node.root.name ?? node.root.uri, 'root', 'root-folder');
        item.description = rootPath(node.root.uri);
        item.tooltip = node.root.uri;
        return item;
      }
      case 'stderr': {
        const item = new vscode.TreeItem('stderr', this.collapsibleState(node, vscode.TreeItemCollapsibleState.Expanded));
        item.id = `${node.serverId}/stderr`;
        item.description = `last ${node.lines.length} line${node.lines.length === 1 ? '' : 's'}`;
        item.iconPath = new vscode.ThemeIcon('terminal');
        item.contextValue = 'stderr';
        return item;
      }
      case 'tasks':
        return this.tasksItem(node);
      case 'task':
        return this.taskItem(node);
      case 'skills':
      case 'skill':
      case 'skillFile':
        return this.skills?.item(node, (fallback) => this.collapsibleState(node, fallback)) ?? new vscode.TreeItem(node.kind);
      case 'detail': {
        const item = this.leaf(`${node.serverId}/detail/${node.key}`, node.label, 'detail', undefined);
        item.iconPath = node.icon;
        item.tooltip = node.tooltip;
        item.command = node.command;
        item.description = node.description;
        return item;
      }
      default: {
        const never: never = node;
        return never;
      }
    }
  }

  /**
   * The tooltip of a tool, resource, template or prompt row, built when the row is hovered: a
   * server may list thousands, and building every tooltip up front (VS Code parses each Markdown
   * tooltip it is given) was most of the cost of opening a group.
   */
  resolveTreeItem(item: vscode.TreeItem, node: TreeNode): vscode.TreeItem {
    switch (node.kind) {
      case 'tool':
        item.tooltip = markdown(toolTooltip(node.tool));
        break;
      case 'resource': {
        const canSubscribe = this.handle(node.serverId)?.client?.serverCapabilities?.resources?.subscribe === true;
        const mark = resourceRowMark(canSubscribe, this.resourceSubscriptions?.state(node.serverId, node.resource.uri));
        item.tooltip = markdown(resourceTooltip(node.resource) + (mark.note ? `\n\n${escapeMarkdown(truncate(mark.note, 500))}` : ''));
        break;
      }
      case 'resourceTemplate':
        item.tooltip = markdown(templateTooltip(node.template));
        break;
      case 'prompt':
        item.tooltip = markdown(promptTooltip(node.prompt));
        break;
      default:
        break;
    }
    return item;
  }

  // ---- servers ----

  private handle(id: string): ServerHandle | undefined {
    return this.model?.servers().find((h) => h.id === id);
  }

  private serverItem(node: TreeNode, h: ServerHandle): vscode.TreeItem {
    const shown = this.m.displayStatus(h);
    const client = h.client;
    const running = shown.kind === 'running';
    const collapsible = serverRowExpands(shown.kind) ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None;
    const item = new vscode.TreeItem(h.entry.name, this.collapsibleState(node, collapsible));
    // The state is part of the id: a row that starts running (or fails) is a new row to the
    // tree, so it opens as remembered (or as `collapsible` says) instead of keeping the
    // childless state of its stopped self.
    item.id = `server:${shown.kind === 'starting' || shown.kind === 'waiting' ? 'stopped' : shown.kind}:${h.id}`;
    if (serverRowClick(shown.kind)) item.command = { ...(serverRowClick(shown.kind) === 'signIn' ? DEFAULT_ACTIONS.signin : DEFAULT_ACTIONS.server), arguments: [node] };
    const origin = this.m.originLabel(h.entry.source);
    const config = h.entry.config;
    const remote = config.type === 'stdio' ? undefined : { host: hostOf(this.m.redact(h.resolved?.type === config.type ? h.resolved.url : config.url)), transport: transportLabel(config.type, running ? client?.stats()?.http?.transport : undefined) };
    const reconnecting = shown.kind === 'error' && h.status.kind === 'error' && h.status.reconnecting === true;
    item.description = serverDescription({ status: shown.kind, origin, protocolVersion: running ? client?.protocolVersion : undefined, era: running ? client?.era : undefined, serverInfo: running ? client?.serverInfo : undefined, waitingFor: shown.waitingFor, remote, reconnecting });
    const icon = statusIcon(shown.kind);
    item.iconPath = new vscode.ThemeIcon(icon.id, icon.color ? new vscode.ThemeColor(icon.color) : undefined);
    const health = running ? this.m.serverHealth?.(h.id) : undefined;
    if (health?.kind === 'unresponsive') item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
    const sandboxed = runsSandboxed(h.entry);
    item.description = serverRowMarks({ sandboxed, recording: this.m.isRecording?.(h.id), unresponsive: health?.kind === 'unresponsive', shared: this.m.isShared?.(h) }) + item.description;
    // `.auth`: a remote server with something to sign out of (its menu offers Sign Out).
    item.contextValue = `server.${shown.kind}${this.m.canSignOut?.(h.id) ? '.auth' : ''}`;
    const commandLine =
      config.type === 'stdio'
        ? h.resolved?.type === 'stdio'
          ? this.m.redact(displayCommandLine(h.resolved.command, h.resolved.args))
          : formatCommandLine(config.command, config.args)
        : this.m.redact(h.resolved?.type === config.type ? h.resolved.url : config.url);
    item.tooltip = markdown(
      serverTooltip({
        name: h.entry.name,
        status: shown.kind,
        waitingFor: shown.waitingFor,
        reconnecting,
        recording: this.m.isRecording?.(h.id),
        origin,
        sourceLabel: h.entry.source.label,
        commandLine,
        reason: shown.reason ?? (h.status.kind === 'error' ? h.status.message : undefined),
        protocolVersion: running ? client?.protocolVersion : undefined,
        era: running ? client?.era : undefined,
        serverInfo: running ? client?.serverInfo : undefined,
        remote,
        signIn: shown.signIn,
        capabilities: running ? client?.serverCapabilities : undefined,
        instructions: running ? client?.instructions : undefined,
        restarts: h.restarts,
        pid: h.pid,
      }) + (sandboxed ? `\n\n**Sandboxed**: ${describeSandbox(sandboxPolicyOf(h.entry, sandboxRequirement())).join(' ')}` : '') + (health?.kind === 'unresponsive' ? `\n\n**Unresponsive** since ${new Date(health.since).toLocaleTimeString()}: ${health.failures} ping(s) failed` : ''),
    );
    return item;
  }

  private serverChildren(h: ServerHandle): TreeNode[] {
    const shown = this.m.displayStatus(h);
    const id = h.id;
    switch (shown.kind) {
      case 'running': {
        const caps = h.client?.serverCapabilities;
        const out: TreeNode[] = [];
        if (caps?.tools) out.push({ kind: 'group', serverId: id, list: 'tools' });
        if (caps?.resources) out.push({ kind: 'group', serverId: id, list: 'resources' }, { kind: 'group', serverId: id, list: 'templates' });
        if (caps?.prompts) out.push({ kind: 'group', serverId: id, list: 'prompts' });
        if (this.serverTasks && ((h.client && serverOffersTasks(h.client)) || this.serverTasks.list(id).length > 0)) out.push({ kind: 'tasks', serverId: id });
        if (this.skills?.offers(id)) out.push({ kind: 'skills', serverId: id });
        out.push({ kind: 'roots', serverId: id });
        return out;
      }
      case 'error': {
        const status = h.status.kind === 'error' ? h.status : undefined;
        const message = this.m.redact(status?.message ?? h.lastError ?? 'unknown error');
        const out: TreeNode[] = [
          {
            kind: 'detail',
            serverId: id,
            key: 'error',
            label: truncate(message, 300),
            tooltip: `${message}\n\nClick to diagnose the connection step by step.`,
            icon: new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground')),
            command: { ...DEFAULT_ACTIONS.error, arguments: [id] },
          },
        ];
        if (status?.restart) {
          const r = status.restart;
          out.push({
            kind: 'detail',
            serverId: id,
            key: 'restart',
            label: `${status.reconnecting ? 'Reconnecting' : 'Restarting'} (${r.attempt} of ${r.maxRestarts})`,
            description: `at ${new Date(r.at).toLocaleTimeString()}`,
            icon: new vscode.ThemeIcon('sync'),
          });
        }
        const lines = status?.stderrTail.length ? status.stderrTail : h.stderrTail;
        if (lines.length) out.push({ kind: 'stderr', serverId: id, lines: lines.slice(-20) });
        return out;
      }
      case 'blocked': {
        const untrusted = shown.reason === UNTRUSTED_REASON;
        return [
          {
            kind: 'detail',
            serverId: id,
            key: 'blocked',
            label: shown.reason ?? 'blocked',
            tooltip: shown.reason,
            icon: new vscode.ThemeIcon(untrusted ? 'workspace-untrusted' : 'circle-slash'),
            // Denied or not answered: a click asks consent again.
            command: untrusted ? { command: 'workbench.trust.manage', title: 'Manage Workspace Trust' } : { command: 'mcpHost.server.allow', title: 'Allow Server…', arguments: [id] },
          },
        ];
      }
      case 'stopped':
      case 'starting':
      case 'stopping':
      case 'waiting':
      case 'signin':
        return [];
      default: {
        const never: never = shown.kind;
        return never;
      }
    }
  }

  // ---- groups ----

  private list(h: ServerHandle, kind: ListKind): readonly (Tool | Resource | ResourceTemplate | Prompt)[] | undefined {
    switch (kind) {
      case 'tools':
        return h.tools;
      case 'resources':
        return h.resources;
      case 'templates':
        return h.templates;
      case 'prompts':
        return h.prompts;
      default: {
        const never: never = kind;
        return never;
      }
    }
  }

  private groupItem(node: TreeNode, h: ServerHandle, kind: ListKind): vscode.TreeItem {
    const list = this.list(h, kind);
    const error = h.listErrors[kind];
    const item = new vscode.TreeItem(GROUP_LABELS[kind], this.collapsibleState(node, list && list.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None));
    // VS Code applies collapsibleState only to an id it has not drawn yet: a group drawn empty
    // while its list loads gets another id than the filled one, so the filled one opens as
    // remembered instead of staying closed.
    item.id = list && list.length ? `${h.id}/${kind}` : `${h.id}/${kind}:empty`;
    // Malformed items the client left out: the rest of the list is shown, with a warning.
    const skipped = error ? [] : (h.skippedItems[kind] ?? []);
    item.iconPath = new vscode.ThemeIcon(error || skipped.length ? 'warning' : GROUP_ICONS[kind]);
    item.contextValue = `group.${kind}`;
    item.description = error ? `failed: ${truncate(error, 120)}` : list ? `${list.length}${skipped.length ? ` · ${skipped.length} skipped` : ''}` : 'loading…';
    if (error) item.tooltip = error;
    else if (skipped.length) item.tooltip = [`${skipped.length} skipped as malformed:`, ...skipped.slice(0, 20).map((x) => truncate(describeSkippedItem(x), 300))].join('\n');
    return item;
  }

  /** A group's rows: its first pages, then (when some are not drawn) the row that loads the next one. */
  private groupChildren(h: ServerHandle, kind: ListKind): TreeNode[] {
    const serverId = h.id;
    const page = this.pages.page(serverId, kind, this.list(h, kind)?.length ?? 0, h.client);
    let rows: TreeNode[];
    switch (kind) {
      case 'tools':
        rows = pagedRows(h.tools ?? [], (t) => t.name, page.shown).map(({ item: tool, occurrence: index }) => ({ kind: 'tool', serverId, tool, index }));
        break;
      case 'resources':
        rows = pagedRows(h.resources ?? [], (r) => r.uri, page.shown).map(({ item: resource, occurrence: index }) => ({ kind: 'resource', serverId, resource, index }));
        break;
      case 'templates':
        rows = pagedRows(h.templates ?? [], (t) => t.uriTemplate, page.shown).map(({ item: template, occurrence: index }) => ({ kind: 'resourceTemplate', serverId, template, index }));
        break;
      case 'prompts':
        rows = pagedRows(h.prompts ?? [], (p) => p.name, page.shown).map(({ item: prompt, occurrence: index }) => ({ kind: 'prompt', serverId, prompt, index }));
        break;
      default: {
        const never: never = kind;
        return never;
      }
    }
    if (page.hidden > 0) rows.push({ kind: 'more', serverId, list: kind, page });
    return rows;
  }

  /** "Show 200 more · 4,803 not shown": its click loads the next page; Show All (inline) the rest. */
  private moreItem(node: TreeNode & { kind: 'more' }): vscode.TreeItem {
    const { page, list } = node;
    const item = this.leaf(`${node.serverId}/${list}/more`, `Show ${count(page.next)} more`, 'more', 'ellipsis');
    item.description = `${count(page.hidden)} not shown`;
    item.tooltip = `${count(page.shown)} of ${count(page.total)} ${GROUP_NOUNS[list]} are shown. Click to show ${count(page.next)} more, or Show All.${list === 'tools' ? ' Find Tool… (in the view\'s title bar) searches every tool, shown or not.' : ''}`;
    item.command = { command: 'mcpHost.tree.showMore', title: 'Show More', arguments: [node] };
    return item;
  }

  /** The next page of a group (the "Show more" row's command). */
  showMore(node: TreeNode): void {
    if (node.kind !== 'more') return;
    this.pages.showMore(node.serverId, node.list, this.handle(node.serverId)?.client);
    this.redrawGroup();
  }

  /** Every row of a group. */
  showAll(node: TreeNode): void {
    if (node.kind !== 'more' && node.kind !== 'group') return;
    this.pages.showAll(node.serverId, node.list, this.handle(node.serverId)?.client);
    this.redrawGroup();
  }

  /**
   * Shows the row of a server's tool in `view`: loads the pages up to it, opens its group and
   * selects it. The `occurrence`th tool of that name (a server may list a name twice).
   */
  async revealTool(view: vscode.TreeView<TreeNode>, serverId: string, name: string, occurrence = 0): Promise<boolean> {
    const h = this.handle(serverId);
    const tools = h?.tools ?? [];
    let position = -1;
    for (let i = 0, seen = 0; i < tools.length && position < 0; i++) if (tools[i].name === name && seen++ === occurrence) position = i;
    if (!h || position < 0) return false;
    if (this.pages.showThrough(serverId, 'tools', position, h.client)) this.redrawGroup();
    // VS Code waits for the redraw fired above before it resolves the row (its reveal follows the pending refresh).
    await view.reveal({ kind: 'tool', serverId, tool: tools[position], index: occurrence }, { select: true, focus: false, expand: false });
    return true;
  }

  /**
   * Redraws a group now (not after the coalescing delay): a reveal that follows must see its new
   * rows. The whole tree, not the group's node: VS Code finds a node by the object it was given,
   * and a redraw between the click and now may have replaced it (the other rows cost little).
   */
  private redrawGroup(): void {
    this.redrawAll();
  }

  /** A row's parent (VS Code asks it to reveal a row). */
  getParent(node: TreeNode): TreeNode | undefined {
    return parentOf(node, (serverId) => this.latest.get(`stderr:${serverId}`));
  }

  /** What the server was given when it last asked, or what it would get now. */
  private rootsOf(h: ServerHandle): { roots: readonly Root[]; askedAt?: number } {
    const listed = h.client?.rootsListed;
    return listed ? { roots: listed.roots, askedAt: listed.time } : { roots: this.m.currentRoots() };
  }

  private rootsItem(node: TreeNode, h: ServerHandle): vscode.TreeItem {
    const { roots, askedAt } = this.rootsOf(h);
    const item = new vscode.TreeItem('Roots', this.collapsibleState(node, roots.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None));
    item.id = roots.length ? `${h.id}/roots` : `${h.id}/roots:empty`;
    item.iconPath = new vscode.ThemeIcon('root-folder-opened');
    item.contextValue = 'group.roots';
    item.description = this.clock.drawn(`roots:${h.id}`, node, (now) => {
      const current = this.handle(h.id);
      if (!current) return undefined;
      const asked = this.rootsOf(current).askedAt;
      return { text: rootsDescription(this.rootsOf(current).roots.length, asked, now), ...(asked !== undefined ? { changesAt: relativeTimeChangesAt(asked, now) } : {}) };
    });
    item.tooltip =
      askedAt === undefined
        ? 'The server has not asked for roots (roots/list) yet; these are the roots it would get.'
        : `The server last asked for roots at ${new Date(askedAt).toLocaleString()} (${relativeTime(askedAt, Date.now())}) and was given these.`;
    return item;
  }

  // ---- tasks ----

  private tasksItem(node: TreeNode & { kind: 'tasks' }): vscode.TreeItem {
    const tasks = this.serverTasks?.list(node.serverId) ?? [];
    const unlisted = this.serverTasks?.unlisted(node.serverId);
    const group = describeTaskGroup(tasks, unlisted);
    this.drawnTaskIds.set(node.serverId, taskIds(tasks));
    this.clock.drawn(tasksKey(node.serverId), node, () => ({ text: tasksDescription(this.serverTasks?.list(node.serverId) ?? [], this.serverTasks?.unlisted(node.serverId)) }));
    // Opens by itself once a task appears (unless the user closed it); empty, it has nothing to open.
    const item = new vscode.TreeItem('Tasks', this.collapsibleState(node, tasks.length ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None));
    item.id = tasks.length ? `${node.serverId}/tasks` : `${node.serverId}/tasks:empty`;
    item.iconPath = new vscode.ThemeIcon('tasklist');
    item.contextValue = 'group.tasks';
    item.description = group.description;
    item.tooltip = (group.tooltip ? `${group.tooltip}\n\n` : '') + 'Tool calls the server runs as tasks (2025-11-25 tasks, or the 2026-07-28 tasks extension): running ones first, then recent ones. Refresh lists what a 2025-11-25 server holds (tasks/list; the extension has none).';
    return item;
  }

  /** The task as it is now (the node keeps the entry it was listed with; the row is redrawn in place). */
  private currentTask(serverId: string, listed: TaskEntry): TaskEntry | undefined {
    return this.serverTasks?.list(serverId).find((t) => t.taskId === listed.taskId);
  }

  private taskItem(node: TreeNode & { kind: 'task' }): vscode.TreeItem {
    const { serverId } = node;
    const t = this.currentTask(serverId, node.task) ?? node.task;
    const running = isRunning(t);
    const item = this.leaf(`${serverId}/task/${t.taskId}`, t.toolName ?? `task ${t.taskId.slice(0, 8)}`, running ? 'task.running' : 'task.ended', TASK_ICONS[t.status]);
    if (t.status === 'input_required') item.iconPath = new vscode.ThemeIcon('bell-dot', new vscode.ThemeColor('list.warningForeground'));
    if (t.status === 'failed') item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
    item.description = taskDescription(t, Date.now());
    this.clock.drawn(`${tasksKey(serverId)}/${t.taskId}`, node, (now) => {
      const current = this.currentTask(serverId, node.task);
      // The status is compared too: the icon and the row's menu follow it.
      return current && { text: `${current.status} ${taskDescription(current, now)}`, ...(isRunning(current) ? { changesAt: current.createdAt + elapsedChangesAfter(now - current.createdAt, 'minutes') } : {}) };
    });
    item.tooltip = markdown(
      [
        `**${escapeMarkdown(t.toolName ?? 'task')}** · ${escapeMarkdown(t.status)}`,
        t.statusMessage ? escapeMarkdown(truncate(t.statusMessage, 500)) : undefined,
        `Task id: \`${escapeMarkdown(t.taskId)}\``,
        `Started ${new Date(t.createdAt).toLocaleTimeString()} from ${escapeMarkdown(t.origin === 'tasks/list' ? 'another session (listed by tasks/list)' : t.origin)}`,
        t.ttlMs ? `Kept by the server ${Math.round(t.ttlMs / 1000)} s` : undefined,
        running ? 'Click to follow it in its tool panel; Cancel sends tasks/cancel.' : t.status === 'completed' ? 'Click to open its result.' : undefined,
      ]
        .filter((line): line is string => line !== undefined)
        .join('\n\n'),
    );
    item.command = { command: 'mcpHost.task.open', title: 'Open Task', arguments: [{ kind: 'task', serverId, taskId: t.taskId }] };
    return item;
  }

  private leaf(id: string, label: string, contextValue: string, icon: string | undefined): vscode.TreeItem {
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
    item.id = id;
    item.contextValue = contextValue;
    if (icon) item.iconPath = new vscode.ThemeIcon(icon);
    return item;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.clock.dispose();
    this.subscription?.dispose();
    this._onDidChangeTreeData.dispose();
  }
}

/** A count as the tree shows it: 4,803. */
function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** Tooltip Markdown: no HTML, no command links; the text is already escaped. */
function markdown(text: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(text, false);
  md.supportHtml = false;
  md.isTrusted = false;
  return md;
}

function rootPath(uri: string): string {
  try {
    return vscode.Uri.parse(uri).fsPath;
  } catch {
    return uri;
  }
}
