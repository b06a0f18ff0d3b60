// The rows of the Servers tree as data: their kinds, the keys they are remembered and redrawn by,
// their parents, and the text of task rows. No `vscode` at run time (types only), so node --test
// loads it.
import type * as vscode from 'vscode';
import type { Root } from '../../client/client';
import type { Prompt, Resource, ResourceTemplate, Tool } from '../../client/schemas';
import type { ConfigProblem } from '../../config';
import type { ListKind } from '../../registry';
import type { TaskEntry } from '../../usecases/taskStore';
import { describeTaskGroup, describeTaskState } from '../../usecases/taskText';
import type { GroupPage } from './groupPages';
import type { SkillEntry } from '../../skills/wire';

/** A row of the Servers tree. */
export type TreeNode =
  | { readonly kind: 'loading' }
  | { readonly kind: 'problem'; readonly problem: ConfigProblem; readonly index: number }
  | { readonly kind: 'server'; readonly serverId: string }
  | { readonly kind: 'group'; readonly serverId: string; readonly list: ListKind }
  | { readonly kind: 'roots'; readonly serverId: string }
  | { readonly kind: 'tool'; readonly serverId: string; readonly tool: Tool; readonly index: number }
  | { readonly kind: 'resource'; readonly serverId: string; readonly resource: Resource; readonly index: number }
  | { readonly kind: 'resourceTemplate'; readonly serverId: string; readonly template: ResourceTemplate; readonly index: number }
  | { readonly kind: 'prompt'; readonly serverId: string; readonly prompt: Prompt; readonly index: number }
  /** The last row of a long group: loads its next page (groupPages.ts). */
  | { readonly kind: 'more'; readonly serverId: string; readonly list: ListKind; readonly page: GroupPage }
  | { readonly kind: 'root'; readonly serverId: string; readonly root: Root; readonly index: number }
  | { readonly kind: 'stderr'; readonly serverId: string; readonly lines: readonly string[] }
  | { readonly kind: 'tasks'; readonly serverId: string }
  | { readonly kind: 'task'; readonly serverId: string; readonly task: TaskEntry }
  /** The skills a server lists (Skills extension), a skill, and a file of it (extension/skills/skillsTree.ts). */
  | { readonly kind: 'skills'; readonly serverId: string }
  | { readonly kind: 'skill'; readonly serverId: string; readonly entry: SkillEntry; readonly label: string }
  | { readonly kind: 'skillFile'; readonly serverId: string; readonly entry: SkillEntry; readonly path: string; readonly size?: number }
  | { readonly kind: 'detail'; readonly serverId: string; readonly key: string; readonly label: string; readonly icon?: vscode.ThemeIcon; readonly tooltip?: string; readonly command?: vscode.Command; readonly description?: string };

/** A row's parent; a stderr line's is the stderr row last drawn (`stderrRow`). */
export function parentOf(node: TreeNode, stderrRow: (serverId: string) => TreeNode | undefined): TreeNode | undefined {
  switch (node.kind) {
    case 'loading':
    case 'problem':
    case 'server':
      return undefined;
    case 'group':
    case 'roots':
    case 'tasks':
    case 'skills':
    case 'stderr':
      return { kind: 'server', serverId: node.serverId };
    case 'skill':
      return { kind: 'skills', serverId: node.serverId };
    case 'skillFile':
      return { kind: 'skill', serverId: node.serverId, entry: node.entry, label: node.entry.frontmatter.name };
    case 'tool':
      return { kind: 'group', serverId: node.serverId, list: 'tools' };
    case 'resource':
      return { kind: 'group', serverId: node.serverId, list: 'resources' };
    case 'resourceTemplate':
      return { kind: 'group', serverId: node.serverId, list: 'templates' };
    case 'prompt':
      return { kind: 'group', serverId: node.serverId, list: 'prompts' };
    case 'more':
      return { kind: 'group', serverId: node.serverId, list: node.list };
    case 'root':
      return { kind: 'roots', serverId: node.serverId };
    case 'task':
      return { kind: 'tasks', serverId: node.serverId };
    case 'detail':
      return node.key.startsWith('stderr:') ? stderrRow(node.serverId) : { kind: 'server', serverId: node.serverId };
    default: {
      const never: never = node;
      return never;
    }
  }
}

/**
 * The key a row's expansion is remembered by: the server and the row, never the server's state
 * (the row's `id` has that), so a restart or a reload finds it again.
 */
export function expansionKey(node: TreeNode): string | undefined {
  switch (node.kind) {
    case 'server':
      return `server:${node.serverId}`;
    case 'group':
      return `group:${node.serverId}/${node.list}`;
    case 'roots':
      return `roots:${node.serverId}`;
    case 'stderr':
      return `stderr:${node.serverId}`;
    case 'tasks':
      return `tasks:${node.serverId}`;
    case 'skills':
      return `skills:${node.serverId}`;
    case 'skill':
      return `skill:${node.serverId}/${node.entry.uri}`;
    default:
      return undefined;
  }
}

/**
 * A leaf's id from what identifies it (a tool's name, a resource's URI), not its position: a
 * list change then keeps the other rows' ids, so focus and selection stay. `occurrence`
 * separates a name a server lists twice (ids must be unique).
 */
export function leafId(serverId: string, kind: string, key: string, occurrence: number): string {
  return `${serverId}/${kind}/${key}${occurrence ? `#${occurrence}` : ''}`;
}

/** The key of a server's Tasks group among the moving rows; its task rows are under it (`…/taskId`). */
export function tasksKey(serverId: string): string {
  return `tasks:${serverId}`;
}

export function isRunning(t: TaskEntry): boolean {
  return t.status === 'working' || t.status === 'input_required';
}

/**
 * `working · Gathering sources… · 3 min · 2/4`: a running task's time in minutes, so its row (and
 * its Cancel Task under the pointer) is redrawn once a minute, not every second; an ended one's exactly.
 */
export function taskDescription(t: TaskEntry, now: number): string {
  return describeTaskState({ status: t.status, ...(t.unseen ? { unseen: true } : {}), ...(t.statusMessage !== undefined ? { statusMessage: t.statusMessage } : {}), elapsedMs: (t.endedAt ?? now) - t.createdAt, ...(isRunning(t) ? { elapsedPrecision: 'minutes' as const } : {}), ...(t.progress ? { progress: t.progress } : {}) });
}

/** The tasks a group lists, as one comparable string. */
export function taskIds(tasks: readonly TaskEntry[]): string {
  return tasks.map((t) => t.taskId).join('\n');
}

/** "none", "1 running · 2 recent", "3 recent". */
export function tasksDescription(tasks: readonly TaskEntry[], unlisted?: string): string {
  return describeTaskGroup(tasks, unlisted).description;
}
