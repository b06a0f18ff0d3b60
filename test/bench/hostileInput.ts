// The hostile-input cases of test/usecases/hostileInput.test.ts, timed: the tests check the
// answers, this measures how long the extension host spends on them (each took seconds to
// minutes before the safe engine and the budgets: `^(a+)+$` on 29 characters ≈ 10 s,
// a 10,000-property schema ≈ 71 s, 20,000 "[" as Markdown ≈ 1 s).
import { checkForm, validate } from '../../src/forms/fieldChecks';
import { buildFormModel } from '../../src/forms/model';
import { initialState } from '../../src/forms/state';
import { SchemaValidator } from '../../src/schema/validator';
import { looksLikeMarkdown } from '../../src/content/markdown';
import { reportMiss } from './misses';

/** Median of `runs` timings of `work`, in ms. */
function medianMs(work: () => unknown, runs = 5): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** The hostile-input section of the benchmark report. */
export function hostileInputTimes(): string[] {
  const validator = new SchemaValidator();
  const bombModel = buildFormModel({ type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$', default: `${'a'.repeat(29)}!` } } });
  const budgetPattern = `^(?:${'a?'.repeat(450)})${'a'.repeat(45)}$`;
  const budgetModel = buildFormModel({ type: 'object', properties: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}`, { type: 'string', pattern: budgetPattern }])) });
  const budgetValue = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}`, `${'a'.repeat(9_999)}b`]));
  const wideSchema = { type: 'object', properties: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`p${i}`, { type: 'string' }])) };
  const cases: [string, () => unknown][] = [
    ['form check, `^(a+)+$` default of 29 characters', () => checkForm(bombModel, initialState(bombModel))],
    ['form check, 60 fields of 10,000 characters under a large pattern', () => validate(budgetModel, budgetValue)],
    ['format "email" on a 200,000-character value', () => validator.check({ type: 'string', format: 'email' }, `a@${'.'.repeat(200_000)} `)],
    ['a 10,000-property schema (refused as too large)', () => validator.check(wideSchema, { p0: 'x' })],
    ['uniqueItems over 20,000 objects (refused as too costly)', () => validator.check({ type: 'array', uniqueItems: true }, Array.from({ length: 20_000 }, (_, i) => ({ i })))],
    ['Markdown guess on 20,000 "["', () => looksLikeMarkdown('['.repeat(20_000))],
  ];
  const lines = ['Hostile server input on the extension host (median of 5; the cases of test/usecases/hostileInput.test.ts):', '', '| Case | Time | Goal |', '|---|---|---|'];
  for (const [name, work] of cases) {
    const t = medianMs(work);
    lines.push(`| ${name} | ${t.toFixed(1)} ms | <= 2000 ms (${t <= 2000 ? 'PASS' : 'MISS'}) |`);
    if (t > 2000) reportMiss(`hostile: ${name}: ${t.toFixed(1)} ms (target <= 2000 ms)`);
  }
  lines.push('');
  return lines;
}
