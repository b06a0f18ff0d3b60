import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { ROOT, ensureBuilt, expectUsageErrors, killQuietly, waitForNoLeftovers, runCliInProcess } from './cliProcess';

const EVOLVING = join(ROOT, 'test', 'fixtures', 'servers', 'evolving.mjs');
const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const dir = mkdtempSync(join(tmpdir(), 'mcp-host-tests-'));
const vscodeDir = join(dir, '.vscode');

before(() => {
  ensureBuilt();
  mkdirSync(vscodeDir);
  writeFileSync(join(vscodeDir, 'mcp.json'), JSON.stringify({ servers: { evolving: { command: process.execPath, args: [EVOLVING, '--build', '2'] }, everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] }, broken: { command: join(dir, 'no-such-server') } } }));
});
after(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  const left = await waitForNoLeftovers();
  for (const pid of left) killQuietly(pid);
  assert.deepEqual(left, [], 'a server process was left running');
});

const write = (name: string, value: unknown) => {
  const file = join(vscodeDir, name);
  writeFileSync(file, JSON.stringify(value, null, 2));
  return file;
};

describe('mcp-host test', { timeout: 120_000 }, () => {
  test('passing and failing tests over two servers of the mcp.json beside the file; JUnit XML', async () => {
    const file = write('mcp-tests.json', {
      tests: [
        { name: 'shout', server: 'evolving', tool: 'shout', arguments: { message: 'hey' }, expect: { textContains: 'HEY' } },
        { name: 'sum', server: 'everything', tool: 'get-sum', arguments: { a: 2, b: 3 }, expect: { textContains: 'is 5' } },
        { name: 'wrong sum', server: 'everything', tool: 'get-sum', arguments: { a: 2, b: 2 }, expect: { textContains: 'is 5' } },
        { name: 'greeting', server: 'evolving', prompt: 'greet', arguments: { name: 'Ada' }, expect: { textContains: 'Hello, Ada' } },
      ],
    });
    const junit = join(dir, 'report.xml');
    // The tools do not say they only read: a hand call would ask, so the run needs --yes.
    const r = await runCliInProcess(['test', file, '--junit', junit, '--yes']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.match(lines.find((l) => l.includes('› shout'))!, /^PASS evolving › shout \(\d+ ms\)$/);
    assert.match(lines.find((l) => l.includes('› greeting'))!, /^PASS evolving › greeting/);
    assert.match(lines.find((l) => l.includes('› sum'))!, /^PASS everything › sum/);
    const failed = lines.findIndex((l) => l.includes('› wrong sum'));
    assert.match(lines[failed], /^FAIL everything › wrong sum/);
    assert.equal(lines[failed + 1], `  the answer's text does not contain "is 5"`);
    assert.equal(lines.at(-1), '4 tests: 3 passed, 1 failed');
    const xml = readFileSync(junit, 'utf8');
    assert.match(xml, /<testsuites name="mcp-host" tests="4" failures="1" errors="0"/);
    assert.match(xml, /<testcase classname="everything" name="wrong sum"[^>]*>\n\s*<failure type="textContains"/);
  });

  test('all passing: exit 0; servers given inline in the test file', async () => {
    const file = join(dir, 'inline-tests.json');
    writeFileSync(file, JSON.stringify({ servers: { dev: { command: process.execPath, args: [EVOLVING, '--build', '1'] } }, tests: [{ name: 'echo', server: 'dev', tool: 'echo', arguments: { message: 'hi' }, expect: { isError: false, textContains: 'hi' } }] }));
    const r = await runCliInProcess(['test', file, '--yes']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^1 test: 1 passed, 0 failed$/m);
  });

  test('a server that cannot start: its tests could not run, exit 2', async () => {
    const file = write('broken-tests.json', { tests: [{ name: 'nothing', server: 'broken', tool: 'x' }] });
    const r = await runCliInProcess(['test', file, '--config', join(vscodeDir, 'mcp.json')]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /^mcp-host: broken: /m);
    assert.match(r.stdout, /^ERROR broken › nothing/m);
    assert.match(r.stdout, /1 could not run$/m);
  });

  test('mistakes are usage errors', async () => {
    await expectUsageErrors([
      [['test'], /test needs a test file/],
      [['test', join(dir, 'missing.json')], /cannot read .*missing\.json/],
      [['test', write('bad-tests.json', { tests: [{ name: 'a' }] })], /needs a "server"/],
      [['tools', '--junit', 'x.xml', '--', 'node', 'x.js'], /--junit only applies to test/],
    ], runCliInProcess);
  });
});
