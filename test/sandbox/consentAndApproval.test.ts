// What the user is shown and asked about a sandboxed server: the consent prompt states the
// sandbox (or its absence) beside the command; the milder approval applies only to a sandboxed
// server the user opted in for, never to an unsandboxed one.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { approvalNeed, SessionGrants } from '../../src/chat/approval';
import { parseConfigText } from '../../src/config/parse';
import type { ConfigSource } from '../../src/config/types';
import { consentFacts } from '../../src/extension/trust/consentFacts';
import { consentPrompt } from '../../src/extension/trust/consentText';
import { serverRowMarks } from '../../src/extension/tree/serverRowText';

const SOURCE: ConfigSource = { kind: 'vscode-mcp-json', label: '.vscode/mcp.json', file: '/w/.vscode/mcp.json', folder: { name: 'w', fsPath: '/w' }, workspaceDefined: true };
const CTX = { folders: { w: '/w' }, workspaceFolder: '/w', userHome: '/home/ann', env: {} };
const entryOf = (server: object) => parseConfigText(JSON.stringify({ servers: { s: server } }), SOURCE).servers[0];

describe('consent and approval of sandboxed servers', () => {
  test('the consent prompt shows the sandbox policy right under the command', async () => {
    const facts = await consentFacts(entryOf({ command: 'npx', args: ['-y', 'pkg'], sandboxEnabled: true, sandbox: { filesystem: { allowWrite: ['~/.npm'] }, network: { allowedDomains: ['*'] } } }), CTX);
    const { detail } = consentPrompt(facts);
    assert.match(detail, /Command: npx -y pkg\nSandboxed \(bubblewrap\): your home folder is hidden; the workspace is read-only; \/tmp is private\.\nNetwork: all hosts\.\nWritable: ~\/\.npm\./);
    assert.match(detail, /The server runs in the sandbox above/);
    assert.doesNotMatch(detail, /runs with your user rights/);
  });

  test('a sandboxed server\'s environment is one line: the variables it sets and the only ones of yours that pass in', async () => {
    const facts = await consentFacts(entryOf({ command: 'node', args: ['x.js'], env: { API_KEY: '${input:key}', MODE: 'ro' }, sandboxEnabled: true, sandbox: { allowEnv: ['HTTPS_PROXY'] } }), CTX);
    const lines = consentPrompt(facts).detail.split('\n');
    const environment = lines.filter((line) => /environment/i.test(line) && !/^Defined in/.test(line));
    assert.deepEqual(environment, ['Environment: only the variables it sets (API_KEY, MODE) and your PATH, locale and HTTPS_PROXY.']);
    const none = consentPrompt(await consentFacts(entryOf({ command: 'node', sandboxEnabled: true }), CTX)).detail.split('\n');
    assert.deepEqual(none.filter((line) => /environment/i.test(line)), ['Environment: only your PATH and locale (it sets none).']);
    const open = consentPrompt(await consentFacts(entryOf({ command: 'node', env: { A: '1' } }), CTX)).detail.split('\n');
    assert.deepEqual(open.filter((line) => /environment/i.test(line)), ['Environment variables it sets: A']);
  });

  test('without a sandbox it says so as plainly; the setting that requires one changes what is shown', async () => {
    const entry = entryOf({ command: 'node', args: ['x.js'] });
    const { detail } = consentPrompt(await consentFacts(entry, CTX));
    assert.match(detail, /Command: node x\.js\nNo sandbox: full access to your files and network\./);
    assert.match(detail, /runs with your user rights/);
    const required = consentPrompt(await consentFacts(entry, CTX, { requireForWorkspaceServers: true })).detail;
    assert.match(required, /Sandboxed \(bubblewrap\).*\nNetwork: none\./);
  });

  test('a sandboxed server\'s tools skip the approval only with the opt-in; destructive tools and app-written requests still ask', () => {
    const grants = new SessionGrants();
    const tool = { name: 'write' };
    const base = { serverTrusted: false, autoApproveReadOnly: false };
    assert.equal(approvalNeed('s', tool, base, grants, false).ask, true, 'no opt-in: asks');
    assert.equal(approvalNeed('s', tool, { ...base, sandboxedAutoApprove: false }, grants, false).ask, true);
    assert.deepEqual(approvalNeed('s', tool, { ...base, sandboxedAutoApprove: true }, grants, false), { ask: false, reason: 'a tool of a sandboxed server (mcpHost.sandbox.autoApproveTools)' });
    assert.equal(approvalNeed('s', { name: 'rm', annotations: { destructiveHint: true } }, { ...base, sandboxedAutoApprove: true }, grants, false).ask, true);
    assert.equal(approvalNeed('s', tool, { ...base, sandboxedAutoApprove: true }, grants, false, 'an app').ask, true);
    assert.equal(approvalNeed('s', tool, { ...base, sandboxedAutoApprove: true }, grants, true).ask, true, 'changed since approval');
  });

  test('the row says sandboxed', () => {
    assert.equal(serverRowMarks({ sandboxed: true, shared: true }), 'sandboxed · shared with chat · ');
    assert.equal(serverRowMarks({}), '');
  });
});
