// A lock between processes: a file created exclusively (O_EXCL) beside what it guards, holding
// its owner's pid, host and a nonce. The CLI's token cache takes it around every refresh and
// every write, so two runs never spend one rotating refresh token twice and never lose each
// other's writes. A lock whose owner died (its pid is gone on this host) or that is older than
// `staleMs` is broken; the lock is removed when the process exits normally. Inside `run`, a
// nested `run` of the same lock goes straight through (AsyncLocalStorage), so a refresh can
// store its result without waiting for itself.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { constants, promises as fs, readFileSync, unlinkSync } from 'node:fs';
import { hostname } from 'node:os';

export interface FileLockOptions {
  /** A lock older than this is broken whoever holds it. Default 60 s: twice the token request timeout. */
  readonly staleMs?: number;
  /** How long `run` waits for another holder before giving up. Default 90 s. */
  readonly waitMs?: number;
  /** Hears when a stale lock was broken; never a secret. */
  readonly log?: (text: string) => void;
}

/** What the lock file holds. */
interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly nonce: string;
}

const POLL_MS = 40;

export class FileLock {
  /** Callers of this process one after another: the file guards against other processes only. */
  private queue: Promise<void> = Promise.resolve();
  private readonly inside = new AsyncLocalStorage<FileLock>();
  private readonly staleMs: number;
  private readonly waitMs: number;
  private readonly log: (text: string) => void;

  constructor(
    readonly file: string,
    options: FileLockOptions = {},
  ) {
    this.staleMs = options.staleMs ?? 60_000;
    this.waitMs = options.waitMs ?? 90_000;
    this.log = options.log ?? (() => {});
  }

  /** Runs `work` holding the lock; a `run` nested in `work` does not wait for it again. */
  run<T>(work: () => Promise<T>): Promise<T> {
    if (this.inside.getStore() === this) return work();
    const result = this.queue.then(async () => {
      const owner = await this.acquire();
      try {
        return await this.inside.run(this, work);
      } finally {
        await this.release(owner);
      }
    });
    this.queue = result.then(
      () => {},
      () => {},
    );
    return result;
  }

  private async acquire(): Promise<LockOwner> {
    const owner: LockOwner = { pid: process.pid, host: hostname(), nonce: randomBytes(12).toString('hex') };
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      try {
        const handle = await fs.open(this.file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
        try {
          await handle.writeFile(JSON.stringify(owner));
        } finally {
          await handle.close();
        }
        process.on('exit', this.releaseAtExit);
        return owner;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const held = await this.inspect();
      if (held?.stale) {
        this.log(`${held.why}: lock ${this.file} broken`);
        await this.breakStale(held.ino, held.mtimeMs);
        continue;
      }
      if (Date.now() > deadline) throw new Error(`${this.file} stayed locked${held?.owner ? ` by process ${held.owner.pid}` : ''} for ${Math.round(this.waitMs / 1000)} s; delete it if no mcp-host is running`);
      // A little jitter so waiters do not retry in step.
      await new Promise((resolve) => setTimeout(resolve, POLL_MS + Math.floor(Math.random() * POLL_MS)));
    }
  }

  /** Who holds the lock and whether it is stale; undefined when it vanished meanwhile. */
  private async inspect(): Promise<{ owner?: LockOwner; stale: boolean; why: string; ino: number; mtimeMs: number } | undefined> {
    let info: { ino: number; mtimeMs: number };
    let text: string;
    try {
      info = await fs.lstat(this.file);
      text = await fs.readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const owner = parseOwner(text);
    const age = Date.now() - info.mtimeMs;
    if (age > this.staleMs) return { ...(owner ? { owner } : {}), stale: true, why: `held for ${Math.round(age / 1000)} s`, ino: info.ino, mtimeMs: info.mtimeMs };
    // Half written (its owner is between create and write): judged by age only.
    if (owner && owner.host === hostname() && !processAlive(owner.pid)) return { owner, stale: true, why: `its owner, process ${owner.pid}, has ended`, ino: info.ino, mtimeMs: info.mtimeMs };
    return { ...(owner ? { owner } : {}), stale: false, why: '', ino: info.ino, mtimeMs: info.mtimeMs };
  }

  /**
   * Removes the stale lock judged, and only that one: it is first renamed aside (one waiter wins
   * the rename), then compared with what was judged; a fresh lock taken by mistake goes back.
   */
  private async breakStale(ino: number, mtimeMs: number): Promise<void> {
    const aside = `${this.file}.${randomBytes(6).toString('hex')}.broken`;
    try {
      await fs.rename(this.file, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const moved = await fs.lstat(aside);
    if (moved.ino !== ino || moved.mtimeMs !== mtimeMs) await fs.link(aside, this.file).catch(() => {});
    await fs.unlink(aside).catch(() => {});
  }

  private async release(owner: LockOwner): Promise<void> {
    process.off('exit', this.releaseAtExit);
    // Only our own: a lock broken as stale meanwhile may be someone else's now.
    const text = await fs.readFile(this.file, 'utf8').catch(() => undefined);
    if (text !== undefined && parseOwner(text)?.nonce === owner.nonce) await fs.unlink(this.file).catch(() => {});
  }

  /** The process exits while holding the lock (an interrupted run): the lock goes with it. */
  private readonly releaseAtExit = (): void => {
    try {
      const owner = parseOwner(readFileSync(this.file, 'utf8'));
      if (owner?.pid === process.pid && owner.host === hostname()) unlinkSync(this.file);
    } catch {
      // already gone
    }
  };
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    return typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.nonce === 'string' ? (value as LockOwner) : undefined;
  } catch {
    return undefined;
  }
}

/** True while `pid` runs on this host; a zombie (ended, not yet reaped) has ended. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, it is another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z';
  } catch {
    return true;
  }
}
