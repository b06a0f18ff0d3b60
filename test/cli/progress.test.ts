// The progress line on a terminal, with runCli in-process so stderr can be declared a terminal.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../../src/cli/run';
import { StatusLine } from '../../src/cli/statusLine';

const EVERYTHING = ['node', join(__dirname, '..', '..', '..', 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'];

test('on a terminal, call shows the server\'s progress on one redrawn stderr line, cleared before the result', { timeout: 30_000 }, async () => {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['call', 'trigger-long-running-operation', '--args', '{"duration":0.6,"steps":3}', '--', ...EVERYTHING], {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    stderrColumns: 80,
  });
  assert.equal(code, 0, stderr);
  assert.match(stdout, /Long running operation completed/);
  assert.equal(stderr, '\r\x1b[Kprogress 1/3 (33%)\r\x1b[Kprogress 2/3 (67%)\r\x1b[Kprogress 3/3 (100%)\r\x1b[K');
});

test('status line: lines printed while it shows go above it; it is cut to the terminal width', () => {
  let out = '';
  const line = new StatusLine((t) => (out += t), (t) => (out += t), 20);
  line.printLine('before');
  line.show('progress 1/2 (50%) copying a very long file name');
  line.printLine('[server info] hello');
  line.clear();
  assert.equal(out, 'before\n\r\x1b[Kprogress 1/2 (50%)…\r\x1b[K[server info] hello\nprogress 1/2 (50%)…\r\x1b[K');
  let piped = '';
  const none = new StatusLine((t) => (piped += t), (t) => (piped += t), undefined);
  none.show('progress 1/2');
  none.printLine('[server info] hello');
  none.clear();
  assert.equal(piped, '[server info] hello\n');
});
