// The era each server spoke, kept across runs: the CLI in a small file in the user's cache
// directory, the editor in its global state. Keys are hashed (a command line may carry a
// secret in its arguments) and entries age out, so a server that changed era is probed again.
import { createHash } from 'node:crypto';
import { EraStore, RememberedEra } from '../client/era';
import { isModernVersion, isSupportedVersion } from '../client/schemas';

/** Where the entries are read from and written to, as one JSON value. */
export interface EraStoreBackend {
  read(): unknown;
  write(value: unknown): void;
}

/** One saved entry: the era, its version, and when it was learned (ms since the epoch). */
interface SavedEra extends RememberedEra {
  readonly at: number;
}

/** Entries older than this are probed again (a server may have gained or lost an era). */
export const ERA_MAX_AGE_MS = 30 * 24 * 3600_000;
/** The most servers kept; the oldest go first. */
export const ERA_MAX_ENTRIES = 200;

/** An EraStore on a backend; it never throws (a cache that fails only costs a probe). */
export class PersistentEraStore implements EraStore {
  constructor(
    private readonly backend: EraStoreBackend,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): RememberedEra | undefined {
    const saved = this.load()[hashKey(key)];
    if (!saved || this.now() - saved.at > ERA_MAX_AGE_MS) return undefined;
    return { era: saved.era, version: saved.version };
  }

  set(key: string, era: RememberedEra): void {
    const entries = this.load();
    entries[hashKey(key)] = { era: era.era, version: era.version, at: this.now() };
    this.save(entries);
  }

  delete(key: string): void {
    const entries = this.load();
    if (!(hashKey(key) in entries)) return;
    delete entries[hashKey(key)];
    this.save(entries);
  }

  private load(): Record<string, SavedEra> {
    let raw: unknown;
    try {
      raw = this.backend.read();
    } catch {
      return {};
    }
    const entries: Record<string, SavedEra> = {};
    if (typeof raw !== 'object' || raw === null) return entries;
    for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
      if (isSavedEra(value)) entries[key] = value;
    }
    return entries;
  }

  private save(entries: Record<string, SavedEra>): void {
    const kept = Object.entries(entries)
      .filter(([, e]) => this.now() - e.at <= ERA_MAX_AGE_MS)
      .sort(([, a], [, b]) => b.at - a.at)
      .slice(0, ERA_MAX_ENTRIES);
    try {
      this.backend.write(Object.fromEntries(kept));
    } catch {
      // Not kept: the next run probes again.
    }
  }
}

function isSavedEra(value: unknown): value is SavedEra {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  if (typeof v.at !== 'number' || typeof v.version !== 'string') return false;
  return (v.era === 'legacy' && isSupportedVersion(v.version)) || (v.era === 'modern' && isModernVersion(v.version));
}

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 32);
}
