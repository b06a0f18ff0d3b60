// `mcp-host … --sandbox` and its policy flags, through the real CLI process (dist/cli.js) on real
// servers: the probe fixture is refused a planted ~/.ssh/id_rsa and a write outside what the flags
// allow, server-everything answers in the sandbox, and a --config entry's own `sandboxEnabled`
// applies on the command line as in the editor. The flags' mistakes are usage errors.
// Linux with a working bwrap only; skipped elsewhere.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseArguments, UsageError } from '../../src/cli/arguments';
import { ensureBuilt, EVERYTHING, runCli, waitForNoLeftovers } from '../cli/cliProcess';
import { fixture, REPO } from '../client/support';
import { bwrapWorks } from './bwrapAvailable';


describe('mcp-host --sandbox flags (parsing)', () => {
  test('the flags become the policy the config block would give; a policy flag without --sandbox, with --url or with --config is a usage error', () => {
    const parsed = parseArguments(['tools', '--sandbox', '--sandbox-workspace', 'write', '--sandbox-allow-read', '~/.npm', '--sandbox-allow-write', 'out', '--sandbox-deny-read', '.env', '--sandbox-allow-env', 'GITHUB_TOKEN', '--sandbox-allow-env', 'LANGUAGE', '--', 'node', 'server.js']);
    assert.equal(parsed.kind, 'run');
    const server = parsed.kind === 'run' ? parsed.options.server : undefined;
    assert.deepEqual(server?.kind === 'stdio' ? server.sandbox : undefined, {
      filesystem: { workspace: 'write', allowRead: ['~/.npm'], allowWrite: ['out'], denyRead: ['.env'], denyWrite: [] },
      network: 'none',
      allowEnv: ['GITHUB_TOKEN', 'LANGUAGE'],
    });
    const none = parseArguments(['tools', '--', 'node', 'server.js']);
    assert.equal(none.kind === 'run' && none.options.server.kind === 'stdio' ? none.options.server.sandbox : 'x', undefined);
    const everything = parseArguments(['tools', '--sandbox', '--sandbox-allow-domain', '*', '--', 'node', 's.js']);
    assert.equal(everything.kind === 'run' && everything.options.server.kind === 'stdio' ? everything.options.server.sandbox?.network : undefined, 'all');

    const refused: [string[], RegExp][] = [
      [['tools', '--sandbox-allow-read', 'x', '--', 'node', 's.js'], /--sandbox-allow-read only applies with --sandbox/],
      [['tools', '--sandbox', '--url', 'http://127.0.0.1:1/mcp'], /does not apply with --url/],
      [['tools', '--sandbox', '--sandbox-allow-read', 'x', '--config', path.join(REPO, 'package.json')], /does not apply with --config/],
      [['tools', '--sandbox', '--sandbox-allow-env', 'NOT A NAME', '--', 'node', 's.js'], /allowEnv\[0\] must be a variable name.*\(--sandbox-allow-env\)/],
      [['tools', '--sandbox', '--sandbox-workspace', 'rw', '--', 'node', 's.js'], /workspace must be "read" or "write".*\(--sandbox-workspace\)/],
    ];
    for (const [argv, message] of refused) assert.throws(() => parseArguments(argv), (e: unknown) => e instanceof UsageError && message.test(e.message), argv.join(' '));
    const withConfig = parseArguments(['tools', '--sandbox', '--config', path.join(REPO, 'package.json')]);
    assert.equal(withConfig.kind === 'run' && withConfig.options.server.kind === 'config' && withConfig.options.server.requireSandbox, true);
  });
});

