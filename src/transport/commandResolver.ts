import { constants as fsConstants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { McpLocalError } from '../protocol/errors';
import { ProcessEnv, getEnv } from '../config/environment';

export { getEnv, type ProcessEnv };

/** An environment for a child process; an `undefined` value leaves the variable unset. */

export interface ResolveCommandOptions {
  /** The child's full environment (its PATH is searched, not ours). */
  readonly env: ProcessEnv;
  /** Absolute working directory of the child; relative paths resolve against it. */
  readonly cwd: string;
  readonly platform?: NodeJS.Platform;
}

/**
 * Lays `extra` over `base`. On Windows variable names are case-insensitive, so `PATH` in
 * `extra` replaces `Path` in `base` instead of producing two entries.
 */
export function mergeEnv(base: ProcessEnv, extra: ProcessEnv | undefined, platform: NodeJS.Platform = process.platform): ProcessEnv {
  const merged: ProcessEnv = { ...base };
  if (!extra) return merged;
  for (const [key, value] of Object.entries(extra)) {
    if (platform === 'win32') {
      for (const existing of Object.keys(merged)) {
        if (existing !== key && existing.toUpperCase() === key.toUpperCase()) delete merged[existing];
      }
    }
    merged[key] = value;
  }
  return merged;
}

/** The directories of the env's PATH, relative entries resolved against `cwd`, empty entries skipped. */
export function searchPath(env: ProcessEnv, cwd: string, platform: NodeJS.Platform = process.platform): string[] {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const value = getEnv(env, 'PATH', platform) ?? '';
  return value
    .split(p.delimiter)
    .map((dir) => (platform === 'win32' ? dir.replace(/^"(.*)"$/, '$1') : dir))
    .filter((dir) => dir.length > 0)
    .map((dir) => p.resolve(cwd, dir));
}

/**
 * Finds the executable a command names, the way a shell would, before anything is spawned:
 * a command with a path separator resolves against `cwd`; a bare name is searched on the
 * env's PATH (with PATHEXT on Windows). Rejects with `McpLocalError('spawn')` naming the
 * command and every directory searched, which is far clearer than spawn's bare ENOENT.
 */
export async function resolveCommand(command: string, options: ResolveCommandOptions): Promise<string> {
  const platform = options.platform ?? process.platform;
  const p = platform === 'win32' ? path.win32 : path.posix;
  if (command.trim().length === 0) throw new McpLocalError('spawn', 'cannot start a server: the command is empty', { command });

  const extensions = platform === 'win32' ? windowsExtensions(command, options.env) : [''];
  const hasSeparator = command.includes('/') || (platform === 'win32' && command.includes('\\'));
  if (hasSeparator || p.isAbsolute(command)) {
    const full = p.resolve(options.cwd, command);
    for (const ext of extensions) {
      if (await isExecutable(full + ext, platform)) return full + ext;
    }
    const why = (await exists(full)) ? 'is not an executable file' : 'does not exist';
    throw new McpLocalError('spawn', `cannot start "${command}": ${full} ${why}`, { command, path: full });
  }

  const dirs = searchPath(options.env, options.cwd, platform);
  for (const dir of dirs) {
    for (const ext of extensions) {
      const candidate = p.join(dir, command + ext);
      if (await isExecutable(candidate, platform)) return candidate;
    }
  }
  const searched = dirs.length > 0 ? dirs.join(p.delimiter) : '(PATH is empty)';
  throw new McpLocalError('spawn', `cannot start "${command}": command not found on PATH (searched ${searched})`, { command, searched: dirs });
}

/** '' first when the command already has an extension, then each PATHEXT entry. */
function windowsExtensions(command: string, env: ProcessEnv): string[] {
  const pathExt = (getEnv(env, 'PATHEXT', 'win32') ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean);
  const hasExt = pathExt.some((ext) => command.toUpperCase().endsWith(ext.toUpperCase()));
  return hasExt ? ['', ...pathExt] : pathExt;
}

async function isExecutable(file: string, platform: NodeJS.Platform): Promise<boolean> {
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) return false;
    if (platform !== 'win32') await fs.access(file, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.stat(file);
    return true;
  } catch {
    return false;
  }
}
