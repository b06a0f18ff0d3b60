import { promises as fs } from 'node:fs';
import { parseConfigText } from './parse';
import { ConfigProblem, ConfigSource, LoadedConfig } from './types';

/** A config file read from disk: `exists` is false when there is no such file (not a problem). */
export interface LoadedFile extends LoadedConfig {
  readonly exists: boolean;
  /** True when the file has a syntax error: it defines no servers until fixed. */
  readonly hasSyntaxError: boolean;
}

/**
 * Reads and parses `source.file`. A missing file is empty; an unreadable one is a problem at
 * 1:1. Never throws.
 */
export async function loadConfigFile(source: ConfigSource): Promise<LoadedFile> {
  if (!source.file) throw new Error(`loadConfigFile: the source "${source.label}" has no file`);
  let text: string;
  try {
    text = await fs.readFile(source.file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { servers: [], inputs: [], problems: [], exists: false, hasSyntaxError: false };
    return { servers: [], inputs: [], problems: [unreadable(source, `cannot read ${source.file}: ${(error as Error).message}`)], exists: true, hasSyntaxError: false };
  }
  let loaded: LoadedConfig;
  try {
    loaded = parseConfigText(text.replace(/^\uFEFF/, ''), source);
  } catch (error) {
    // The parser reports faults as problems; this is the guard that keeps the promise above.
    return { servers: [], inputs: [], problems: [unreadable(source, `cannot read ${source.file}: ${(error as Error).message}`)], exists: true, hasSyntaxError: true };
  }
  return { ...loaded, exists: true, hasSyntaxError: loaded.problems.some((p) => p.kind === 'syntax') };
}

/** A problem at 1:1 of the whole file. */
function unreadable(source: ConfigSource, message: string): ConfigProblem {
  return { source, severity: 'error', kind: 'syntax', message, line: 1, column: 1, offset: 0, length: 0, path: '' };
}
