// Whether a server may sample without asking. The user's answer is remembered per server id:
// "allow for this session" in memory only, "always allow" and "never" in a Memento the VS Code
// layer hands in (globalState: server ids carry their config file's path, so an id means the same
// server in every window). Pure: no `vscode` import.

/** The user's standing answer for one server's sampling requests. */
export type SamplingPolicy = 'ask' | 'allowSession' | 'allowAlways' | 'never';

export const SAMPLING_POLICIES: readonly SamplingPolicy[] = ['ask', 'allowSession', 'allowAlways', 'never'];

/** What to do with one request under a policy. */
export type PolicyDecision = 'ask' | 'allow' | 'deny';

export function decide(policy: SamplingPolicy): PolicyDecision {
  switch (policy) {
    case 'ask':
      return 'ask';
    case 'allowSession':
    case 'allowAlways':
      return 'allow';
    case 'never':
      return 'deny';
    default: {
      const never: never = policy;
      throw new Error(`unknown sampling policy ${String(never)}`);
    }
  }
}

/** How a policy reads in the UI and the log. */
export function describePolicy(policy: SamplingPolicy): string {
  switch (policy) {
    case 'ask':
      return 'ask every time';
    case 'allowSession':
      return 'allowed for this session';
    case 'allowAlways':
      return 'always allowed';
    case 'never':
      return 'never allowed';
    default: {
      const never: never = policy;
      return String(never);
    }
  }
}

/** The subset of vscode.Memento the store needs. */
export interface PolicyMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

interface StoredPolicy {
  readonly policy: 'allowAlways' | 'never';
  /** The server's name when it was set, to list it after the server is gone. */
  readonly name: string;
  /** Epoch ms. */
  readonly time: number;
}

const KEY = 'mcpHost.samplingPolicy';

export class SamplingPolicyStore {
  private readonly session = new Map<string, { name: string }>();

  constructor(private readonly memento: PolicyMemento) {}

  private stored(): Record<string, StoredPolicy> {
    const raw = this.memento.get<Record<string, StoredPolicy>>(KEY);
    return raw && typeof raw === 'object' ? { ...raw } : {};
  }

  get(serverId: string): SamplingPolicy {
    const record = this.stored()[serverId];
    if (record && (record.policy === 'allowAlways' || record.policy === 'never')) return record.policy;
    return this.session.has(serverId) ? 'allowSession' : 'ask';
  }

  /** Sets the policy of one server; `ask` forgets what was remembered. */
  async set(serverId: string, name: string, policy: SamplingPolicy, now = Date.now()): Promise<void> {
    const all = this.stored();
    this.session.delete(serverId);
    delete all[serverId];
    if (policy === 'allowSession') this.session.set(serverId, { name });
    else if (policy === 'allowAlways' || policy === 'never') all[serverId] = { policy, name, time: now };
    await this.memento.update(KEY, all);
  }

  /** Every server with a remembered answer (session or stored). */
  entries(): Array<{ serverId: string; name: string; policy: SamplingPolicy }> {
    const out = new Map<string, { serverId: string; name: string; policy: SamplingPolicy }>();
    for (const [serverId, { name }] of this.session) out.set(serverId, { serverId, name, policy: 'allowSession' });
    for (const [serverId, record] of Object.entries(this.stored())) out.set(serverId, { serverId, name: record.name, policy: record.policy });
    return [...out.values()];
  }

  /** Back to "ask every time" for the given servers (all when omitted). */
  async reset(serverIds?: readonly string[]): Promise<void> {
    if (!serverIds) {
      this.session.clear();
      await this.memento.update(KEY, undefined);
      return;
    }
    const all = this.stored();
    for (const id of serverIds) {
      this.session.delete(id);
      delete all[id];
    }
    await this.memento.update(KEY, all);
  }
}
