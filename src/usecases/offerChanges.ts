// Watches what each server offers and records what changed: after a `list_changed`, a refresh,
// a restart or a reconnect, compared with what the server offered before (of the same server,
// across its sessions). The editor's "What changed" view and output channel read the records.
import type { McpClient } from '../client/client';
import type { Prompt, Resource, ResourceTemplate, Tool } from '../client/schemas';
import { Emitter, Event } from '../protocol/events';
import { OfferChange, ServerOffer, describeOfferChange, diffOffers } from './offerDiff';

/** What the tracker reads of a server: a registry handle fits. */
export interface OfferSource {
  readonly id: string;
  readonly entry: { readonly name: string };
  readonly status: { readonly kind: string };
  readonly client: McpClient | undefined;
  readonly tools: readonly Tool[] | undefined;
  readonly resources: readonly Resource[] | undefined;
  readonly templates: readonly ResourceTemplate[] | undefined;
  readonly prompts: readonly Prompt[] | undefined;
  /** Why the last fetch of a list failed: such a list is taken as unchanged. */
  readonly listErrors: Readonly<Partial<Record<'tools' | 'resources' | 'templates' | 'prompts', string>>>;
}

/** One recorded change of a server's offer. */
export interface OfferChangeRecord {
  readonly serverId: string;
  readonly serverName: string;
  /** Epoch ms. */
  readonly at: number;
  /** `restart`: a new session (restart, reconnect) offered something else; `lists`: the same session's lists changed. */
  readonly cause: 'restart' | 'lists';
  readonly changes: readonly OfferChange[];
}

export interface OfferChangeTrackerOptions {
  /** Records kept (oldest dropped first). */
  readonly maxRecords?: number;
  readonly now?: () => number;
}

interface Known {
  offer: ServerOffer;
  client: McpClient;
}

/** Compares each server's offer with the last complete one it saw; keeps a bounded list of changes. */
export class OfferChangeTracker {
  private readonly known = new Map<string, Known>();
  private readonly records: OfferChangeRecord[] = [];
  private readonly maxRecords: number;
  private readonly now: () => number;
  private readonly _onDidRecord = new Emitter<OfferChangeRecord>();
  /** A change was recorded. */
  readonly onDidRecord: Event<OfferChangeRecord> = this._onDidRecord.event;
  private readonly _onDidClear = new Emitter<void>();
  readonly onDidClear: Event<void> = this._onDidClear.event;

  constructor(options: OfferChangeTrackerOptions = {}) {
    this.maxRecords = options.maxRecords ?? 200;
    this.now = options.now ?? Date.now;
  }

  /**
   * Looks at a server after it changed. Records (and returns) what changed when its offer is
   * complete (every declared list fetched) and differs from the last complete one; the first
   * complete offer of a server is only remembered.
   */
  observe(server: OfferSource): OfferChangeRecord | undefined {
    const client = server.client;
    if (server.status.kind !== 'running' || !client) return undefined;
    const previous = this.known.get(server.id);
    const offer = currentOffer(server, client, previous?.offer);
    if (!offer) return undefined;
    this.known.set(server.id, { offer, client });
    if (!previous) return undefined;
    const changes = diffOffers(previous.offer, offer);
    if (changes.length === 0) return undefined;
    const record: OfferChangeRecord = { serverId: server.id, serverName: server.entry.name, at: this.now(), cause: previous.client === client ? 'lists' : 'restart', changes };
    this.records.push(record);
    if (this.records.length > this.maxRecords) this.records.splice(0, this.records.length - this.maxRecords);
    this._onDidRecord.fire(record);
    return record;
  }

  /** Forgets a server that left the configuration. */
  forget(serverId: string): void {
    this.known.delete(serverId);
  }

  /** The recorded changes, oldest first. */
  list(): readonly OfferChangeRecord[] {
    return this.records;
  }

  clear(): void {
    this.records.length = 0;
    this._onDidClear.fire();
  }

  dispose(): void {
    this._onDidRecord.dispose();
    this._onDidClear.dispose();
  }
}

/** The lines a record makes in a log: a heading, then one line a change. */
export function describeOfferChangeRecord(record: OfferChangeRecord): string[] {
  const count = `${record.changes.length} change${record.changes.length === 1 ? '' : 's'}`;
  const heading = record.cause === 'restart' ? `what changed since the last session: ${count}` : `what changed in the lists: ${count}`;
  return [heading, ...record.changes.map((c) => `  ${describeOfferChange(c)}`)];
}

/**
 * The server's offer now, or undefined while a declared list has not arrived yet. A list whose
 * fetch failed is taken from the previous offer: unknown is not empty.
 */
function currentOffer(server: OfferSource, client: McpClient, previous: ServerOffer | undefined): ServerOffer | undefined {
  const caps = client.serverCapabilities;
  if (!client.serverInfo || !client.protocolVersion || !caps) return undefined;
  const section = <T>(declared: unknown, list: readonly T[] | undefined, kind: keyof OfferSource['listErrors'], before: readonly T[] | undefined): readonly T[] | undefined | 'pending' => {
    if (!declared) return undefined;
    if (list) return list;
    return server.listErrors[kind] !== undefined ? before : 'pending';
  };
  const tools = section(caps.tools, server.tools, 'tools', previous?.tools);
  const resources = section(caps.resources, server.resources, 'resources', previous?.resources);
  const templates = section(caps.resources, server.templates, 'templates', previous?.resourceTemplates);
  const prompts = section(caps.prompts, server.prompts, 'prompts', previous?.prompts);
  if (tools === 'pending' || resources === 'pending' || templates === 'pending' || prompts === 'pending') return undefined;
  return {
    serverInfo: client.serverInfo,
    protocolVersion: client.protocolVersion,
    ...(client.era ? { era: client.era } : {}),
    capabilities: caps,
    ...(client.instructions !== undefined ? { instructions: client.instructions } : {}),
    ...(tools ? { tools } : {}),
    ...(resources ? { resources } : {}),
    ...(templates ? { resourceTemplates: templates } : {}),
    ...(prompts ? { prompts } : {}),
  };
}
