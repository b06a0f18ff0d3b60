// Which resources are subscribed, and why: the user's Subscribe toggle (`explicit`), an editor
// showing the resource (`open`), and what the server has actually acknowledged on its current
// connection (`active`). The VS Code layer feeds it and does the requests; the tree reads the
// mark of each resource row from it. No `vscode` import.
import { Emitter, Event } from '../protocol/events';

/** One resource's subscription as the tree shows it. */
export interface SubscriptionState {
  /** The user subscribed with the toggle (kept without an editor). */
  readonly explicit: boolean;
  /** An editor shows it (subscribed while open). */
  readonly open: boolean;
  /** The server acknowledged `resources/subscribe` on the current connection. */
  readonly active: boolean;
  /** Why the last subscribe failed, while it is wanted and not active. */
  readonly error?: string;
}

function key(serverId: string, uri: string): string {
  return `${serverId}\n${uri}`;
}

export function splitSubscriptionKey(k: string): { serverId: string; uri: string } {
  const i = k.indexOf('\n');
  return { serverId: k.slice(0, i), uri: k.slice(i + 1) };
}

/**
 * The subscription book-keeping. `C` is whatever identifies a connection (the client): a restart
 * brings a new one, on which everything wanted is subscribed again.
 */
export class SubscriptionSet<C> {
  private readonly explicit = new Set<string>();
  private open = new Set<string>();
  private readonly active = new Map<string, C>();
  private readonly errors = new Map<string, string>();
  private readonly _onDidChange = new Emitter<void>();
  /** Fires when any resource's state changes. */
  readonly onDidChange: Event<void> = this._onDidChange.event;

  static key = key;

  state(serverId: string, uri: string): SubscriptionState | undefined {
    const k = key(serverId, uri);
    const explicit = this.explicit.has(k);
    const open = this.open.has(k);
    const active = this.active.has(k);
    if (!explicit && !open && !active) return undefined;
    const error = this.errors.get(k);
    return { explicit, open, active, ...(error !== undefined ? { error } : {}) };
  }

  isExplicit(serverId: string, uri: string): boolean {
    return this.explicit.has(key(serverId, uri));
  }

  /** The toggle; returns whether anything changed. */
  setExplicit(serverId: string, uri: string, on: boolean): boolean {
    const k = key(serverId, uri);
    if (this.explicit.has(k) === on) return false;
    if (on) this.explicit.add(k);
    else {
      this.explicit.delete(k);
      if (!this.open.has(k)) this.errors.delete(k);
    }
    this._onDidChange.fire();
    return true;
  }

  /** The resources open in editors right now (keys of {@link SubscriptionSet.key}); returns whether that changed. */
  setOpen(keys: ReadonlySet<string>): boolean {
    const changed = keys.size !== this.open.size || [...keys].some((k) => !this.open.has(k));
    if (!changed) return false;
    this.open = new Set(keys);
    this._onDidChange.fire();
    return true;
  }

  /** What should be subscribed: toggled on or open in an editor. */
  wanted(): Set<string> {
    return new Set([...this.explicit, ...this.open]);
  }

  /** The connection a resource is subscribed on, if any. */
  activeOn(k: string): C | undefined {
    return this.active.get(k);
  }

  /** Every subscription the server acknowledged, with its connection. */
  activeEntries(): Array<[string, C]> {
    return [...this.active];
  }

  markActive(k: string, connection: C): void {
    const had = this.active.get(k) === connection && !this.errors.has(k);
    this.active.set(k, connection);
    this.errors.delete(k);
    if (!had) this._onDidChange.fire();
  }

  /** Not subscribed (any more): unsubscribed, the server stopped, or the subscribe failed (`error`). */
  markInactive(k: string, error?: string): void {
    const had = this.active.delete(k);
    const before = this.errors.get(k);
    if (error !== undefined) this.errors.set(k, error);
    else this.errors.delete(k);
    if (had || before !== error) this._onDidChange.fire();
  }

  /** Every key known for any reason (for the details view and tests). */
  all(): Array<{ serverId: string; uri: string } & SubscriptionState> {
    const keys = new Set([...this.explicit, ...this.open, ...this.active.keys()]);
    return [...keys].map((k) => {
      const { serverId, uri } = splitSubscriptionKey(k);
      return { serverId, uri, ...this.state(serverId, uri)! };
    });
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}

/** How a resource row shows its subscription: its `contextValue` drives the inline actions. */
export interface ResourceRowMark {
  /**
   * `resource`: the server cannot subscribe. `resource.subscribable`: Subscribe is offered.
   * `resource.subscribed`: the user subscribed; Unsubscribe is offered. `resource.subscribedByEditor`:
   * an editor keeps it subscribed until it closes; Subscribe keeps it after that.
   */
  readonly contextValue: 'resource' | 'resource.subscribable' | 'resource.subscribed' | 'resource.subscribedByEditor';
  /** Codicon id. */
  readonly icon: 'file' | 'bell' | 'bell-dot';
  /** Put before the URI in the row's description, e.g. "subscribed". */
  readonly badge?: string;
  /** One sentence for the tooltip. */
  readonly note?: string;
}

/** The mark of a resource row of a server that can (or cannot) subscribe. */
export function resourceRowMark(canSubscribe: boolean, state: SubscriptionState | undefined): ResourceRowMark {
  if (!canSubscribe) return { contextValue: 'resource', icon: 'file' };
  if (!state || (!state.explicit && !state.open)) return { contextValue: 'resource.subscribable', icon: 'file', note: 'The server supports subscriptions: Subscribe to hear when it changes.' };
  const contextValue = state.explicit ? 'resource.subscribed' : 'resource.subscribedByEditor';
  if (state.active) {
    return state.explicit
      ? { contextValue, icon: 'bell-dot', badge: 'subscribed', note: 'Subscribed: the server tells MCP Host when it changes.' }
      : { contextValue, icon: 'bell-dot', badge: 'subscribed while open', note: 'Subscribed while an editor shows it; closing the editor unsubscribes.' };
  }
  if (state.error !== undefined) return { contextValue, icon: 'bell', badge: 'subscribe failed', note: `resources/subscribe failed: ${state.error}` };
  return { contextValue, icon: 'bell', badge: 'subscribing…' };
}
