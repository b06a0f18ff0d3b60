// A sandbox that cannot start is an error that says the fix, and the server does not run
// unsandboxed instead: no bwrap on PATH, user namespaces refused (a real bwrap inside a bwrap
// that forbids further namespaces), and a platform without our sandbox.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { DEFAULT_SANDBOX } from '../../src/config/sandboxBlock';
import { StdioTransport } from '../../src/transport/stdio';
import { REPO, fixture } from '../client/support';
import { bwrapWorks } from './bwrapAvailable';


describe('a sandbox that cannot start', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-fail-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const place = { home: dir, workspaceFolders: [dir] };
  /** A transport whose server, if it ever ran, would write `ran` (the probe fixture's write_file cannot run at start, so a shell line does it). */
  const transport = (env: Record<string, string | undefined>, platform?: NodeJS.Platform) =>
    new StdioTransport({ command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(path.join(dir, 'ran'))}, 'x')`], env, cwd: dir, sandbox: { policy: DEFAULT_SANDBOX, place, passEnv: [], ...(platform ? { platform } : {}) } });

  test('no bwrap on PATH: says how to install bubblewrap; the server never runs', async () => {
    const empty = mkdtempSync(path.join(dir, 'bin-'));
    await assert.rejects(transport({ PATH: empty }).start(), (e: Error) => {
      assert.match(e.message, /bubblewrap \(bwrap\) is not installed.*the server was not started.*sudo apt-get install bubblewrap/);
      return true;
    });
    assert.equal(existsSync(path.join(dir, 'ran')), false);
  });

  test('macOS and Windows: "not supported on <platform> yet"; the server never runs', async () => {
    for (const [platform, name] of [['darwin', 'macOS'], ['win32', 'Windows']] as const) {
      await assert.rejects(transport({}, platform).start(), new RegExp(`the sandbox is not supported on ${name} yet.*the server was not started`));
    }
    assert.equal(existsSync(path.join(dir, 'ran')), false);
  });

  test('user namespaces refused: bwrap\'s own complaint and the sysctl fix; the server never runs', { skip: !bwrapWorks && 'needs a working bwrap' }, () => {
    // The host runs inside a bwrap that forbids new user namespaces (--disable-userns), so the
    // sandbox's bwrap fails the way it does on a machine with them switched off.
    const script = `
      const { StdioTransport } = require(${JSON.stringify(path.join(REPO, 'out/src/transport/stdio.js'))});
      const { DEFAULT_SANDBOX } = require(${JSON.stringify(path.join(REPO, 'out/src/config/sandboxBlock.js'))});
      const t = new StdioTransport({ command: process.execPath, args: [${JSON.stringify(fixture('sandboxProbe.mjs'))}], cwd: ${JSON.stringify(dir)},
        sandbox: { policy: DEFAULT_SANDBOX, place: { home: ${JSON.stringify(dir)}, workspaceFolders: [${JSON.stringify(dir)}] }, passEnv: [] } });
      t.start().then(() => { console.log('STARTED'); return t.close(); }, (e) => console.log('REFUSED ' + e.message));`;
    const r = spawnSync('bwrap', ['--unshare-user', '--disable-userns', '--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--bind', dir, dir, '--', process.execPath, '-e', script], { encoding: 'utf8', timeout: 20000 });
    assert.match(r.stdout, /^REFUSED cannot start ".*" in a sandbox: bubblewrap could not create it \(bwrap: .*namespace.*\); the server was not started\. User namespaces look disabled.*sysctl/m, r.stdout + r.stderr);
    assert.doesNotMatch(r.stdout, /STARTED/);
  });
});
