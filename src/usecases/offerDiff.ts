// What changed in what a server offers: tools, resources, templates, prompts, capabilities,
// instructions and its name, between two snapshots (`mcp-host inspect --json`, a list before and
// after `list_changed`, a restart). Field-level: "tool echo: inputSchema.properties.message.description changed".
import type { Implementation, Prompt, Resource, ResourceTemplate, ServerCapabilities, Tool } from '../client/schemas';
import { isRecord } from '../protocol/jsonShape';
import { jsonEqual } from '../schema/json';
import { JsonChange, formatJsonPath, jsonDiff, valueNote } from '../schema/jsonDiff';

/** What a server offers, as `mcp-host inspect --json` prints it. Sections a server did not declare are absent. */
export interface ServerOffer {
  readonly serverInfo: Implementation;
  readonly protocolVersion: string;
  /** `legacy` (initialize) or `modern` (server/discover, 2026-07-28). */
  readonly era?: 'legacy' | 'modern';
  readonly capabilities: ServerCapabilities;
  readonly instructions?: string;
  readonly tools?: readonly Tool[];
  readonly resources?: readonly Resource[];
  readonly resourceTemplates?: readonly ResourceTemplate[];
  readonly prompts?: readonly Prompt[];
}

/** The kinds of things a server offers, singular as a change names them. */
export type OfferSubject = 'server' | 'protocol' | 'capabilities' | 'instructions' | 'tool' | 'resource' | 'template' | 'prompt';

/** One change between two offers. `name` identifies the item (a tool's name, a resource's URI). */
export interface OfferChange {
  readonly subject: OfferSubject;
  readonly name?: string;
  readonly kind: 'added' | 'removed' | 'changed';
  /** Where inside the item, for a changed field (empty for the item as a whole). */
  readonly path: readonly (string | number)[];
  readonly before?: unknown;
  readonly after?: unknown;
}

export interface OfferDiffOptions {
  /** Also report a changed server version (volatile: it changes with every release). */
  readonly serverVersion?: boolean;
  /** Also report a changed protocol version or era. */
  readonly protocol?: boolean;
}

const LISTS = [
  { subject: 'tool', key: 'tools', id: (item: Record<string, unknown>) => item.name },
  { subject: 'resource', key: 'resources', id: (item: Record<string, unknown>) => item.uri },
  { subject: 'template', key: 'resourceTemplates', id: (item: Record<string, unknown>) => item.uriTemplate },
  { subject: 'prompt', key: 'prompts', id: (item: Record<string, unknown>) => item.name },
] as const;

/** The changes from `before` to `after`, in a stable order: server, capabilities, instructions, then each list. */
export function diffOffers(before: ServerOffer, after: ServerOffer, options: OfferDiffOptions = {}): OfferChange[] {
  const changes: OfferChange[] = [];
  const field = (subject: OfferSubject, a: unknown, b: unknown, name?: string) => {
    if (jsonEqual(a, b)) return;
    const kind = a === undefined ? 'added' : b === undefined ? 'removed' : 'changed';
    changes.push({ subject, kind, path: [], before: a, after: b, ...(name !== undefined ? { name } : {}) });
  };
  field('server', before.serverInfo?.name, after.serverInfo?.name, 'name');
  if (options.serverVersion) field('server', before.serverInfo?.version, after.serverInfo?.version, 'version');
  if (options.protocol) {
    field('protocol', before.protocolVersion, after.protocolVersion, 'version');
    field('protocol', before.era, after.era, 'era');
  }
  for (const change of jsonDiff(before.capabilities ?? {}, after.capabilities ?? {})) changes.push(fromJson('capabilities', undefined, change));
  field('instructions', before.instructions, after.instructions);

  for (const list of LISTS) {
    const a = byId(before[list.key], list.id);
    const b = byId(after[list.key], list.id);
    for (const [id, item] of a) {
      const other = b.get(id);
      if (other === undefined) changes.push({ subject: list.subject, name: id, kind: 'removed', path: [], before: item });
      else for (const change of jsonDiff(item, other)) changes.push(fromJson(list.subject, id, change));
    }
    for (const [id, item] of b) if (!a.has(id)) changes.push({ subject: list.subject, name: id, kind: 'added', path: [], after: item });
  }
  return changes;
}

/** One line for a change, as the CLI and the output channel print it: `tool echo: inputSchema.properties.message.description changed`. */
export function describeOfferChange(change: OfferChange): string {
  const where = change.path.length ? formatJsonPath(change.path) : '';
  switch (change.subject) {
    case 'server':
    case 'protocol':
      return `${change.subject} ${change.name} ${change.kind}${valueNote(change)}`;
    case 'instructions':
      return `instructions ${change.kind}${valueNote(change)}`;
    case 'capabilities':
      return `capabilities: ${where} ${change.kind}${valueNote(change)}`;
    default:
      return where ? `${change.subject} ${change.name}: ${where} ${change.kind}${valueNote(change)}` : `${change.subject} ${change.name}: ${change.kind}`;
  }
}

/**
 * A change of the server's data rather than of what it offers to do: resources come and go as it
 * works (a note added is `resource notes://note/3 added`), tools, prompts and templates do not.
 */
export function isDataChange(change: OfferChange): boolean {
  return change.subject === 'resource';
}

/** "3 resources added · 1 removed · 2 changed", for data changes folded into one row. */
export function summarizeDataChanges(changes: readonly OfferChange[]): string {
  const count = (kind: OfferChange['kind']) => new Set(changes.filter((c) => c.kind === kind).map((c) => c.name)).size;
  const parts = (['added', 'removed', 'changed'] as const).map((kind) => [kind, count(kind)] as const).filter(([, n]) => n > 0);
  return parts.map(([kind, n], i) => (i === 0 ? `${n} resource${n === 1 ? '' : 's'} ${kind}` : `${n} ${kind}`)).join(' · ');
}

/** Reads a snapshot written by `mcp-host inspect --json`; throws an Error saying what is wrong with it. */
export function parseOfferSnapshot(value: unknown, where: string): ServerOffer {
  if (!isRecord(value)) throw new Error(`${where} is not an inspect snapshot (expected the JSON object \`mcp-host inspect --json\` prints)`);
  if (!isRecord(value.serverInfo) || typeof value.protocolVersion !== 'string' || !isRecord(value.capabilities)) {
    throw new Error(`${where} is not an inspect snapshot: it has no serverInfo, protocolVersion and capabilities (write one with \`mcp-host inspect --json\`)`);
  }
  for (const list of LISTS) {
    const items = value[list.key];
    if (items !== undefined && !Array.isArray(items)) throw new Error(`${where}: "${list.key}" is not a list`);
  }
  return value as unknown as ServerOffer;
}

function byId(items: readonly unknown[] | undefined, id: (item: Record<string, unknown>) => unknown): Map<string, Record<string, unknown>> {
  const map = new Map<string, Record<string, unknown>>();
  for (const item of items ?? []) {
    if (!isRecord(item)) continue;
    const key = id(item);
    if (typeof key === 'string' && !map.has(key)) map.set(key, item);
  }
  return map;
}

function fromJson(subject: OfferSubject, name: string | undefined, change: JsonChange): OfferChange {
  return { subject, kind: change.kind, path: change.path, before: change.before, after: change.after, ...(name !== undefined ? { name } : {}) };
}
