// The CLI's memory of each server's era across runs: `eras.json` in the user's cache directory
// ($XDG_CACHE_HOME/mcp-host, else ~/.cache/mcp-host; %LOCALAPPDATA%\mcp-host on Windows), so
// only the first run against a server pays for the `server/discover` probe.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { EraStore } from '../client/era';
import { PersistentEraStore } from '../registry/eraStore';

/** The cache file, or undefined when no cache directory can be named. */
export function eraCacheFile(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const base = env.XDG_CACHE_HOME || (process.platform === 'win32' ? env.LOCALAPPDATA : undefined) || safeHome();
  return base ? join(base, ...(env.XDG_CACHE_HOME || process.platform === 'win32' ? [] : ['.cache']), 'mcp-host', 'eras.json') : undefined;
}

/** The store on that file; undefined (this run only) when there is no cache directory. */
export function cliEraStore(file = eraCacheFile()): EraStore | undefined {
  if (!file) return undefined;
  return new PersistentEraStore({
    read: () => JSON.parse(readFileSync(file, 'utf8')) as unknown,
    write: (value) => {
      mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
      // Written whole and renamed: two runs at once never leave half a file.
      const temp = `${file}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify(value), { mode: 0o600 });
      renameSync(temp, file);
    },
  });
}

/** The server's key: its command line (with the working directory: `node server.js` differs per folder), or its origin. */
export function cliEraKey(server: { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[] } | { readonly kind: 'remote'; readonly url: string }, cwd: string): string {
  if (server.kind === 'stdio') return `stdio:${JSON.stringify([cwd, server.command, ...server.args])}`;
  try {
    return `http:${new URL(server.url).origin}`;
  } catch {
    return `http:${server.url}`;
  }
}

function safeHome(): string | undefined {
  try {
    return homedir() || undefined;
  } catch {
    return undefined;
  }
}
