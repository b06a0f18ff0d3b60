// A TokenStore in one JSON file readable only by the user (0600, in a 0700 directory): the CLI's
// `--token-cache DIR`. Written whole to a temporary file and renamed, so a crash never leaves half.
// The directory may be shared or prepared by someone else, so nothing in it is trusted: a
// directory of another user is refused, one of ours that others can enter is tightened to 0700,
// and the temporary file is created exclusively under a random name (a planted file or symbolic
// link makes the create fail instead of redirecting the tokens). Every write and every refresh
// holds the lock file beside the cache (fileLock.ts), so CLI runs sharing the cache neither lose
// each other's writes nor spend one rotating refresh token twice.
import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { FileLock } from './fileLock';
import { StoredGrant, TokenKey, TokenStore } from './tokenStore';

const FILE_NAME = 'mcp-host-tokens.json';

export class FileTokenStore implements TokenStore {
  readonly file: string;
  /** Held around each write and refresh, by this process and every other sharing the cache. */
  readonly lock: FileLock;
  /** The directory checked (and created or tightened) once, before the first read or write. */
  private checked: Promise<void> | undefined;

  /** `log` hears what was changed on disk (a directory tightened); never a secret. */
  constructor(
    readonly directory: string,
    private readonly log: (text: string) => void = () => {},
  ) {
    this.file = path.join(directory, FILE_NAME);
    this.lock = new FileLock(`${this.file}.lock`, { log });
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

  /** One lock for the whole file: a refresh is short, and writes of other grants must not be lost. */
  async exclusive<T>(_key: TokenKey, work: () => Promise<T>): Promise<T> {
    await (this.checked ??= this.checkDirectory());
    return this.lock.run(work);
  }

  private async update(change: (all: Record<string, StoredGrant>) => void): Promise<void> {
    await (this.checked ??= this.checkDirectory());
    // Read, changed and written under the lock: another run's write in between would be lost.
    await this.lock.run(async () => {
      const all = await this.read();
      change(all);
      const temporary = path.join(this.directory, `.${FILE_NAME}.${randomBytes(12).toString('hex')}.tmp`);
      // O_EXCL: fails on anything already there, a symbolic link included; O_NOFOLLOW where it exists.
      const handle = await fs.open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
      try {
        await handle.writeFile(JSON.stringify(all, null, 2));
        await handle.close();
        await fs.rename(temporary, this.file);
      } catch (error) {
        await handle.close().catch(() => {});
        await fs.unlink(temporary).catch(() => {});
        throw error;
      }
    });
  }

  /** The file's grants; none when it does not exist. A file that is not ours is an error, not overwritten silently. */
  private async read(): Promise<Record<string, StoredGrant>> {
    await (this.checked ??= this.checkDirectory());
    let text: string;
    try {
      const info = await fs.lstat(this.file);
      if (!info.isFile()) throw new Error(`${this.file} is not a regular file (a symbolic link or another kind of file); refused as a token cache`);
      if (!ownedByUs(info)) throw new Error(`${this.file} belongs to another user (uid ${info.uid}); refused as a token cache`);
      text = await fs.readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${this.file} is not a token cache (expected a JSON object)`);
    return value as Record<string, StoredGrant>;
  }

  /** Creates the directory 0700, refuses one of another user, and tightens one of ours that others can enter. */
  private async checkDirectory(): Promise<void> {
    await fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
    const info = await fs.stat(this.directory);
    if (!info.isDirectory()) throw new Error(`--token-cache ${this.directory} is not a directory`);
    if (process.platform === 'win32') return;
    if (!ownedByUs(info)) throw new Error(`--token-cache ${this.directory} belongs to another user (uid ${info.uid}); refused: choose a directory of your own`);
    if ((info.mode & 0o077) !== 0) {
      await fs.chmod(this.directory, 0o700);
      this.log(`the token cache directory ${this.directory} was mode ${(info.mode & 0o777).toString(8).padStart(4, '0')}: tightened to 0700`);
    }
  }
}

function ownedByUs(info: { uid: number }): boolean {
  return process.getuid === undefined || info.uid === process.getuid();
}
