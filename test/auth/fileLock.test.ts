// The lock file between processes (src/auth/fileLock.ts) and the token cache's use of it: a
// nested run goes through, a lock whose owner ended is broken at once, a live owner's lock is
// waited for (and a clear error comes when it stays), a lock older than the stale timeout is
// broken whoever holds it, and two caches on one file (two runs) lose none of each other's writes.
// The lock between real processes is tested with the CLI (test/cli/signInAlive.test.ts).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { FileLock } from '../../src/auth/fileLock';
import { FileTokenStore } from '../../src/auth/fileTokenStore';

describe('FileLock', { skip: process.platform === 'win32' }, () => {
  const work = mkdtempSync(join(tmpdir(), 'mcp-host-lock-'));
  after(() => rmSync(work, { recursive: true, force: true }));
  let n = 0;
  const lockFile = () => join(work, `test-${++n}.lock`);

  /** The pid of a process that has ended (and been reaped). */
  function endedPid(): number {
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    return Number(child.stdout);
  }

  test('one holder at a time in this process; a nested run goes straight through; the file is gone afterwards', async () => {
    const file = lockFile();
    const lock = new FileLock(file);
    const order: string[] = [];
    const hold = (name: string) =>
      lock.run(async () => {
        order.push(`${name} in`);
        assert.ok(existsSync(file));
        // Nested: would wait for itself forever if it took the lock again.
        await lock.run(async () => order.push(`${name} nested`));
        await new Promise((resolve) => setTimeout(resolve, 30));
        order.push(`${name} out`);
      });
    await Promise.all([hold('a'), hold('b')]);
    assert.deepEqual(order, ['a in', 'a nested', 'a out', 'b in', 'b nested', 'b out']);
    assert.equal(existsSync(file), false);
  });

  test('a lock whose owner has ended is broken at once, and said so', async () => {
    const file = lockFile();
    const pid = endedPid();
    writeFileSync(file, JSON.stringify({ pid, host: hostname(), nonce: 'dead' }));
    const said: string[] = [];
    const started = Date.now();
    assert.equal(await new FileLock(file, { log: (text) => said.push(text) }).run(async () => JSON.parse(readFileSync(file, 'utf8')).pid as number), process.pid);
    assert.ok(Date.now() - started < 5000);
    assert.deepEqual(said, [`its owner, process ${pid}, has ended: lock ${file} broken`]);
    assert.equal(existsSync(file), false);
  });

  test('a live owner is waited for; when it stays, a clear error; when it is older than the stale timeout, it is broken', async () => {
    const file = lockFile();
    // The parent of this test process: alive for the whole test.
    writeFileSync(file, JSON.stringify({ pid: process.ppid, host: hostname(), nonce: 'alive' }));
    await assert.rejects(
      new FileLock(file, { waitMs: 300 }).run(async () => assert.fail('ran without the lock')),
      (error: Error) => error.message.startsWith(`${file} stayed locked by process ${process.ppid} for `) && error.message.endsWith('; delete it if no mcp-host is running'),
    );
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).nonce, 'alive', 'left alone');
    const old = new Date(Date.now() - 120_000);
    utimesSync(file, old, old);
    const said: string[] = [];
    assert.equal(await new FileLock(file, { staleMs: 60_000, log: (text) => said.push(text) }).run(async () => 'ran'), 'ran');
    assert.match(said.join('\n'), /^held for 1\d\d s: lock .* broken$/);
  });

  test('two token caches on one directory (two runs) writing at once lose none of each other\'s grants', async () => {
    const dir = join(work, 'cache');
    const a = new FileTokenStore(dir);
    const b = new FileTokenStore(dir);
    const key = (i: number) => ({ resource: `https://mcp.example/${i}`, issuer: 'https://as.example/' });
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).set(key(i), { client: { clientId: `c${i}`, tokenEndpointAuthMethod: 'none', registration: 'dynamic' } })));
    for (let i = 0; i < 20; i++) assert.equal((await a.get(key(i)))?.client.clientId, `c${i}`);
    assert.equal(existsSync(a.lock.file), false);
  });
});
