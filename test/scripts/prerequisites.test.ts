// scripts/prerequisites.sh is the one list of the system packages the demo and the tests need:
// README shows its line, the scripts and .ci/run use it, and it stops at once (not root) with the
// exact command for what is missing. The packages' presence is asked of a stand-in dpkg-query on
// the PATH, and `id` answers a non-root user, so the check runs the same on any machine.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';

const ROOT = resolve(__dirname, '..', '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'prerequisites.sh');

describe('scripts/prerequisites.sh', () => {
  const bin = mkdtempSync(join(tmpdir(), 'mcp-host-prereq-'));
  after(() => rmSync(bin, { recursive: true, force: true }));
  const tool = (name: string, body: string) => {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  // dpkg-query -W -f='${Status}' PACKAGE: installed unless PACKAGE is listed in $MISSING.
  tool('dpkg-query', 'for last; do :; done\ncase " $MISSING " in *" $last "*) exit 1 ;; esac\nprintf "install ok installed"');
  tool('id', 'echo 1000');
  const run = (args: string[], missing = '') =>
    spawnSync('bash', [SCRIPT, ...args], { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, MISSING: missing } });

  test("README's prerequisites line is the script's list", () => {
    const line = run(['--print']).stdout.trim();
    assert.match(line, /^sudo apt-get install (\S+ )+chromium bubblewrap$/);
    assert.ok(readFileSync(join(ROOT, 'README.md'), 'utf8').includes(`\n    ${line}\n`), `README.md shows: ${line}`);
  });

  test('not root, packages missing: stops at once with the exact sudo apt-get line for them', () => {
    const r = run(['code-server', 'chromium'], 'libkrb5-dev chromium');
    assert.equal(r.status, 1);
    assert.match(r.stderr, /missing system packages: libkrb5-dev chromium/);
    assert.match(r.stderr, /^ {4}sudo apt-get install libkrb5-dev chromium$/m);
  });

  test('only the groups asked for are checked; nothing missing is silent', () => {
    assert.equal(run(['code-server'], 'chromium').status, 0);
    const r = run(['code-server', 'chromium']);
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', '']);
    assert.equal(run(['browser']).status, 2, 'an unknown group is a mistake');
  });

  test('the install paths check first: the code-server install and the e2e harness call it; .ci/run does no set-up of its own', () => {
    assert.match(readFileSync(join(ROOT, 'scripts', 'install-code-server.sh'), 'utf8'), /prerequisites\.sh" code-server/);
    assert.match(readFileSync(join(ROOT, 'test', 'e2e', 'harness.ts'), 'utf8'), /'prerequisites\.sh'\), 'chromium'/);
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
    assert.doesNotMatch(ci, /install-code-server/, '.ci/run leaves code-server to the README commands');
    const commands = ci.split('\n').filter((l) => /^(bash|npm|node) /.test(l.trim()));
    assert.deepEqual(commands.map((l) => l.trim().split(' ').slice(0, 2).join(' ')), ['node -e', 'bash scripts/prerequisites.sh', 'npm ci', 'npm test']);
  });
});
