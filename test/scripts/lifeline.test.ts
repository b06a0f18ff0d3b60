// scripts/lifeline.mjs, as `npm run demo` uses it for code-server: a process started through it
// ends when its parent dies, even by SIGKILL (no cleanup of the parent runs), with the processes
// it started in its group and those that left the group but carry the marker.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..', '..');
const LIFELINE = join(ROOT, 'scripts', 'lifeline.mjs');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

test('a process tied to its parent ends, with what it started (in its group and out of it), within seconds of the parent being SIGKILLed', { timeout: 30_000 }, async () => {
  // The parent: starts a "server" through the lifeline the way the demo does; the server starts a
  // child in its group and a detached one (its own session) that carries only the marker; all
  // pids are printed. Then the parent is killed with SIGKILL: no handler of it runs.
  const server = `
    const { spawn } = require('node:child_process');
    const inGroup = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const leftGroup = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore', detached: true });
    console.log(JSON.stringify({ server: process.pid, inGroup: inGroup.pid, leftGroup: leftGroup.pid }));
    setInterval(() => {}, 1000);`;
  const parentScript = `
    import(${JSON.stringify(LIFELINE)}).then(({ startTied }) => {
      const tied = startTied(process.execPath, ['-e', ${JSON.stringify(server)}], { marker: ['LIFELINE_TEST', String(process.pid)], output: 'pipe' });
      tied.stdout.pipe(process.stdout);
      console.log(JSON.stringify({ wrapper: tied.pid }));
    });`;
  const parent = spawn(process.execPath, ['-e', parentScript], { stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  parent.stdout.setEncoding('utf8').on('data', (d: string) => (text += d));
  const pids: Record<string, number> = {};
  const started = await until(() => {
    for (const line of text.split('\n')) if (line.startsWith('{')) Object.assign(pids, JSON.parse(line));
    return ['wrapper', 'server', 'inGroup', 'leftGroup'].every((k) => k in pids);
  }, 15_000);
  const all = Object.values(pids);
  try {
    assert.ok(started, `the parent started everything: ${text}`);
    assert.ok(all.every(alive), 'all running before the parent dies');
    parent.kill('SIGKILL');
    const gone = await until(() => !all.some(alive), 10_000);
    assert.ok(gone, `left running after the parent's SIGKILL: ${JSON.stringify(Object.entries(pids).filter(([, p]) => alive(p)))}`);
  } finally {
    for (const pid of all) if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
});
