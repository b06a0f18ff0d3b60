// One server as the UI and the use cases see it (ServerHandle), where it is (ServerStatus) and
// what of its lists is cached and how fresh. The registry's ManagedServer implements it.
import type { McpClient } from '../client/client';
import type { Prompt, Resource, ResourceTemplate, SkippedListItem, Tool } from '../client/schemas';
import type { ServerEntry } from '../config/types';
import type { ResolvedServer } from '../config/variables';

/** Where a server is. `error` carries `restart` while an automatic restart is scheduled. */
export type ServerStatus =
  | { readonly kind: 'stopped' }
  | { readonly kind: 'starting' }
  | { readonly kind: 'running' }
  /** Being shut down (for stdio: stdin closed, then signals; for HTTP: the session deleted). */
  | { readonly kind: 'stopping' }
  | {
      readonly kind: 'error';
      readonly message: string;
      readonly stderrTail: readonly string[];
      /** Set while a restart after a crash is pending: `attempt` of `maxRestarts`, at epoch ms `at`. */
      readonly restart?: { readonly attempt: number; readonly maxRestarts: number; readonly delayMs: number; readonly at: number };
      /** A remote server whose connection was lost (or refused again): the pending restart is a reconnect (see connectionStatus.ts). */
      readonly reconnecting?: boolean;
    }
  /** `prepare` refused it: untrusted workspace, consent denied. */
  | { readonly kind: 'blocked'; readonly reason: string };

/** The lists a server can declare. `templates` come with the `resources` capability. */
export type ListKind = 'tools' | 'resources' | 'templates' | 'prompts';

/** One server as the UI sees it. The object stays the same for an id across restarts and config changes. */
export interface ServerHandle {
  readonly id: string;
  /** The current entry (replaced when the config changes). */
  readonly entry: ServerEntry;
  readonly status: ServerStatus;
  /** The client of the current process, from the moment it is created (before connect) until it stopped. */
  readonly client: McpClient | undefined;
  /** What the current (or last) session was started with. */
  readonly resolved: ResolvedServer | undefined;
  /** The pid of the current process (stdio only). */
  readonly pid: number | undefined;
  /** Epoch ms when the current process was initialized. */
  readonly startedAt: number | undefined;
  /** Cached lists: `undefined` when not running or the server did not declare the capability. */
  readonly tools: readonly Tool[] | undefined;
  readonly resources: readonly Resource[] | undefined;
  readonly templates: readonly ResourceTemplate[] | undefined;
  readonly prompts: readonly Prompt[] | undefined;
  /** Why the last fetch of a list failed (cleared when it succeeds). */
  readonly listErrors: Readonly<Partial<Record<ListKind, string>>>;
  /** Items the last fetch of a list left out as malformed (the rest of the list is shown). */
  readonly skippedItems: Readonly<Partial<Record<ListKind, readonly SkippedListItem[]>>>;
  /** The last failure (start or crash), kept after a restart succeeded. */
  readonly lastError: string | undefined;
  /** The last stderr lines of the current (or last) process, oldest first. */
  readonly stderrTail: readonly string[];
  /** How the last process ended. */
  readonly lastExit: { readonly code: number | null; readonly signal: string | null; readonly time: number } | undefined;
  /** Automatic restarts since the last manual start. */
  readonly restarts: number;
  /** Until when each cached list may be reused, by the server's `ttlMs` (modern servers); see ListFreshness. */
  readonly listFreshness: Readonly<Partial<Record<ListKind, ListFreshness>>>;
  /** Fetches every declared list again. Resolves when done; no-op unless running. */
  refresh(): Promise<void>;
  /**
   * Fetches one list again when it is stale: a modern server's list past its `ttlMs`, or sent
   * without one (which means stale). A legacy server's lists stay until it says they changed.
   * Resolves when done; no-op unless running.
   */
  refreshIfStale(kind: ListKind): Promise<void>;
  /**
   * The client once the server is running: at once when it is, after the start in progress
   * when it is starting (or after a start of its own with `start: true`). Rejects with
   * `McpLocalError('closed')` saying why when the server is not running and will not be, and
   * with `McpLocalError('cancelled')` when `signal` aborts first.
   */
  whenReady(options?: WhenReadyOptions): Promise<McpClient>;
}

/** Options of `ServerHandle.whenReady()`. */
export interface WhenReadyOptions {
  readonly signal?: AbortSignal;
  /** Start the server first when it is not running (the same start as the user's Start). */
  readonly start?: boolean;
}

/** How long a cached list may be reused, from the cache hints of its last fetch. */
export interface ListFreshness {
  /** Epoch ms of the fetch. */
  readonly fetchedAt: number;
  /** Reusable until then; undefined when the server gave no ttlMs (stale at once). */
  readonly freshUntil?: number;
  readonly cacheScope?: 'public' | 'private';
}
