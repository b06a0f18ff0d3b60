// Asking before a file someone else may have written runs calls that may change things (a
// recording to replay, a test file and the servers it brings): what would run is shown, then the
// user is asked on a terminal; `--yes` runs it unasked; without a terminal and without `--yes`
// nothing runs (exit 2) and the list says why.
import { PlannedCall, describePlannedCall } from '../../usecases/runApproval';

/** How the run may be approved: `--yes`, or a question on the terminal (absent when there is none). */
export interface RunApproval {
  readonly yes: boolean;
  readonly ask?: (question: string) => Promise<boolean>;
}

/** Raised when the user (or the lack of a terminal) did not approve: nothing was run. */
export class RunNotApproved extends Error {
  override readonly name = 'RunNotApproved';
}

/** The lines of what would run: servers to start, calls that may change things, answers given for the user. */
export function describeRun(parts: { readonly servers?: readonly string[]; readonly calls?: readonly PlannedCall[]; readonly answers?: readonly string[] }): string[] {
  const lines: string[] = [];
  if (parts.servers?.length) lines.push('start these servers (the file names them):', ...parts.servers.map((s) => `  ${s}`));
  if (parts.calls?.length) lines.push('call tools that may change things:', ...parts.calls.map((c) => `  ${describePlannedCall(c)}: ${c.reason}`));
  if (parts.answers?.length) lines.push(...parts.answers);
  return lines;
}

/**
 * Shows `lines` (what `what` would do) on stderr and gets the user's yes; throws RunNotApproved
 * when there is none. Nothing to approve (no lines) or `--yes`: goes ahead.
 */
export async function approveRun(what: string, lines: readonly string[], approval: RunApproval, stderr: (text: string) => void): Promise<void> {
  if (lines.length === 0 || approval.yes) return;
  stderr([`mcp-host: ${what} would:`, ...lines.map((l) => `  ${l}`)].join('\n') + '\n');
  if (!approval.ask) throw new RunNotApproved(`not run: ${what} does what is listed above, and there is no terminal to ask on; check it and run again with --yes`);
  if (!(await approval.ask('Run it? [y/N] '))) throw new RunNotApproved(`not run: ${what} was not approved`);
}

/** A yes/no question on the terminal (`y` or `yes` is yes; anything else, or the input closing, is no). */
export function terminalQuestion(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): (question: string) => Promise<boolean> {
  return async (question) => {
    const { createInterface } = await import('node:readline/promises');
    const rl = createInterface({ input, output, terminal: true });
    // Ctrl-C at the question is a no (the terminal's raw mode does not raise SIGINT meanwhile).
    const stop = new AbortController();
    rl.on('SIGINT', () => stop.abort());
    try {
      return /^y(es)?$/i.test((await rl.question(question, { signal: stop.signal })).trim());
    } catch {
      return false;
    } finally {
      rl.close();
    }
  };
}
