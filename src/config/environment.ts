// Environment variables and paths as the configuration resolves them and the stdio transport
// spawns with them: case-insensitive names on Windows, PATH entries a folder must not supply.
import * as path from 'node:path';

export type ProcessEnv = Record<string, string | undefined>;

/** Reads a variable, case-insensitively on Windows. */
export function getEnv(env: ProcessEnv, name: string, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform !== 'win32') return env[name];
  const key = Object.keys(env).find((k) => k.toUpperCase() === name.toUpperCase());
  return key === undefined ? undefined : env[key];
}

/** True when `file` is `dir` or inside it (lexically: symbolic links are not followed). */
export function isInside(file: string, dir: string, platform: NodeJS.Platform = process.platform): boolean {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const relative = p.relative(dir, file);
  return relative === '' || (!relative.startsWith('..') && !p.isAbsolute(relative));
}

/**
 * The env's PATH without its relative entries (they follow the process's cwd wherever it goes)
 * and without the directories inside one of `dirs`; and the entries dropped, as written.
 * Undefined when nothing is dropped.
 */
export function pathWithout(env: ProcessEnv, dirs: readonly string[], platform: NodeJS.Platform = process.platform): { value: string; dropped: string[] } | undefined {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const entries = (getEnv(env, 'PATH', platform) ?? '').split(p.delimiter);
  const unsafe = (entry: string) => {
    const dir = platform === 'win32' ? entry.replace(/^"(.*)"$/, '$1') : entry;
    return dir.length > 0 && (!p.isAbsolute(dir) || dirs.some((d) => isInside(dir, d, platform)));
  };
  const dropped = entries.filter(unsafe);
  return dropped.length ? { value: entries.filter((e) => !unsafe(e)).join(p.delimiter), dropped } : undefined;
}
