// The stop of a stdio server, as a sequence: end stdin and wait the close grace; SIGTERM the
// whole process tree and wait the term grace; SIGKILL it and wait for it to go. A forced stop
// (a second close()) skips the remaining grace periods. Which processes form "the tree" is
// ProcessTree's job; this module decides when each signal goes.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { ProcessTree } from './processTree';

/** How long to wait for the tree to disappear after SIGKILL, which cannot be ignored but is not instant. */
const KILL_WAIT_MS = 2000;
/** How often to check whether the processes of the tree are gone. */
const POLL_MS = 25;

/** The running process and what shutdown needs to know about it. */
export interface ServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly tree: ProcessTree;
  /** Resolves when the process has exited. */
  readonly exit: Promise<void>;
  /** Resolves once onClose has fired. */
  readonly settled: Promise<void>;
  exited: boolean;
}

export interface ShutdownOptions {
  /** How long to wait for the server to exit after its stdin is closed. */
  readonly closeGraceMs: number;
  /** How long to wait after SIGTERM before SIGKILL. */
  readonly termGraceMs: number;
  /** Once aborted, the close grace is skipped (see StdioTransportOptions.interrupted). */
  readonly interrupted?: AbortSignal;
  /** Writes a lifecycle log line. */
  readonly log: (text: string) => void;
}

/** One stdio server's stop: the grace periods, the signals, and the force that skips the waits. */
export class ProcessShutdown {
  private forced = false;
  private wakeForce: (() => void) | undefined;

  constructor(private readonly options: ShutdownOptions) {}

  /** Skips the remaining grace periods of a shutdown in progress. */
  force(): void {
    if (this.forced) return;
    this.forced = true;
    this.options.log('close requested again: skipping the grace periods');
    this.wakeForce?.();
  }

  /**
   * Stops `server`'s tree (its stdin is ended here unless it already exited) and resolves once it
   * is gone or was killed, and, for a process that exited, once its close was reported.
   */
  async stop(server: ServerProcess): Promise<void> {
    const { child, tree } = server;
    const { closeGraceMs, termGraceMs, log } = this.options;
    // Before anything can die: the children are only reachable from their parents.
    if (!server.exited) await tree.snapshot(true);

    const endedStdin = !server.exited;
    if (endedStdin) {
      log('closing stdin');
      child.stdin.end();
    }
    const interrupted = this.options.interrupted?.aborted === true;
    if (await this.waitForTree(server, interrupted ? 0 : closeGraceMs, true)) return finish(server);

    if (!this.forced) {
      await tree.snapshot(!server.exited);
      log(`${describeTree(server)} still running ${interrupted ? 'when interrupted' : `${closeGraceMs} ms`} after ${endedStdin ? 'stdin closed' : 'the server exited'}: sending SIGTERM`);
      await tree.signal('SIGTERM', !server.exited);
      if (await this.waitForTree(server, termGraceMs, true)) return finish(server);
    }

    await tree.snapshot(!server.exited);
    log(`${describeTree(server)} still running${this.forced ? ' (close forced)' : ` ${termGraceMs} ms after SIGTERM`}: sending SIGKILL`);
    await tree.signal('SIGKILL', !server.exited);
    if (!(await this.waitForTree(server, KILL_WAIT_MS, false))) {
      log(`${describeTree(server)} still running ${KILL_WAIT_MS} ms after SIGKILL; giving up`);
    }
    return finish(server);
  }

  /**
   * Waits until the process has exited and no known process of its tree is alive. Returns
   * false when `ms` elapse first, or at once when a forced close skips the wait.
   */
  private async waitForTree(server: ServerProcess, ms: number, skippable: boolean): Promise<boolean> {
    const deadline = Date.now() + ms;
    let snapshotAfterExit = false;
    for (;;) {
      if (server.exited) {
        // Members of the group can still be found after the exit, even though their parent is gone.
        if (!snapshotAfterExit) {
          await server.tree.snapshot(false);
          snapshotAfterExit = true;
        }
        if ((await server.tree.alive()).length === 0) return true;
      }
      const left = deadline - Date.now();
      if (left <= 0 || (skippable && this.forced)) return false;
      // Until the exit there is nothing to poll for; afterwards the leftovers are polled. Timers
      // are unref'd while the child's handle keeps the loop alive anyway; after the exit nothing
      // else may, and an unref'd poll would let the host exit with close() unresolved and the
      // leftovers never killed, so those polls (bounded by the grace periods) are ref'd.
      const wakeups: Promise<void>[] = [server.exited ? delay(Math.min(left, POLL_MS), true) : delay(left)];
      if (!server.exited) wakeups.push(server.exit);
      if (skippable) wakeups.push(new Promise<void>((resolve) => (this.wakeForce = resolve)));
      await Promise.race(wakeups);
      this.wakeForce = undefined;
    }
  }
}

async function finish(server: ServerProcess): Promise<void> {
  // onClose fires shortly after the exit, once the output is read; close() resolves after it.
  if (server.exited) await server.settled;
}

function describeTree(server: ServerProcess): string {
  const pids = [...(server.exited ? [] : [server.tree.rootPid]), ...server.tree.knownPids];
  return pids.length === 1 ? `process ${pids[0]}` : `processes ${pids.join(', ')}`;
}

/** A timer that, unless `keepAlive`, does not keep the host process alive. */
export function delay(ms: number, keepAlive = false): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    if (!keepAlive) timer.unref();
  });
}
