// `inspect` fits the terminal's width and keeps what it received (issue 38, items 16 and 17):
// tool rows are not padded to the longest signature, the signature wraps between parameters,
// and a list that fails leaves the server info, era, instructions and earlier lists printed.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fitRows } from '../../src/cli/fittedRows';
import { cliProcessHooks, EVERYTHING, ROOT, runCli } from './cliProcess';

const BROKEN_LIST = ['node', join(ROOT, 'test/fixtures/servers/misbehave.mjs'), '--mode', 'broken-list'];

/** The lines of one section of `inspect` (from its heading to the next blank line). */
function section(stdout: string, heading: RegExp): string[] {
  const lines = stdout.split('\n');
  const start = lines.findIndex((l) => heading.test(l));
  assert.ok(start >= 0, `no section ${heading} in:\n${stdout}`);
  const end = lines.findIndex((l, i) => i > start && l === '');
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

describe('fitRows', () => {
  const rows = [
    ['navigate_page', '(url: string, timeout?: number, waitUntil?: "load" | "domcontentloaded" | "networkidle0", referer?: string)', 'Navigates the selected page to a URL'],
    ['click', '(uid: string, dblClick?: boolean)', 'Clicks on the provided element'],
    ['x', '()', ''],
  ] as const;

  test('every line fits the width; nothing is padded to the longest signature; the signature wraps between parameters', () => {
    const lines = fitRows(rows, '  ', 60);
    for (const line of lines) {
      assert.ok(line.length <= 60, `longer than 60: ${JSON.stringify(line)}`);
      assert.equal(line, line.trimEnd(), `trailing blanks: ${JSON.stringify(line)}`);
    }
    assert.equal(lines[0], '  navigate_page  (url: string, timeout?: number,');
    assert.match(lines[1], /^ {17}waitUntil\?: "load" \| "domcontentloaded" \|$/);
    // A short row stays on one line, its description right after its own signature.
    assert.ok(lines.includes('  click          (uid: string, dblClick?: boolean)'), lines.join('\n'));
    assert.ok(lines.includes('                 Clicks on the provided element'), lines.join('\n'));
    assert.equal(lines.at(-1), '  x              ()');
  });

  test('a wide terminal gets one line a row', () => {
    const lines = fitRows(rows, '  ', 200);
    assert.equal(lines.length, 3);
    assert.equal(lines[1], '  click          (uid: string, dblClick?: boolean)  Clicks on the provided element');
  });
});

cliProcessHooks();

describe('mcp-host inspect: layout and partial failures', { timeout: 120_000 }, () => {
  test('tool and prompt rows fit $COLUMNS when stdout is not a terminal (80 without it)', async () => {
    for (const [columns, width] of [['60', 60], ['', 80]] as const) {
      const r = await runCli(['inspect', '--', ...EVERYTHING], { env: { COLUMNS: columns } });
      assert.equal(r.code, 0, r.stderr);
      const rows = [...section(r.stdout, /^Tools \(\d+\)$/), ...section(r.stdout, /^Prompts \(\d+\)$/)];
      assert.ok(rows.length >= 10, r.stdout);
      for (const line of rows) {
        assert.ok(line.length <= width, `wider than ${width}: ${JSON.stringify(line)}`);
        assert.equal(line, line.trimEnd(), `trailing blanks: ${JSON.stringify(line)}`);
      }
      assert.ok(rows.some((l) => /^ {2}get-sum\s+\(a: number, b: number\)/.test(l)), rows.join('\n'));
    }
  });

  test('a list that fails: server info, era, instructions and the tools are printed, then the error; exit 2', async () => {
    const r = await runCli(['inspect', '--', ...BROKEN_LIST]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stdout, /^Server\s+misbehave-broken-list 1\.0\.0$/m);
    assert.match(r.stdout, /^Era\s+legacy \(initialize\)$/m);
    assert.match(r.stdout, /^Instructions\n {2}Call echo to repeat text\.$/m);
    assert.match(r.stdout, /^Tools \(1\)\n {2}echo {2}\(\) {2}Repeats text$/m);
    assert.match(r.stdout, /^Resources: could not be listed \(the error is below, on stderr\)$/m);
    assert.equal(r.stderr, 'mcp-host: resources/list: server error -32603: the resource index is being rebuilt\n');

    const json = await runCli(['inspect', '--json', '--', ...BROKEN_LIST]);
    assert.equal(json.code, 2, json.stderr);
    const doc = JSON.parse(json.stdout) as { serverInfo: { name: string }; instructions: string; tools: unknown[]; failed: { list: string; error: string } };
    assert.equal(doc.serverInfo.name, 'misbehave-broken-list');
    assert.equal(doc.instructions, 'Call echo to repeat text.');
    assert.equal(doc.tools.length, 1);
    assert.deepEqual(doc.failed, { list: 'resources', error: 'resources/list: server error -32603: the resource index is being rebuilt' });
  });
});
