// `sandboxEnabled` and the `sandbox` block read from mcp.json: VS Code's shape, our keys, clear errors.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseConfigText } from '../../src/config/parse';
import type { ConfigSource, StdioServerConfig } from '../../src/config/types';

const SOURCE: ConfigSource = { kind: 'vscode-mcp-json', label: '.vscode/mcp.json', file: '/w/.vscode/mcp.json', workspaceDefined: true };
const parse = (doc: object) => parseConfigText(JSON.stringify(doc, null, 2), SOURCE);

describe('sandbox block', () => {
  test('VS Code\'s shape and ours are read into one policy', () => {
    const loaded = parse({
      servers: {
        fs: {
          command: 'npx',
          args: ['-y', 'pkg'],
          sandboxEnabled: true,
          sandbox: { filesystem: { workspace: 'write', allowWrite: ['~/.npm'], allowRead: ['~/.config/x'], denyRead: ['~/.ssh'], denyWrite: ['.git'] }, network: { allowedDomains: ['*'] }, allowEnv: ['GITHUB_TOKEN'] },
        },
      },
    });
    assert.deepEqual(loaded.problems, []);
    assert.deepEqual((loaded.servers[0].config as StdioServerConfig).sandbox, {
      enabled: true,
      filesystem: { workspace: 'write', allowRead: ['~/.config/x'], allowWrite: ['~/.npm'], denyRead: ['~/.ssh'], denyWrite: ['.git'] },
      network: 'all',
      allowEnv: ['GITHUB_TOKEN'],
    });
  });

  test('the file\'s top-level block (where VS Code keeps it) applies to entries that enable the sandbox, and is part of their fingerprint', () => {
    const doc = (domains: string[]) => ({ sandbox: { network: { allowedDomains: domains } }, servers: { a: { command: 'node', sandboxEnabled: true }, b: { command: 'node' } } });
    const loaded = parse(doc(['*']));
    assert.equal((loaded.servers[0].config as StdioServerConfig).sandbox?.network, 'all');
    assert.equal((loaded.servers[1].config as StdioServerConfig).sandbox, undefined);
    assert.notEqual(parse(doc([])).servers[0].fingerprint, loaded.servers[0].fingerprint, 'consent is asked again when the policy changes');
    assert.equal(parse(doc([])).servers[1].fingerprint, loaded.servers[1].fingerprint);
  });

  test('a list of hosts is read as the hosts the filtering proxy lets through; a URL or a port instead of a host is refused, never widened', () => {
    const loaded = parse({ servers: { web: { command: 'node', sandboxEnabled: true, sandbox: { network: { allowedDomains: ['api.github.com', '*.Example.org', '127.0.0.1'] } } } } });
    assert.deepEqual(loaded.problems, []);
    const sandbox = (loaded.servers[0].config as StdioServerConfig).sandbox;
    assert.equal(sandbox?.network, 'hosts');
    assert.deepEqual(sandbox?.allowedDomains, ['api.github.com', '*.example.org', '127.0.0.1']);
    for (const bad of ['https://api.github.com', 'api.github.com:443', 'api.github.com/x', '*', 'a*.b.com']) {
      const refused = parse({ servers: { web: { command: 'node', sandboxEnabled: true, sandbox: { network: { allowedDomains: ['ok.example', bad] } } } } });
      if (bad === '*') {
        assert.equal((refused.servers[0]?.config as StdioServerConfig | undefined)?.sandbox?.network, 'all', '"*" is the whole network');
        continue;
      }
      assert.equal(refused.servers.length, 0, bad);
      assert.match(refused.problems[0].message, /allowedDomains\[1\] must be a host name such as "api\.github\.com"/, bad);
      assert.equal(refused.problems[0].path, 'servers.web.sandbox.network.allowedDomains[1]');
    }
  });

  test('bad shapes get clear errors at the value', () => {
    const cases: [object, RegExp, string][] = [
      [{ sandboxEnabled: 'yes' }, /"sandboxEnabled" must be true or false, found the string "yes"/, 'servers.s.sandboxEnabled'],
      [{ sandboxEnabled: true, sandbox: [] }, /"sandbox" must be an object/, 'servers.s.sandbox'],
      [{ sandboxEnabled: true, sandbox: { filesystem: { workspace: 'rw' } } }, /workspace must be "read" or "write", found the string "rw"/, 'servers.s.sandbox.filesystem.workspace'],
      [{ sandboxEnabled: true, sandbox: { filesystem: { allowWrite: '~/.npm' } } }, /filesystem\.allowWrite must be an array of strings/, 'servers.s.sandbox.filesystem.allowWrite'],
      [{ sandboxEnabled: true, sandbox: { allowEnv: ['A B'] } }, /allowEnv\[0\] must be a variable name/, 'servers.s.sandbox.allowEnv[0]'],
    ];
    for (const [entry, message, path] of cases) {
      const loaded = parse({ servers: { s: { command: 'node', ...entry } } });
      assert.equal(loaded.servers.length, 0, JSON.stringify(entry));
      assert.match(loaded.problems[0]?.message ?? '', message);
      assert.equal(loaded.problems[0].path, path);
    }
  });

  test('a typo of a key is pointed out', () => {
    const loaded = parse({ servers: { s: { command: 'node', sandboxEnabled: true, sandbox: { filesystem: { alowWrite: [] } } } } });
    assert.match(loaded.problems.map((p) => p.message).join('\n'), /did you mean "allowWrite"/);
  });
});
