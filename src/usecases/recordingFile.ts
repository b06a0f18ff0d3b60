// Where a recording goes on disk, and how its server is named in it. A recording holds a
// session's data: it is created new, readable by its owner only, and never written through a
// link a workspace (or anyone) placed at the path.
import { closeSync, constants, fchmodSync, openSync, renameSync, unlinkSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import type { ResolvedServer } from '../config';
import { formatCommandLine, maskCredentialArguments, maskUrlCredentials } from '../protocol/redaction';

/**
 * Creates `path` as a new, empty file of mode 0600 and returns its descriptor. The file is made
 * under a fresh name beside it (exclusively, not following links) and renamed over `path`: an
 * existing file keeps neither its content nor its mode, and a symbolic link at `path` is replaced,
 * its target untouched.
 */
export function createRecordingFile(path: string): number {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
  try {
    // The umask can only take bits away; set them exactly all the same.
    fchmodSync(fd, 0o600);
    renameSync(temp, path);
  } catch (error) {
    closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      // already gone
    }
    throw error;
  }
  return fd;
}

/** The server as a recording's header names it: the command line (credential arguments masked) or the URL (credentials masked). */
export function recordedServerLabel(resolved: ResolvedServer): string {
  return resolved.type === 'stdio' ? formatCommandLine(resolved.command, maskCredentialArguments(resolved.args)) : maskUrlCredentials(resolved.url);
}
