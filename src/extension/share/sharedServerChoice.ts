// Which servers the user shares with VS Code Chat ("Share with VS Code Chat"): a per-user choice,
// kept in the workspace's state (ExtensionContext.workspaceState), not in the committed
// .vscode/settings.json where it would change a file the whole team shares. `mcpHost.shareWithChat`,
// the setting earlier versions wrote, is still read until the user first changes the choice here.
// No `vscode`: the store is handed in (a Memento), so unit tests drive it.

/** The part of a Memento this needs. */
export interface ChoiceStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** The workspace-state key of the shared servers' names. */
export const SHARED_WITH_CHAT_KEY = 'mcpHost.sharedWithChat';

function names(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export class SharedServerChoice {
  constructor(
    private readonly store: ChoiceStore,
    /** The value of the old setting `mcpHost.shareWithChat`, if any. */
    private readonly legacySetting: () => unknown,
  ) {}

  /** The names shared now: the stored choice, or the old setting's while nothing is stored. */
  names(): string[] {
    const stored = this.store.get<unknown>(SHARED_WITH_CHAT_KEY);
    return names(stored === undefined ? this.legacySetting() : stored);
  }

  /** True while the choice still comes from the old setting (nothing stored yet). */
  fromLegacySetting(): boolean {
    return this.store.get<unknown>(SHARED_WITH_CHAT_KEY) === undefined && names(this.legacySetting()).length > 0;
  }

  /** Shares `name`, or stops sharing it; resolves with true when it is shared now. */
  async toggle(name: string): Promise<boolean> {
    const current = this.names();
    const sharing = !current.includes(name);
    await this.store.update(SHARED_WITH_CHAT_KEY, sharing ? [...current, name] : current.filter((n) => n !== name));
    return sharing;
  }
}
