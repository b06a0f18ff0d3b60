// The bwrap argument list of a policy, read as a list: what is hidden, bound, passed and unshared.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_SANDBOX } from '../../src/config/sandboxBlock';
import { bwrapArgs, SandboxedCommand } from '../../src/sandbox/bwrapArgs';
import { describeSandbox, sandboxPolicyOf } from '../../src/sandbox/policy';

const COMMAND: SandboxedCommand = {
  file: '/usr/bin/node',
  args: ['server.js', '--flag'],
  cwd: '/work/project',
  env: { PATH: '/home/ann/.nvm/bin:/usr/bin', HOME: '/home/ann', GITHUB_TOKEN: 'ghp_x', API_KEY: 'k', LANG: 'C.UTF-8', AWS_SECRET_ACCESS_KEY: 'aws' },
  passEnv: ['API_KEY'],
};
const PLACE = { home: '/home/ann', workspaceFolders: ['/work/project'], exists: (p: string) => ['/home', '/root', '/home/ann', '/home/ann/.cache/x', '/home/ann/.cache/x/secret.txt'].includes(p), isDirectory: (p: string) => !p.endsWith('.txt'), realPath: (p: string) => p };

/** The pairs/triples of an option in order: `--bind a b` → ['a b']. */
function uses(args: string[], option: string, arity: number): string[] {
  const out: string[] = [];
  args.forEach((a, i) => a === option && out.push(args.slice(i + 1, i + 1 + arity).join(' ')));
  return out;
}

describe('bwrapArgs', () => {
  test('the default policy: read-only root, private /tmp, hidden homes, every namespace unshared, the tree dies with bwrap', () => {
    const args = bwrapArgs(DEFAULT_SANDBOX, COMMAND, PLACE);
    assert.deepEqual(args.slice(0, 4), ['--die-with-parent', '--new-session', '--unshare-all', '--unshare-pid']);
    assert.ok(!args.includes('--share-net'), 'no network');
    assert.deepEqual(uses(args, '--ro-bind', 2)[0], '/ /');
    assert.deepEqual(uses(args, '--tmpfs', 1), ['/tmp', '/home', '/root', '/home/ann']);
    // The hidden PATH entry is bound back read-only so the command still resolves; the workspace is visible through / already.
    assert.deepEqual(uses(args, '--ro-bind-try', 2), ['/home/ann/.nvm/bin /home/ann/.nvm/bin']);
    assert.deepEqual(uses(args, '--bind-try', 2), []);
    assert.deepEqual(args.slice(-5), ['/work/project', '--', '/usr/bin/node', 'server.js', '--flag']);
  });

  test('only named variables pass: PATH, locale, the entry\'s own and allowEnv; HOME points at the empty home', () => {
    const args = bwrapArgs({ ...DEFAULT_SANDBOX, allowEnv: ['GITHUB_TOKEN'] }, COMMAND, PLACE);
    assert.ok(args.indexOf('--clearenv') < args.indexOf('--setenv'));
    assert.deepEqual(uses(args, '--setenv', 2), ['PATH /home/ann/.nvm/bin:/usr/bin', 'LANG C.UTF-8', 'API_KEY k', 'GITHUB_TOKEN ghp_x', 'HOME /home/ann', 'TMPDIR /tmp']);
    assert.ok(!args.join(' ').includes('aws'), 'an unnamed secret stays out');
  });

  test('write access, extra paths, denyRead and denyWrite land in mount order; ~ and relative paths expand', () => {
    const policy = { ...DEFAULT_SANDBOX, network: 'all' as const, filesystem: { workspace: 'write' as const, allowRead: ['~/.config/tool'], allowWrite: ['~/.npm', 'build'], denyRead: ['~/.cache/x/secret.txt', '~/.cache/x'], denyWrite: ['.git'] } };
    const args = bwrapArgs(policy, COMMAND, PLACE);
    assert.ok(args.includes('--share-net'));
    assert.deepEqual(uses(args, '--bind-try', 2), ['/work/project /work/project', '/home/ann/.npm /home/ann/.npm', '/work/project/build /work/project/build']);
    assert.deepEqual(uses(args, '--ro-bind-try', 2), ['/home/ann/.config/tool /home/ann/.config/tool', '/home/ann/.nvm/bin /home/ann/.nvm/bin', '/work/project/.git /work/project/.git']);
    // denyWrite after the writable binds; denyRead last (a file gets /dev/null).
    assert.ok(args.lastIndexOf('--bind-try') < args.indexOf('/work/project/.git'));
    assert.deepEqual(uses(args, '--ro-bind', 2).slice(1), ['/dev/null /home/ann/.cache/x/secret.txt']);
    assert.deepEqual(uses(args, '--tmpfs', 1).slice(-1), ['/home/ann/.cache/x']);
  });

  test('the policy of an entry: its own when enabled; the default when a setting requires it for a workspace server; none otherwise', () => {
    const source = { kind: 'vscode-mcp-json' as const, label: 'x', workspaceDefined: true };
    const stdio = (sandbox?: object) => ({ source, config: { type: 'stdio' as const, command: 'node', args: [], env: {}, ...(sandbox ? { sandbox } : {}) } as never });
    assert.equal(sandboxPolicyOf(stdio()), undefined);
    assert.deepEqual(sandboxPolicyOf(stdio(), { requireForWorkspaceServers: true }), DEFAULT_SANDBOX);
    assert.equal(sandboxPolicyOf({ ...stdio(), source: { ...source, workspaceDefined: false } }, { requireForWorkspaceServers: true }), undefined);
    assert.equal(sandboxPolicyOf(stdio({ ...DEFAULT_SANDBOX, enabled: false })), undefined);
    assert.equal(sandboxPolicyOf(stdio({ ...DEFAULT_SANDBOX, network: 'all', enabled: true }))?.network, 'all');
    assert.match(describeSandbox(undefined).join(' '), /No sandbox: full access to your files and network/);
    assert.match(describeSandbox(DEFAULT_SANDBOX).join(' '), /home folder is hidden.*read-only.*Network: none/);
  });
});
