// Answers `${input:id}`: asks the user once, then keeps the value: passwords in SecretStorage,
// other values in workspace state. Never in settings, never in logs (every value is handed to
// `onDidLearnValue` so the logs can redact it). Pure: the VS Code layer hands in the storage
// and the prompt.
import type { InputDefinition } from '../../config/types';
import type { StateMemento } from '../trust/consentStore';

/** The subset of vscode.SecretStorage this store needs. */
export interface SecretStore {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}

/** Asks the user for an input; undefined when they cancelled. */
export type InputPrompt = (definition: InputDefinition, sourceLabel: string) => Promise<string | undefined>;

/** Thrown when the user dismissed the prompt: the server cannot start. */
export class InputCancelledError extends Error {
  constructor(readonly inputId: string) {
    super(`input "${inputId}" was not provided`);
  }
}

const VALUES_KEY = 'mcpHost.inputs';
/** Keys (never values) of the inputs kept in SecretStorage, so "Clear Stored Inputs" can find them. */
const SECRET_INDEX_KEY = 'mcpHost.secretInputKeys';
const SECRET_PREFIX = 'mcpHost.input:';

export class InputStore {
  private readonly pending = new Map<string, Promise<string>>();

  constructor(
    private readonly secrets: SecretStore,
    private readonly memento: StateMemento,
    private readonly prompt: InputPrompt,
    /** Called with every value read or stored, for redaction. */
    private readonly onDidLearnValue: (value: string) => void = () => {},
  ) {}

  /**
   * The value of `definition` for inputs declared by `scope` (a config file): the stored one, or
   * the user's answer (stored before it is returned). Concurrent calls for one input ask once.
   */
  resolve(scope: string, sourceLabel: string, definition: InputDefinition): Promise<string> {
    const key = `${scope}#${definition.id}`;
    const running = this.pending.get(key);
    if (running) return running;
    const promise = this.lookupOrAsk(key, sourceLabel, definition).finally(() => this.pending.delete(key));
    this.pending.set(key, promise);
    return promise;
  }

  /** Keeps `value` as the answer for `definition` of `scope` (Set Token), replacing a stored one. */
  async remember(scope: string, definition: InputDefinition, value: string): Promise<void> {
    this.onDidLearnValue(value);
    await this.write(`${scope}#${definition.id}`, definition, value);
  }

  private async lookupOrAsk(key: string, sourceLabel: string, definition: InputDefinition): Promise<string> {
    const stored = await this.read(key, definition);
    if (stored !== undefined && (definition.type !== 'pickString' || !definition.options || definition.options.includes(stored))) {
      this.onDidLearnValue(stored);
      return stored;
    }
    const answer = await this.prompt(definition, sourceLabel);
    if (answer === undefined) throw new InputCancelledError(definition.id);
    this.onDidLearnValue(answer);
    await this.write(key, definition, answer);
    return answer;
  }

  private async read(key: string, definition: InputDefinition): Promise<string | undefined> {
    if (definition.password) return (await this.secrets.get(SECRET_PREFIX + key)) ?? undefined;
    return this.memento.get<Record<string, string>>(VALUES_KEY)?.[key];
  }

  private async write(key: string, definition: InputDefinition, value: string): Promise<void> {
    if (definition.password) {
      await this.secrets.store(SECRET_PREFIX + key, value);
      const index = new Set(this.memento.get<string[]>(SECRET_INDEX_KEY) ?? []);
      index.add(key);
      await this.memento.update(SECRET_INDEX_KEY, [...index]);
    } else {
      await this.memento.update(VALUES_KEY, { ...(this.memento.get<Record<string, string>>(VALUES_KEY) ?? {}), [key]: value });
    }
  }

  /** Every stored value (for the redactor at startup). */
  async storedValues(): Promise<string[]> {
    const values = Object.values(this.memento.get<Record<string, string>>(VALUES_KEY) ?? {});
    for (const key of this.memento.get<string[]>(SECRET_INDEX_KEY) ?? []) {
      const secret = await this.secrets.get(SECRET_PREFIX + key);
      if (secret !== undefined) values.push(secret);
    }
    return values;
  }

  /** How many values are stored. */
  count(): number {
    return Object.keys(this.memento.get<Record<string, string>>(VALUES_KEY) ?? {}).length + (this.memento.get<string[]>(SECRET_INDEX_KEY) ?? []).length;
  }

  /** Forgets every stored value; the next start asks again. */
  async clear(): Promise<void> {
    for (const key of this.memento.get<string[]>(SECRET_INDEX_KEY) ?? []) await this.secrets.delete(SECRET_PREFIX + key);
    await this.memento.update(SECRET_INDEX_KEY, undefined);
    await this.memento.update(VALUES_KEY, undefined);
  }
}
