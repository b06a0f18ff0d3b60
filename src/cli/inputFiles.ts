// Files a CLI command reads (snapshots, recordings, test files): a missing or malformed one is a
// usage error that names it, read and parsed in one place.
import { readFileSync } from 'node:fs';
import { errorMessage } from '../protocol/errors';
import { UsageError } from './arguments';

/** Reads `path` and parses it; either failure is a UsageError naming the file (the parser's message names the fault). */
export function readInputFile<T>(path: string, parse: (text: string) => T): T {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${errorMessage(error)}`);
  }
  try {
    return parse(text);
  } catch (error) {
    throw new UsageError(errorMessage(error));
  }
}
