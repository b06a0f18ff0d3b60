// Processes of an end-to-end launch: /proc's view of them, found by the marker in their
// environment, and signals that tolerate a process already gone.
import { readFileSync } from 'node:fs';
import type { ProcessInfo } from './harnessTypes';
import { safeReaddir } from './harnessWaits';

/** The variable each launch's processes carry in their environment, found again by its value. */
export const MARKER_VAR = 'MCP_HOST_E2E_LAUNCH';

/**
 * The fields of a /proc `stat` file (a process's or a thread's) from the third on: [0] the state,
 * [2] the process group, [16] the nice value. The command (the second) may hold spaces and
 * parentheses, so the fields are counted from its last ')'. Throws when the file is gone.
 */
export function procStatFields(path: string): string[] {
  const stat = readFileSync(path, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/**
 * Live processes that carry the launch's marker in their environment, plus any process in the
 * process group `pgid` (Linux /proc; elsewhere only the group is checked, via kill -0).
 */
export function findProcesses(marker: string, pgid?: number): ProcessInfo[] {
  if (process.platform !== 'linux') {
    return pgid && signal(-pgid, 0) ? [{ pid: pgid, cmdline: '(process group)' }] : [];
  }
  const needle = `${MARKER_VAR}=${marker}`;
  const found: ProcessInfo[] = [];
  for (const entry of safeReaddir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    try {
      const fields = procStatFields(`/proc/${pid}/stat`);
      if (fields[0] === 'Z') continue; // a zombie is gone, only not yet reaped
      const inGroup = pgid !== undefined && Number(fields[2]) === pgid;
      const marked = !inGroup && readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(needle);
      if (inGroup || marked) {
        found.push({ pid, cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim() });
      }
    } catch {
      // The process ended while we looked, or is not ours to read.
    }
  }
  return found;
}

/** Every live process whose command line mentions code-server (any launch, any user). */
export function codeServerProcesses(): ProcessInfo[] {
  const found: ProcessInfo[] = [];
  for (const entry of safeReaddir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      if (cmdline.includes('code-server') && Number(entry) !== process.pid) found.push({ pid: Number(entry), cmdline });
    } catch {
      // gone
    }
  }
  return found;
}

export function signal(pid: number, sig: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// MCP Host's protocol log

/** One frame of an MCP Host server channel at Trace. */
