// Retries that report themselves. A retry in an end-to-end test can hide a symptom (a lost click
// on our own control, a focus stolen by a view): every retry the harness takes, and every retry a
// suite's own loop takes through `retrying()`, prints one line of the test's output,
//   retry: <what> — <why>
// as it happens (a `# retry:` diagnostic in the TAP report), and scripts/test.mjs totals them in
// its closing output ("retries: N (…)"), so a run that passed by retrying says so.

/** The line prefix scripts/test.mjs counts; one definition. */
export const RETRY_PREFIX = 'retry: ';

/** Records one retry: `what` names the action (e.g. "runCommand: Enter fallback"), `why` the reason. */
export function reportRetry(what: string, why: unknown): void {
  const reason = why instanceof Error ? why.message : String(why);
  // One line: the report is read line by line.
  process.stdout.write(`${RETRY_PREFIX}${what} — ${reason.split('\n')[0].slice(0, 300)}\n`);
}

/**
 * Runs `attempt` up to `attempts` times; each failure but the last is reported (`reportRetry`)
 * before `beforeRetry` (e.g. Escape to close a pick left open) and the next try. `retryable`
 * decides which failures may be tried again (default all); any other is thrown at once.
 */
export async function retrying<T>(
  what: string,
  attempts: number,
  attempt: (n: number) => Promise<T>,
  options: { beforeRetry?: () => Promise<unknown>; retryable?: (error: unknown) => boolean | Promise<boolean> } = {},
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (n >= attempts || !(await (options.retryable?.(error) ?? true))) throw error;
      reportRetry(what, error);
      await options.beforeRetry?.();
    }
  }
}
