// The rows of the Servers tree as plain data: what each kind of row says (label, id, icon, menu
// key, description, tooltip, click), and which rows a server has under it in each state. The
// provider (serversTree.ts) keeps the view's state (expansion memory, moving rows, pages) and turns
// a `TreeRow` into a `vscode.TreeItem` (treeItemAdapter.ts); every decision about a row's text is
// here, with no `vscode` at run time, so node --test draws rows without an editor.
import type { Root } from '../../client/client';
import { describeSkippedItem, type Prompt, type Resource, type ResourceTemplate, type Tool } from '../../client/schemas';
import type { ListKind, ServerHandle, ServerHealth } from '../../registry';
import { displayCommandLine, formatCommandLine, transportLabel } from '../../protocol/redaction';
import { truncate } from '../../protocol/text';
import type { ResourceRowMark } from '../../usecases/subscriptions';
import type { TaskEntry } from '../../usecases/taskStore';
import { describeTaskGroup } from '../../usecases/taskText';
import { type ShownStatus, hostOf, serverDescription, serverRowMarks, serverTooltip, statusIcon } from './serverRowText';
import { escapeMarkdown } from '../../content/untrustedText';
import { itemDescription, promptTooltip, resourceTooltip, templateTooltip, toolTooltip } from './itemTooltips';
import { relativeTime } from './rowTime';
import { serverRowClick, serverRowExpands } from './serverRowClick';
import { type RowCommand, type RowIcon, type TreeNode, isRunning, leafId, taskDescription } from './treeNodes';

export type { RowCommand, RowIcon };

/** Whether a row has children, and how it opens the first time it is drawn (the view may remember otherwise). */
export type RowExpansion = 'none' | 'collapsed' | 'expanded';

/** A row as the tree draws it. */
export interface TreeRow {
  readonly label: string;
  readonly expansion: RowExpansion;
  readonly id?: string;
  readonly icon?: RowIcon;
  /** The menus' `viewItem` key. */
  readonly contextValue?: string;
  readonly description?: string;
  /** Plain text, or Markdown whose server text is already escaped (shown with no HTML, no command links). */
  readonly tooltip?: string | { readonly markdown: string };
  readonly command?: RowCommand;
}

/** Why a server waits, as the tree and the status bar show it. */
export const WAITING_CONSENT_REASON = 'Waiting for your consent to start it (a dialog is open, or queued behind another)';
export const WAITING_INPUT_REASON = 'Waiting for an input value it needs (a dialog is open, or queued behind another)';
/** What the view (and the status bar) say until the configuration has been read once. */
export const READING_CONFIGURATION = 'Reading configuration…';
/** Trust reason, as the tree shows it. */
export const UNTRUSTED_REASON = 'Workspace is not trusted — trust it to start servers defined in this workspace';

