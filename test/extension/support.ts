import type { StateMemento } from '../../src/extension/trust/consentStore';

/** An in-memory Memento that, like VS Code's, hands out copies. */
export class MemoryMemento implements StateMemento {
  readonly data = new Map<string, string>();
  get<T>(key: string): T | undefined {
    const v = this.data.get(key);
    return v === undefined ? undefined : (JSON.parse(v) as T);
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.data.delete(key);
    else this.data.set(key, JSON.stringify(value));
  }
}