describe('mcp-host --sandbox on real servers (bubblewrap)', { skip: !bwrapWorks && 'needs Linux with a working bwrap (apt-get install bubblewrap)' }, () => {
  // Outside /tmp (which the sandbox replaces), so hiding $HOME is what hides the key. The servers
  // run in `work` (their working directory, readable in the sandbox: a clone under /tmp or a home
  // folder is hidden, and the working directory is let back in), beside the home, not above it.
  const root = mkdtempSync(path.join(REPO, 'out', 'sandbox-cli-'));
  const home = path.join(root, 'home');
  const key = path.join(home, '.ssh', 'id_rsa');
  const writable = path.join(root, 'writable');
  const other = path.join(root, 'other');
  const work = path.join(root, 'work');
  const probeScript = path.join(work, 'sandboxProbe.mjs');
  const probe = ['node', probeScript];
  // The probe answers on the first `initialize`; the era is pinned so no probe time is spent.
  const call = (tool: string, args: object, flags: string[], server: string[] = ['--', ...probe], cwd = work) => runCli(['call', tool, '--args', JSON.stringify(args), '--protocol-version', 'legacy', ...flags, ...server], { env: { HOME: home }, timeoutMs: 30_000, cwd });

  before(() => {
    ensureBuilt();
    mkdirSync(path.dirname(key), { recursive: true });
    writeFileSync(key, '-----BEGIN OPENSSH PRIVATE KEY-----\nplanted-secret\n');
    mkdirSync(writable);
    mkdirSync(other);
    mkdirSync(work);
    copyFileSync(fixture('sandboxProbe.mjs'), probeScript);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('--sandbox hides the planted key (the refusal as the server reports it, exit 1); without it the same call reads it', async () => {
    const refused = await call('read_file', { path: key }, ['--sandbox']);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stdout, /REFUSED: ENOENT/);
    assert.doesNotMatch(refused.stdout + refused.stderr, /planted-secret/);
    const open = await call('read_file', { path: key }, []);
    assert.equal(open.code, 0, open.stderr);
    assert.match(open.stdout, /planted-secret/);
    assert.deepEqual(await waitForNoLeftovers(), [], 'nothing of the sandboxed tree is left');
  });

  test('--sandbox-allow-write opens one folder; a write beside it is refused read-only', async () => {
    // Run from the clone (the working directory, readable): `other` is then there, read-only.
    const ok = await call('write_file', { path: path.join(writable, 'a.txt') }, ['--sandbox', '--sandbox-allow-write', writable], undefined, REPO);
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.equal(readFileSync(path.join(writable, 'a.txt'), 'utf8'), 'written by sandboxProbe\n');
    const refused = await call('write_file', { path: path.join(other, 'b.txt') }, ['--sandbox', '--sandbox-allow-write', writable], undefined, REPO);
    assert.equal(refused.code, 1);
    assert.match(refused.stdout, /REFUSED: EROFS/);
    assert.equal(existsSync(path.join(other, 'b.txt')), false);
  });

  test('a --config entry with "sandboxEnabled" runs sandboxed on the command line too; --sandbox requires it of an entry without', async () => {
    const config = path.join(work, 'mcp.json');
    writeFileSync(config, JSON.stringify({ servers: { boxed: { command: 'node', args: [probeScript], sandboxEnabled: true }, plain: { command: 'node', args: [probeScript] } } }));
    const boxed = await call('read_file', { path: key }, [], ['--config', config, '--server', 'boxed']);
    assert.equal(boxed.code, 1, boxed.stderr);
    assert.match(boxed.stdout, /REFUSED: ENOENT/);
    const plain = await call('read_file', { path: key }, [], ['--config', config, '--server', 'plain']);
    assert.match(plain.stdout, /planted-secret/);
    const required = await call('read_file', { path: key }, ['--sandbox'], ['--config', config, '--server', 'plain']);
    assert.equal(required.code, 1, required.stderr);
    assert.match(required.stdout, /REFUSED: ENOENT/);
  });

  test('server-everything answers a tool call in the sandbox', async () => {
    const run = await runCli(['call', 'echo', '--args', '{"message":"hello from the sandbox"}', '--sandbox', '--', ...EVERYTHING], { env: { HOME: home }, timeoutMs: 30_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /hello from the sandbox/);
  });
});
