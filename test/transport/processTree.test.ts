import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, test } from 'node:test';
import { isPidAlive, ProcessTree } from '../../src/transport/processTree';

const posix = process.platform !== 'win32';

/** Spawns `sh -c script` in its own process group and reads the pids it prints. */
async function spawnTree(script: string, pidCount: number): Promise<{ rootPid: number; pids: number[] }> {
  const child = spawn('sh', ['-c', script], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  for await (const chunk of child.stdout) {
    out += chunk;
    const pids = out.split(/\s+/).filter(Boolean).map(Number);
    if (pids.length >= pidCount) return { rootPid: child.pid!, pids };
  }
  throw new Error(`the tree printed only ${out}`);
}

describe('ProcessTree', { skip: !posix }, () => {
  test('finds descendants, including one that left the group with setsid, and kills them all', async () => {
    // node's detached spawn calls setsid(), like a daemonising grandchild would.
    const setsidChild = `"${process.execPath}" -e "const c=require('child_process').spawn('sleep',['30'],{detached:true,stdio:'ignore'});console.log(c.pid);setInterval(()=>{},1000)"`;
    const { rootPid, pids } = await spawnTree(`sleep 30 & echo $!; ${setsidChild} & wait`, 2);
    const tree = new ProcessTree(rootPid);
    await tree.snapshot(true);
    const known = tree.knownPids;
    for (const pid of pids) assert.ok(known.includes(pid), `${pid} found in ${known}`);
    assert.ok(known.length >= 3, 'sleep, node and the setsid sleep');
    assert.ok(!known.includes(rootPid), 'the root is tracked by its owner, not the tree');

    await tree.signal('SIGKILL', true);
    const deadline = Date.now() + 3000;
    while ((await tree.alive()).length > 0 || (await isPidAlive(rootPid))) {
      assert.ok(Date.now() < deadline, `still alive: ${(await tree.alive()).map((p) => p.pid)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    for (const pid of [rootPid, ...known]) assert.equal(await isPidAlive(pid), false);
  });

  test('the ps fallback (macOS and other POSIX systems) finds the same processes as /proc', { skip: process.platform !== 'linux' }, async () => {
    const { rootPid } = await spawnTree('sleep 30 & echo $!; sleep 30 & echo $!; wait', 2);
    const viaProc = new ProcessTree(rootPid, 'linux');
    const viaPs = new ProcessTree(rootPid, 'darwin');
    try {
      await viaProc.snapshot(true);
      await viaPs.snapshot(true);
      assert.equal(viaProc.knownPids.length, 2);
      assert.deepEqual(viaPs.knownPids.sort(), viaProc.knownPids.sort());
    } finally {
      await viaProc.signal('SIGKILL', true);
    }
  });

  test('isPidAlive is true for this process and false for one that exited', async () => {
    assert.equal(await isPidAlive(process.pid), true);
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((r) => child.once('exit', r));
    assert.equal(await isPidAlive(child.pid!), false);
  });
});
