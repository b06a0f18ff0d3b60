// The "Servers" tree of the MCP Host view: configuration problems first, then one row per
// configured server with what it declared (Tools, Resources, Resource Templates, Prompts), the
// Roots it was given, or why it is not running. Labels are stable (the end-to-end tests and the
// menus' `viewItem` clauses rely on them); server-provided text only reaches escaped Markdown.
import * as vscode from 'vscode';
import type { ChatState } from '../chat/chatState';
import type { Root } from '../../client/client';
import type { ConfigProblem, ConfigSource } from '../../config';
import type { ListKind, ServerHandle, ServerHealth } from '../../registry';
import { type ShownStatus, rowStatusWord } from './serverRowText';
import { relativeTimeChangesAt, rootsDescription } from './rowTime';
import type { Event } from '../../protocol/events';
import { type ResourceRowMark, type SubscriptionState, resourceRowMark } from '../../usecases/subscriptions';
import type { TaskEntry } from '../../usecases/taskStore';
import { elapsedChangesAfter } from '../../usecases/taskText';
import { TreeRowClock } from './treeRowClock';
import type { SkillsTreeSection } from '../skills/skillsTree';
import { rowAccessibilityLabel } from './treeRowSpeech';
import { problemItem } from './problemRow';
import type { ServerIcons } from './serverIcons';
import { TreeNode, expansionKey, isRunning, parentOf, taskDescription, taskIds, tasksDescription, tasksKey } from './treeNodes';
import { serverOffersTasks } from '../../client/taskOffer';
import { GroupPages, occurrences, pagedRows } from './groupPages';
import { runsSandboxed, sandboxRequirement } from '../trust/sandboxSettings';
import { describeSandbox, sandboxPolicyOf } from '../../sandbox/policy';
import {
  type ServerRowContext,
  type TreeRow,
  GROUP_LABELS,
  hoverTooltip,
  READING_CONFIGURATION,
  detailRow,
  groupRow,
  listOf,
  loadingRow,
  moreRow,
  promptRow,
  resourceRow,
  rootRow,
  rootsRow,
  serverChildren,
  serverRow,
  stderrLines,
  stderrRow,
  taskRow,
  tasksRow,
  templateRow,
  toolRow,
} from './treeItemModel';
import { collapsibleOf, markdown, toTreeItem } from './treeItemAdapter';

export type { TreeNode };
// Where the rows' words live now; other files import them from here.
export { READING_CONFIGURATION, UNTRUSTED_REASON, WAITING_CONSENT_REASON, WAITING_INPUT_REASON } from './treeItemModel';

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

const EXPANSION_KEY = 'mcpHost.tree.expansion';