/** A row's default action (click, double-click, Enter), by the kind of row. */
export const DEFAULT_ACTIONS = {
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

export const GROUP_LABELS: Record<ListKind, string> = { tools: 'Tools', resources: 'Resources', templates: 'Resource Templates', prompts: 'Prompts' };
const GROUP_NOUNS: Record<ListKind, string> = { tools: 'tools', resources: 'resources', templates: 'resource templates', prompts: 'prompts' };
const GROUP_ICONS: Record<ListKind, string> = { tools: 'tools', resources: 'files', templates: 'file-code', prompts: 'comment-discussion' };
const TASK_ICONS: Record<TaskEntry['status'], RowIcon> = {
  working: { id: 'loading~spin' },
  input_required: { id: 'bell-dot', color: 'list.warningForeground' },
  completed: { id: 'pass' },
  failed: { id: 'error', color: 'errorForeground' },
  cancelled: { id: 'circle-slash' },
};

/** A count as the tree shows it: 4,803. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

export function loadingRow(): TreeRow {
  return { label: READING_CONFIGURATION, expansion: 'none', id: 'loading', icon: { id: 'loading~spin' } };
}

/** What the server row needs beyond its handle: the editor's view of it. */
export interface ServerRowContext {
  readonly shown: ShownStatus;
  /** ".vscode/mcp.json", "User settings", … */
  readonly origin: string;
  readonly redact: (text: string) => string;
  readonly health?: ServerHealth;
  readonly recording?: boolean;
  readonly shared?: boolean;
  readonly canSignOut?: boolean;
  /** How it is sandboxed, in sentences, when it starts in a sandbox. */
  readonly sandbox?: readonly string[];
  /** The MCP Registry has a newer version than the one installed. */
  readonly registryUpdate?: { readonly installed: string; readonly latest: string };
}

/** The host and transport of a remote server, as its row and tooltip say them. */
function remoteOf(h: ServerHandle, facts: ServerRowContext): { host: string; transport: string } | undefined {
  const config = h.entry.config;
  if (config.type === 'stdio') return undefined;
  const running = facts.shown.kind === 'running';
  return { host: hostOf(facts.redact(h.resolved?.type === config.type ? h.resolved.url : config.url)), transport: transportLabel(config.type, running ? h.client?.stats()?.http?.transport : undefined) };
}

/** A server's row: its name, state, where it is configured, and what it runs. */
export function serverRow(node: TreeNode, h: ServerHandle, facts: ServerRowContext): TreeRow {
  const { shown, redact } = facts;
  const client = h.client;
  const running = shown.kind === 'running';
  const click = serverRowClick(shown.kind);
  const remote = remoteOf(h, facts);
  const reconnecting = shown.kind === 'error' && h.status.kind === 'error' && h.status.reconnecting === true;
  const unresponsive = running && facts.health?.kind === 'unresponsive' ? facts.health : undefined;
  const description = serverDescription({ status: shown.kind, origin: facts.origin, protocolVersion: running ? client?.protocolVersion : undefined, era: running ? client?.era : undefined, serverInfo: running ? client?.serverInfo : undefined, waitingFor: shown.waitingFor, remote, reconnecting });
  const config = h.entry.config;
  const commandLine =
    config.type === 'stdio'
      ? h.resolved?.type === 'stdio'
        ? redact(displayCommandLine(h.resolved.command, h.resolved.args))
        : formatCommandLine(config.command, config.args)
      : redact(h.resolved?.type === config.type ? h.resolved.url : config.url);
  const tooltip =
    serverTooltip({
      name: h.entry.name,
      status: shown.kind,
      waitingFor: shown.waitingFor,
      reconnecting,
      recording: facts.recording,
      origin: facts.origin,
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
    }) +
    (facts.sandbox ? `\n\n**Sandboxed**: ${facts.sandbox.join(' ')}` : '') +
    (facts.registryUpdate ? `\n\n**Update**: the registry has ${escapeMarkdown(facts.registryUpdate.latest)} (installed: ${escapeMarkdown(facts.registryUpdate.installed)}); run Update Servers from Registry` : '') +
    (unresponsive ? `\n\n**Unresponsive** since ${new Date(unresponsive.since).toLocaleTimeString()}: ${unresponsive.failures} ping(s) failed` : '');
  return {
    label: h.entry.name,
    expansion: serverRowExpands(shown.kind) ? 'expanded' : 'none',
    // The state is part of the id: a row that starts running (or fails) is a new row to the
    // tree, so it opens as remembered (or as `expansion` says) instead of keeping the
    // childless state of its stopped self.
    id: `server:${shown.kind === 'starting' || shown.kind === 'waiting' ? 'stopped' : shown.kind}:${h.id}`,
    ...(click ? { command: { ...(click === 'signIn' ? DEFAULT_ACTIONS.signin : DEFAULT_ACTIONS.server), arguments: [node] } } : {}),
    description: serverRowMarks({ update: facts.registryUpdate?.latest, sandboxed: facts.sandbox !== undefined, recording: facts.recording, unresponsive: unresponsive !== undefined, shared: facts.shared }) + description,
    icon: unresponsive ? { id: 'warning', color: 'list.warningForeground' } : statusIcon(shown.kind),
    // `.auth`: a remote server with something to sign out of (its menu offers Sign Out).
    contextValue: `server.${shown.kind}${facts.canSignOut ? '.auth' : ''}`,
    tooltip: { markdown: tooltip },
  };
}

/** What the rows under a server depend on besides its handle. */
export interface ServerChildrenFacts {
  readonly shown: ShownStatus;
  readonly redact: (text: string) => string;
  /** It gets a Tasks group (it runs tasks, or has some). */
  readonly tasks: boolean;
  /** It gets a Skills group. */
  readonly skills: boolean;
}

/** The rows under a server: its lists while it runs, why it failed or is blocked otherwise. */
export function serverChildren(h: ServerHandle, facts: ServerChildrenFacts): TreeNode[] {
  const { shown } = facts;
  const id = h.id;
  switch (shown.kind) {
    case 'running': {
      const caps = h.client?.serverCapabilities;
      const out: TreeNode[] = [];
      if (caps?.tools) out.push({ kind: 'group', serverId: id, list: 'tools' });
      if (caps?.resources) out.push({ kind: 'group', serverId: id, list: 'resources' }, { kind: 'group', serverId: id, list: 'templates' });
      if (caps?.prompts) out.push({ kind: 'group', serverId: id, list: 'prompts' });
      if (facts.tasks) out.push({ kind: 'tasks', serverId: id });
      if (facts.skills) out.push({ kind: 'skills', serverId: id });
      out.push({ kind: 'roots', serverId: id });
      return out;
    }
    case 'error':
      return errorChildren(h, facts.redact);
    case 'blocked': {
      const untrusted = shown.reason === UNTRUSTED_REASON;
      return [
        {
          kind: 'detail',
          serverId: id,
          key: 'blocked',
          label: shown.reason ?? 'blocked',
          ...(shown.reason !== undefined ? { tooltip: shown.reason } : {}),
          icon: { id: untrusted ? 'workspace-untrusted' : 'circle-slash' },
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

/** A failed server's rows: the error (a click diagnoses it), the restart under way, its last stderr lines. */
function errorChildren(h: ServerHandle, redact: (text: string) => string): TreeNode[] {
  const id = h.id;
  const status = h.status.kind === 'error' ? h.status : undefined;
  const message = redact(status?.message ?? h.lastError ?? 'unknown error');
  const out: TreeNode[] = [
    {
      kind: 'detail',
      serverId: id,
      key: 'error',
      label: truncate(message, 300),
      tooltip: `${message}\n\nClick to diagnose the connection step by step.`,
      icon: { id: 'error', color: 'errorForeground' },
      command: { ...DEFAULT_ACTIONS.error, arguments: [id] },
    },
  ];
  if (status?.restart) {
    const r = status.restart;
    out.push({ kind: 'detail', serverId: id, key: 'restart', label: `${status.reconnecting ? 'Reconnecting' : 'Restarting'} (${r.attempt} of ${r.maxRestarts})`, description: `at ${new Date(r.at).toLocaleTimeString()}`, icon: { id: 'sync' } });
  }
  const lines = status?.stderrTail.length ? status.stderrTail : h.stderrTail;
  if (lines.length) out.push({ kind: 'stderr', serverId: id, lines: lines.slice(-20) });
  return out;
}

/** A server's list of `kind`, if it has been fetched. */
export function listOf(h: ServerHandle, kind: ListKind): readonly (Tool | Resource | ResourceTemplate | Prompt)[] | undefined {
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

/** "Tools 12", "Prompts loading…", "Resources failed: …", with the malformed items the client left out. */
export function groupRow(h: ServerHandle, kind: ListKind): TreeRow {
  const list = listOf(h, kind);
  const error = h.listErrors[kind];
  const filled = list !== undefined && list.length > 0;
  // Malformed items the client left out: the rest of the list is shown, with a warning.
  const skipped = error ? [] : (h.skippedItems[kind] ?? []);
  const tooltip = error ? error : skipped.length ? [`${skipped.length} skipped as malformed:`, ...skipped.slice(0, 20).map((x) => truncate(describeSkippedItem(x), 300))].join('\n') : undefined;
  return {
    label: GROUP_LABELS[kind],
    expansion: filled ? 'collapsed' : 'none',
    // VS Code applies collapsibleState only to an id it has not drawn yet: a group drawn empty
    // while its list loads gets another id than the filled one, so the filled one opens as
    // remembered instead of staying closed.
    id: filled ? `${h.id}/${kind}` : `${h.id}/${kind}:empty`,
    icon: { id: error || skipped.length ? 'warning' : GROUP_ICONS[kind] },
    contextValue: `group.${kind}`,
    description: error ? `failed: ${truncate(error, 120)}` : list ? `${list.length}${skipped.length ? ` · ${skipped.length} skipped` : ''}` : 'loading…',
    ...(tooltip !== undefined ? { tooltip } : {}),
  };
}

/** The Roots group: what the server was given when it last asked (`askedAt`), or what it would get now. */
export function rootsRow(serverId: string, roots: readonly Root[], askedAt: number | undefined, now: number): Omit<TreeRow, 'description'> {
  return {
    label: 'Roots',
    expansion: roots.length ? 'collapsed' : 'none',
    id: roots.length ? `${serverId}/roots` : `${serverId}/roots:empty`,
    icon: { id: 'root-folder-opened' },
    contextValue: 'group.roots',
    tooltip:
      askedAt === undefined
        ? 'The server has not asked for roots (roots/list) yet; these are the roots it would get.'
        : `The server last asked for roots at ${new Date(askedAt).toLocaleString()} (${relativeTime(askedAt, now)}) and was given these.`,
  };
}

function leaf(id: string, label: string, contextValue: string, icon: string | undefined): TreeRow {
  return { label, expansion: 'none', id, contextValue, ...(icon ? { icon: { id: icon } } : {}) };
}

/** A tool's row; `chat` is what @mcp says of it (switched off for models, changed since approved). */
export function toolRow(node: TreeNode & { kind: 'tool' }, chat?: { readonly changed?: boolean; readonly disabled?: boolean }): TreeRow {
  const t = node.tool;
  let description = itemDescription(t.title ?? t.annotations?.title, t.description);
  if (chat?.changed) description = `⚠ changed since you approved it · ${description ?? ''}`;
  if (chat?.disabled) description = `off for models · ${description ?? ''}`;
  return { ...leaf(leafId(node.serverId, 'tool', t.name, node.index), t.name, 'tool', 'tools'), ...(description !== undefined ? { description } : {}), command: { ...DEFAULT_ACTIONS.tool, arguments: [node] } };
}

/** A resource's row, with its subscription mark (`mark`). */
export function resourceRow(node: TreeNode & { kind: 'resource' }, mark: ResourceRowMark): TreeRow {
  const r = node.resource;
  return { ...leaf(leafId(node.serverId, 'resource', r.uri, node.index), r.name, mark.contextValue, mark.icon), description: mark.badge ? `${mark.badge} · ${r.uri}` : r.uri, command: { ...DEFAULT_ACTIONS.resource, arguments: [node] } };
}

export function templateRow(node: TreeNode & { kind: 'resourceTemplate' }): TreeRow {
  const t = node.template;
  return { ...leaf(leafId(node.serverId, 'template', t.uriTemplate, node.index), t.name, 'resourceTemplate', 'file-code'), description: t.uriTemplate, command: { ...DEFAULT_ACTIONS.resourceTemplate, arguments: [node] } };
}

export function promptRow(node: TreeNode & { kind: 'prompt' }): TreeRow {
  const p = node.prompt;
  const description = itemDescription(p.title, p.description);
  return { ...leaf(leafId(node.serverId, 'prompt', p.name, node.index), p.name, 'prompt', 'comment-discussion'), ...(description !== undefined ? { description } : {}), command: { ...DEFAULT_ACTIONS.prompt, arguments: [node] } };
}

/** "Show 200 more · 4,803 not shown": its click loads the next page; Show All (inline) the rest. */
export function moreRow(node: TreeNode & { kind: 'more' }): TreeRow {
  const { page, list } = node;
  return {
    ...leaf(`${node.serverId}/${list}/more`, `Show ${count(page.next)} more`, 'more', 'ellipsis'),
    description: `${count(page.hidden)} not shown`,
    tooltip: `${count(page.shown)} of ${count(page.total)} ${GROUP_NOUNS[list]} are shown. Click to show ${count(page.next)} more, or Show All.${list === 'tools' ? " Find Tool… (in the view's title bar) searches every tool, shown or not." : ''}`,
    command: { command: 'mcpHost.tree.showMore', title: 'Show More', arguments: [node] },
  };
}

/** A root; `path` is its URI as a file path (the editor's `Uri.fsPath`). */
export function rootRow(node: TreeNode & { kind: 'root' }, path: string): TreeRow {
  return { ...leaf(leafId(node.serverId, 'root', node.root.uri, node.index), node.root.name ?? node.root.uri, 'root', 'root-folder'), description: path, tooltip: node.root.uri };
}

export function stderrRow(node: TreeNode & { kind: 'stderr' }): TreeRow {
  return { label: 'stderr', expansion: 'expanded', id: `${node.serverId}/stderr`, description: `last ${node.lines.length} line${node.lines.length === 1 ? '' : 's'}`, icon: { id: 'terminal' }, contextValue: 'stderr' };
}

/** A stderr row's lines, each its own row (redacted; long ones cut, whole in the tooltip). */
export function stderrLines(serverId: string, lines: readonly string[], redact: (text: string) => string): TreeNode[] {
  return lines.map((line, i) => ({ kind: 'detail', serverId, key: `stderr:${i}`, label: truncate(redact(line), 300), tooltip: redact(line) }));
}

/** The Tasks group: opens by itself once a task appears (unless the user closed it); empty, it has nothing to open. */
export function tasksRow(serverId: string, tasks: readonly TaskEntry[], unlisted: string | undefined): TreeRow {
  const group = describeTaskGroup(tasks, unlisted);
  return {
    label: 'Tasks',
    expansion: tasks.length ? 'expanded' : 'none',
    id: tasks.length ? `${serverId}/tasks` : `${serverId}/tasks:empty`,
    icon: { id: 'tasklist' },
    contextValue: 'group.tasks',
    description: group.description,
    tooltip: (group.tooltip ? `${group.tooltip}\n\n` : '') + 'Tool calls the server runs as tasks (2025-11-25 tasks, or the 2026-07-28 tasks extension): running ones first, then recent ones. Refresh lists what a 2025-11-25 server holds (tasks/list; the extension has none).',
  };
}

/** A task's row as it is at `now`: its state, time and progress; a click follows it or opens its result. */
export function taskRow(serverId: string, t: TaskEntry, now: number): TreeRow {
  const running = isRunning(t);
  const tooltip = [
    `**${escapeMarkdown(t.toolName ?? 'task')}** · ${escapeMarkdown(t.status)}`,
    t.statusMessage ? escapeMarkdown(truncate(t.statusMessage, 500)) : undefined,
    `Task id: \`${escapeMarkdown(t.taskId)}\``,
    `Started ${new Date(t.createdAt).toLocaleTimeString()} from ${escapeMarkdown(t.origin === 'tasks/list' ? 'another session (listed by tasks/list)' : t.origin)}`,
    t.ttlMs ? `Kept by the server ${Math.round(t.ttlMs / 1000)} s` : undefined,
    running ? 'Click to follow it in its tool panel; Cancel sends tasks/cancel.' : t.status === 'completed' ? 'Click to open its result.' : undefined,
  ].filter((line): line is string => line !== undefined);
  return {
    label: t.toolName ?? `task ${t.taskId.slice(0, 8)}`,
    expansion: 'none',
    id: `${serverId}/task/${t.taskId}`,
    contextValue: running ? 'task.running' : 'task.ended',
    icon: TASK_ICONS[t.status],
    description: taskDescription(t, now),
    tooltip: { markdown: tooltip.join('\n\n') },
    command: { command: 'mcpHost.task.open', title: 'Open Task', arguments: [{ kind: 'task', serverId, taskId: t.taskId }] },
  };
}

export function detailRow(node: TreeNode & { kind: 'detail' }): TreeRow {
  return {
    label: node.label,
    expansion: 'none',
    id: `${node.serverId}/detail/${node.key}`,
    contextValue: 'detail',
    ...(node.icon ? { icon: node.icon } : {}),
    ...(node.tooltip !== undefined ? { tooltip: node.tooltip } : {}),
    ...(node.command ? { command: node.command } : {}),
    ...(node.description !== undefined ? { description: node.description } : {}),
  };
}

/**
 * The Markdown tooltip of a tool, resource, template or prompt row, built when the row is hovered
 * (`mark`: the resource's subscription mark, asked only for a resource); other rows have theirs drawn.
 */
export function hoverTooltip(node: TreeNode, mark: () => ResourceRowMark | undefined): string | undefined {
  switch (node.kind) {
    case 'tool':
      return toolTooltip(node.tool);
    case 'resource': {
      const note = mark()?.note;
      return resourceTooltip(node.resource) + (note ? `\n\n${escapeMarkdown(truncate(note, 500))}` : '');
    }
    case 'resourceTemplate':
      return templateTooltip(node.template);
    case 'prompt':
      return promptTooltip(node.prompt);
    default:
      return undefined;
  }
}
