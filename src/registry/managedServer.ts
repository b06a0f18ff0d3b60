// The registry's record of one server: the handle the UI holds (the same object across restarts
// and config changes), its cached lists, its crash history, its queue of operations, and its
// current launch (ServerLaunch), if any.
import type { McpClient } from '../client/client';
import type { Prompt, Resource, ResourceTemplate, SkippedListItem, Tool } from '../client/schemas';
import type { ServerEntry } from '../config/types';
import type { ResolvedServer } from '../config/variables';
import { Redactor } from '../protocol/redaction';
import type { ListFreshness, ListKind, ServerHandle, ServerStatus, WhenReadyOptions } from './serverHandle';
import type { ServerLaunch } from './serverLaunch';

/** What a handle asks of its registry. */
export interface ServerOperations {
  refreshServer(h: ManagedServer): Promise<void>;
  refreshStaleList(h: ManagedServer, kind: ListKind): Promise<void>;
  whenReady(h: ManagedServer, options?: WhenReadyOptions): Promise<McpClient>;
}

/** One list's fetch in flight, and whether another was asked for meanwhile. */
export interface ListState {
  inflight?: Promise<void>;
  again: boolean;
}

export class ManagedServer implements ServerHandle {
  entry: ServerEntry;
  status: ServerStatus = { kind: 'stopped' };
  resolved: ResolvedServer | undefined;
  /** Hides the secrets of `resolved` in every line this server logs. */
  redactor = new Redactor();
  startedAt: number | undefined;
  tools: Tool[] | undefined;
  resources: Resource[] | undefined;
  templates: ResourceTemplate[] | undefined;
  prompts: Prompt[] | undefined;
  listErrors: Partial<Record<ListKind, string>> = {};
  skippedItems: Partial<Record<ListKind, readonly SkippedListItem[]>> = {};
  lastError: string | undefined;
  stderrTail: string[] = [];
  lastExit: { code: number | null; signal: string | null; time: number } | undefined;
  restarts = 0;

  /** The current launch, from its creation until it closed. */
  session: ServerLaunch | undefined;
  /** Aborts a start that is still in `prepare` (it may be waiting for the user). */
  startAbort: AbortController | undefined;
  restartTimer: NodeJS.Timeout | undefined;
  crashTimes: number[] = [];
  /** The user stopped it: neither a config change nor the start policy starts it again (a start or restart clears it). */
  stoppedByUser = false;
  removed = false;
  queue: Promise<void> = Promise.resolve();
  readonly lists: Record<ListKind, ListState> = { tools: { again: false }, resources: { again: false }, templates: { again: false }, prompts: { again: false } };
  listFreshness: Partial<Record<ListKind, ListFreshness>> = {};

  constructor(
    entry: ServerEntry,
    private readonly registry: ServerOperations,
  ) {
    this.entry = entry;
  }

  get id(): string {
    return this.entry.id;
  }

  get client(): McpClient | undefined {
    return this.session?.client;
  }

  get pid(): number | undefined {
    return this.session?.client.stats()?.process?.pid;
  }

  refresh(): Promise<void> {
    return this.registry.refreshServer(this);
  }

  refreshIfStale(kind: ListKind): Promise<void> {
    return this.registry.refreshStaleList(this, kind);
  }

  whenReady(options?: WhenReadyOptions): Promise<McpClient> {
    return this.registry.whenReady(this, options);
  }
}