export class ServersTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<TreeNode | TreeNode[] | undefined | void>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private subscription: vscode.Disposable | undefined;
  private model: ServersTreeModel | undefined;
  private timer: NodeJS.Timeout | undefined;
  private resourceSubscriptions: ResourceSubscriptions | undefined;
  private chatMarks: ChatState | undefined;
  private registryUpdates: { get(entryId: string): { installed: string; latest: string } | undefined } | undefined;
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
      if (!expanded && 'serverId' in node && this.drawnIn.get(node) !== this.statusOf(node.serverId)) return;
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

  /** The state a server's row shows (undefined: no such server, or no model yet). */
  statusOf(serverId: string): ShownStatus['kind'] | undefined {
    const h = this.handle(serverId);
    return h ? this.m.displayStatus(h).kind : undefined;
  }

  private collapsibleState(node: TreeNode, fallback: vscode.TreeItemCollapsibleState): vscode.TreeItemCollapsibleState {
    if ('serverId' in node) {
      const state = this.statusOf(node.serverId);
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

  /** Marks server rows the MCP Registry has a newer version of (gallery/registryUpdateMarks.ts). */
  showRegistryUpdates(source: { get(entryId: string): { installed: string; latest: string } | undefined; readonly onDidChange: vscode.Event<void> }): vscode.Disposable {
    this.registryUpdates = source;
    const sub = source.onDidChange(() => this.refresh());
    this.refresh();
    return sub;
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
    // Attached after the first rows (the use cases load after activation): those draw again with icons.
    this.refresh();
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
        return serverChildren(handle, {
          shown: this.m.displayStatus(handle),
          redact: (text) => this.m.redact(text),
          tasks: this.serverTasks !== undefined && ((handle.client !== undefined && serverOffersTasks(handle.client)) || this.serverTasks.list(handle.id).length > 0),
          skills: this.skills?.offers(handle.id) === true,
        });
      case 'group':
        return this.groupChildren(handle, node.list);
      case 'roots': {
        const index = occurrences();
        return this.rootsOf(handle).roots.map((root) => ({ kind: 'root', serverId: handle.id, root, index: index(root.uri) }));
      }
      case 'stderr':
        return stderrLines(handle.id, node.lines, (text) => this.m.redact(text));
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
      case 'problem':
        return problemItem(node.problem, node.index);
      case 'skills':
      case 'skill':
      case 'skillFile':
        return this.skills?.item(node, (fallback) => this.collapsibleState(node, fallback)) ?? new vscode.TreeItem(node.kind);
      default: {
        const row = this.row(node);
        return toTreeItem(row, this.collapsibleState(node, collapsibleOf(row.expansion)));
      }
    }
  }

  /** The row of `node` (treeItemModel.ts), with what the view knows of its server. */
  private row(node: Exclude<TreeNode, { kind: 'problem' | 'skills' | 'skill' | 'skillFile' }>): TreeRow {
    switch (node.kind) {
      case 'loading':
        return loadingRow();
      case 'server': {
        const h = this.handle(node.serverId);
        return h ? serverRow(node, h, this.serverFacts(h)) : { label: node.serverId, expansion: 'none' };
      }
      case 'group': {
        const h = this.handle(node.serverId);
        return h ? groupRow(h, node.list) : { label: GROUP_LABELS[node.list], expansion: 'none' };
      }
      case 'roots': {
        const h = this.handle(node.serverId);
        return h ? this.rootsRow(node, h) : { label: 'Roots', expansion: 'none' };
      }
      case 'tool': {
        const h = this.handle(node.serverId);
        return toolRow(node, h && this.chatMarks?.mark(h, node.tool));
      }
      case 'resource':
        return resourceRow(node, this.resourceMark(node.serverId, node.resource.uri));
      case 'resourceTemplate':
        return templateRow(node);
      case 'prompt':
        return promptRow(node);
      case 'more':
        return moreRow(node);
      case 'root':
        return rootRow(node, rootPath(node.root.uri));
      case 'stderr':
        return stderrRow(node);
      case 'tasks':
        return this.tasksRow(node);
      case 'task':
        return this.taskRow(node);
      case 'detail':
        return detailRow(node);
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
    const tooltip = hoverTooltip(node, () => (node.kind === 'resource' ? this.resourceMark(node.serverId, node.resource.uri) : undefined));
    if (tooltip !== undefined) item.tooltip = markdown(tooltip);
    return item;
  }

  // ---- servers ----

  private handle(id: string): ServerHandle | undefined {
    return this.model?.servers().find((h) => h.id === id);
  }

  /** What the server row shows beside its handle. */
  private serverFacts(h: ServerHandle): ServerRowContext {
    const shown = this.m.displayStatus(h);
    return {
      shown,
      origin: this.m.originLabel(h.entry.source),
      redact: (text) => this.m.redact(text),
      health: shown.kind === 'running' ? this.m.serverHealth?.(h.id) : undefined,
      recording: this.m.isRecording?.(h.id),
      shared: this.m.isShared?.(h),
      canSignOut: this.m.canSignOut?.(h.id),
      sandbox: runsSandboxed(h.entry) ? describeSandbox(sandboxPolicyOf(h.entry, sandboxRequirement())) : undefined,
      registryUpdate: this.registryUpdates?.get(h.entry.id),
    };
  }

  /** A resource's subscription mark: whether its server can subscribe, and what the user subscribed. */
  private resourceMark(serverId: string, uri: string): ResourceRowMark {
    const canSubscribe = this.handle(serverId)?.client?.serverCapabilities?.resources?.subscribe === true;
    return resourceRowMark(canSubscribe, this.resourceSubscriptions?.state(serverId, uri));
  }

  // ---- groups ----

  /** A group's rows: its first pages, then (when some are not drawn) the row that loads the next one. */
  private groupChildren(h: ServerHandle, kind: ListKind): TreeNode[] {
    const serverId = h.id;
    const page = this.pages.page(serverId, kind, listOf(h, kind)?.length ?? 0, h.client);
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

  private rootsRow(node: TreeNode, h: ServerHandle): TreeRow {
    const { roots, askedAt } = this.rootsOf(h);
    const description = this.clock.drawn(`roots:${h.id}`, node, (now) => {
      const current = this.handle(h.id);
      if (!current) return undefined;
      const asked = this.rootsOf(current).askedAt;
      return { text: rootsDescription(this.rootsOf(current).roots.length, asked, now), ...(asked !== undefined ? { changesAt: relativeTimeChangesAt(asked, now) } : {}) };
    });
    return { ...rootsRow(h.id, roots, askedAt, Date.now()), description };
  }

  // ---- tasks ----

  private tasksRow(node: TreeNode & { kind: 'tasks' }): TreeRow {
    const tasks = this.serverTasks?.list(node.serverId) ?? [];
    this.drawnTaskIds.set(node.serverId, taskIds(tasks));
    this.clock.drawn(tasksKey(node.serverId), node, () => ({ text: tasksDescription(this.serverTasks?.list(node.serverId) ?? [], this.serverTasks?.unlisted(node.serverId)) }));
    return tasksRow(node.serverId, tasks, this.serverTasks?.unlisted(node.serverId));
  }

  /** The task as it is now (the node keeps the entry it was listed with; the row is redrawn in place). */
  private currentTask(serverId: string, listed: TaskEntry): TaskEntry | undefined {
    return this.serverTasks?.list(serverId).find((t) => t.taskId === listed.taskId);
  }

  private taskRow(node: TreeNode & { kind: 'task' }): TreeRow {
    const { serverId } = node;
    const t = this.currentTask(serverId, node.task) ?? node.task;
    this.clock.drawn(`${tasksKey(serverId)}/${t.taskId}`, node, (now) => {
      const current = this.currentTask(serverId, node.task);
      // The status is compared too: the icon and the row's menu follow it.
      return current && { text: `${current.status} ${taskDescription(current, now)}`, ...(isRunning(current) ? { changesAt: current.createdAt + elapsedChangesAfter(now - current.createdAt, 'minutes') } : {}) };
    });
    return taskRow(serverId, t, Date.now());
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.clock.dispose();
    this.subscription?.dispose();
    this._onDidChangeTreeData.dispose();
  }
}

function rootPath(uri: string): string {
  try {
    return vscode.Uri.parse(uri).fsPath;
  } catch {
    return uri;
  }
}
