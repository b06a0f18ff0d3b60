// Remembers the user's answer to "start this workspace-defined server?" per server id and
// config fingerprint: a changed config (other command, args, env, inputs) asks again.
// Pure: the VS Code layer hands in `context.workspaceState`.

/** The subset of vscode.Memento this store needs. */
export interface StateMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

export type ConsentDecision = 'allowed' | 'denied';

interface ConsentRecord {
  readonly fingerprint: string;
  readonly decision: ConsentDecision;
  /** Epoch ms of the answer. */
  readonly time: number;
}

const KEY = 'mcpHost.consent';

export class ConsentStore {
  constructor(private readonly memento: StateMemento) {}

  private all(): Record<string, ConsentRecord> {
    return { ...(this.memento.get<Record<string, ConsentRecord>>(KEY) ?? {}) };
  }

  /** The remembered decision for this exact config, or undefined when the user must be asked. */
  get(serverId: string, fingerprint: string): ConsentDecision | undefined {
    const record = this.all()[serverId];
    return record && record.fingerprint === fingerprint ? record.decision : undefined;
  }

  async set(serverId: string, fingerprint: string, decision: ConsentDecision, now = Date.now()): Promise<void> {
    const all = this.all();
    all[serverId] = { fingerprint, decision, time: now };
    await this.memento.update(KEY, all);
  }

  /** Server ids with a remembered decision (any fingerprint). */
  ids(): string[] {
    return Object.keys(this.all());
  }

  /** Forgets the decision for the given servers (all when omitted). */
  async revoke(serverIds?: readonly string[]): Promise<void> {
    if (!serverIds) {
      await this.memento.update(KEY, undefined);
      return;
    }
    const all = this.all();
    for (const id of serverIds) delete all[id];
    await this.memento.update(KEY, all);
  }
}
