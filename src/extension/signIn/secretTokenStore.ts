// The editor's TokenStore: sign-in results (tokens and the registered client) in VS Code's
// SecretStorage, one secret per resource and issuer, so a grant is never offered to another
// authorization server. An index of the keys (no secret in it) lets Sign Out find a server's
// grants without asking the network which issuer it uses. Every window of the editor reads the
// same SecretStorage, so refreshes take one lock file in the extension's global storage: two
// windows never spend one rotating refresh token twice. The CLI never shares these grants (its
// sign-ins are its own, in its own cache), so it needs no part in this lock.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type * as vscode from 'vscode';
import { FileLock } from '../../auth/fileLock';
import { RefreshQueue, StoredGrant, TokenKey, TokenStore } from '../../auth/tokenStore';

const PREFIX = 'mcpHost.oauth:';
const INDEX = 'mcpHost.oauth.index';

export class SecretTokenStore implements TokenStore {
  /** Index updates one after another, so two sign-ins finishing together both land. */
  private indexing: Promise<void> = Promise.resolve();

  private readonly refreshLock: FileLock | RefreshQueue;

  /**
   * `noteSecret` hears every token and client secret read or written, for the log redactor;
   * `lockDirectory` (the extension's global storage) holds the refresh lock the windows share;
   * without it refreshes are one at a time in this window only.
   */
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly noteSecret: (...values: string[]) => void = () => {},
    private readonly lockDirectory?: string,
  ) {
    this.refreshLock = lockDirectory ? new FileLock(path.join(lockDirectory, 'oauth-refresh.lock')) : new RefreshQueue();
  }

  async get(key: TokenKey): Promise<StoredGrant | undefined> {
    const text = await this.secrets.get(PREFIX + TokenKey.toString(key));
    if (text === undefined) return undefined;
    try {
      const grant = JSON.parse(text) as StoredGrant;
      this.note(grant);
      return grant;
    } catch {
      // Not ours (or damaged): as if absent; the next sign-in overwrites it.
      return undefined;
    }
  }

  async set(key: TokenKey, grant: StoredGrant): Promise<void> {
    this.note(grant);
    await this.secrets.store(PREFIX + TokenKey.toString(key), JSON.stringify(grant));
    await this.updateIndex((keys) => keys.add(TokenKey.toString(key)));
  }

  async delete(key: TokenKey): Promise<void> {
    await this.secrets.delete(PREFIX + TokenKey.toString(key));
    await this.updateIndex((keys) => keys.delete(TokenKey.toString(key)));
  }

  async exclusive<T>(_key: TokenKey, work: () => Promise<T>): Promise<T> {
    if (this.lockDirectory) await fs.mkdir(this.lockDirectory, { recursive: true });
    return this.refreshLock.run(work);
  }

  /** Every stored key whose resource is `matches`: Sign Out of a server that cannot be reached. */
  async keys(matches: (resource: string) => boolean = () => true): Promise<TokenKey[]> {
    return (await this.readIndex()).map(parseKey).filter((k): k is TokenKey => k !== undefined && matches(k.resource));
  }

  private note(grant: StoredGrant): void {
    this.noteSecret(...StoredGrant.secrets(grant));
  }

  private async readIndex(): Promise<string[]> {
    try {
      const value: unknown = JSON.parse((await this.secrets.get(INDEX)) ?? '[]');
      return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
    } catch {
      return [];
    }
  }

  private updateIndex(change: (keys: Set<string>) => void): Promise<void> {
    const next = this.indexing.then(async () => {
      const keys = new Set(await this.readIndex());
      change(keys);
      if (keys.size) await this.secrets.store(INDEX, JSON.stringify([...keys]));
      else await this.secrets.delete(INDEX);
    });
    this.indexing = next.catch(() => {});
    return next;
  }
}

function parseKey(text: string): TokenKey | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'string') return { resource: value[0], issuer: value[1] };
  } catch {
    // skipped below
  }
  return undefined;
}
