// A figure that misses its target fails the benchmark run: each miss is said on a line of its own
// as it is found (`MISS: …`), the run ends with a count of them and a non-zero exit code, so a
// script or CI step running `npm run bench` cannot take a miss for a pass.
const misses: string[] = [];

/** Records a missed target: `what` names the figure, what was measured and the target. */
export function reportMiss(what: string): void {
  if (misses.length === 0) process.once('exit', () => process.stdout.write(`\nbench: ${misses.length} figure(s) missed their targets:\n${misses.map((m) => `  MISS ${m}\n`).join('')}`));
  misses.push(what);
  process.stdout.write(`MISS: ${what}\n`);
  process.exitCode = 1;
}
