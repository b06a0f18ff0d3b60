// A TokenStore in one JSON file readable only by the user (0600, in a 0700 directory): the CLI's
// `--token-cache DIR`. Written whole to a temporary file and renamed, so a crash never leaves half.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { StoredGrant, TokenKey, TokenStore } from './tokenStore';

const FILE_NAME = 'mcp-host-tokens.json';

export class FileTokenStore implements TokenStore {
  readonly file: string;
  /** Writes one after another, so two sign-ins finishing together both land. */
  private writing: Promise<void> = Promise.resolve();

  constructor(readonly directory: string) {
    this.file = path.join(directory, FILE_NAME);
  }

  async get(key: TokenKey): Promise<StoredGrant | undefined> {
    return (await this.read())[TokenKey.toString(key)];
  }

  set(key: TokenKey, grant: StoredGrant): Promise<void> {
    return this.update((all) => void (all[TokenKey.toString(key)] = grant));
  }

  delete(key: TokenKey): Promise<void> {
    return this.update((all) => void delete all[TokenKey.toString(key)]);
  }

  private update(change: (all: Record<string, StoredGrant>) => void): Promise<void> {
    const next = this.writing.then(async () => {
      const all = await this.read();
      change(all);
      await fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
      const temporary = `${this.file}.${process.pid}.tmp`;
      await fs.writeFile(temporary, JSON.stringify(all, null, 2), { mode: 0o600 });
      await fs.rename(temporary, this.file);
    });
    this.writing = next.catch(() => {});
    return next;
  }

  /** The file's grants; none when it does not exist. A file that is not ours is an error, not overwritten silently. */
  private async read(): Promise<Record<string, StoredGrant>> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${this.file} is not a token cache (expected a JSON object)`);
    return value as Record<string, StoredGrant>;
  }
}
