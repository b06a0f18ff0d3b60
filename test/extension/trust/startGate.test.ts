// The start gate (src/extension/trust/startGate.ts) on the vscode double: what a server defined by
// the workspace needs before it starts (trust, then the user's consent, then its inputs), what is
// remembered and asked again, one dialog for servers started together, and inputs asked once and
// kept out of the logs. Entries are parsed from real config text; the dialogs are the double's
// (the test gives the button the user presses).
import { vscode } from '../../support/vscode/vscodeModule';
import { afterEach, suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import type * as vscodeTypes from 'vscode';
import { DENIED_REASON, DISMISSED_REASON, StartGate } from '../../../src/extension/trust/startGate';
import { ALLOW, ALLOW_ALL, ALLOW_SELECTED, DENY, askForInput } from '../../../src/extension/trust/consentDialogs';
import { ConsentStore } from '../../../src/extension/trust/consentStore';
import { InputStore } from '../../../src/extension/config/inputStore';
import { UNTRUSTED_REASON } from '../../../src/extension/tree/treeItemModel';
import { Redactor } from '../../../src/protocol/redaction';
import { parseConfigText } from '../../../src/config/parse';
import { parseSettingsValue } from '../../../src/config/settingsFormat';
import { folderSources, settingsSource } from '../../../src/config/sources';
import type { ServerEntry } from '../../../src/config/types';
import type { PrepareResult } from '../../../src/registry';
import { MemoryMemento } from '../support';

const FOLDER = { name: 'w', fsPath: '/work/project' };
const [WORKSPACE] = folderSources(FOLDER);

function parse(servers: Record<string, unknown>): ServerEntry[] {
  return parseConfigText(JSON.stringify({ servers }), WORKSPACE).servers;
}

/** Entries of the user's `mcpHost.servers` setting (not defined by the workspace). */
function userSettings(servers: Record<string, unknown>, inputs?: unknown[]): ServerEntry[] {
  return parseSettingsValue(servers, settingsSource('user'), inputs).servers;
}

/** A gate over memory stores; `lines` is its log, `secrets` the SecretStorage. */
function gate() {
  const lines: string[] = [];
  const log = Object.fromEntries(['trace', 'debug', 'info', 'warn', 'error'].map((level) => [level, (text: string) => lines.push(`${level}: ${text}`)])) as unknown as vscodeTypes.LogOutputChannel;
  const secrets = new Map<string, string>();
  const secretStore = { get: async (k: string) => secrets.get(k), store: async (k: string, v: string) => void secrets.set(k, v), delete: async (k: string) => void secrets.delete(k) };
  const redactor = new Redactor();
  const inputs = new InputStore(secretStore, new MemoryMemento(), askForInput, (v) => redactor.add(v));
  let changes = 0;
  const g = new StartGate(new ConsentStore(new MemoryMemento()), inputs, redactor, log, () => ({ w: FOLDER.fsPath }), () => void changes++);
  return { g, lines, secrets, redactor, changes: () => changes };
}

const blocked = (r: PrepareResult) => ('blocked' in r ? r.blocked : undefined);
const dialogs = () => vscode.recorder.callsOf('window.showWarningMessage');

suite('start gate (vscode double)', () => {
  afterEach(() => {
    vscode.recorder.reset();
    vscode.workspace.isTrusted = true;
  });

  test('in an untrusted workspace a workspace server is blocked without a dialog; a user-settings server is not', async () => {
    vscode.workspace.isTrusted = false;
    const { g } = gate();
    const [local] = parse({ local: { command: 'node', args: ['server.js'] } });
    assert.equal(blocked(await g.prepare(local)), UNTRUSTED_REASON);
    const [mine] = userSettings({ mine: { command: 'node', args: ['mine.js'] } });
    const resolved = await g.prepare(mine);
    assert.equal(blocked(resolved), undefined);
    assert.deepEqual(dialogs(), []);
  });

  test('Allow starts the server and is remembered for this exact entry; a changed entry asks again', async () => {
    const { g, lines } = gate();
    const [first] = parse({ local: { command: 'node', args: ['server.js', '--port', '1'] } });
    vscode.recorder.answers.push(ALLOW);
    const waiting = g.prepare(first);
    assert.equal(g.waitingFor(first.id), 'consent', 'the row says it waits for consent while the dialog is open');
    assert.equal(blocked(await waiting), undefined);
    assert.equal(g.waitingFor(first.id), undefined);
    const [message, options, ...buttons] = dialogs()[0] as [string, { modal: boolean; detail: string }, ...string[]];
    assert.match(message, /local/);
    assert.equal(options.modal, true);
    assert.match(options.detail, /node server\.js --port 1/, 'the exact command line');
    assert.deepEqual(buttons, [ALLOW, DENY]);
    assert.ok(lines.includes('info: Consent for "local": allowed.'));
    await g.prepare(first);
    assert.equal(dialogs().length, 1, 'remembered: not asked again');
    assert.equal(g.awaitsConsent(first), false);
    const [changed] = parse({ local: { command: 'node', args: ['server.js', '--port', '2'] } });
    assert.equal(g.awaitsConsent(changed), true);
    vscode.recorder.answers.push(DENY);
    assert.equal(blocked(await g.prepare(changed)), DENIED_REASON);
    assert.equal(dialogs().length, 2);
  });

  test('Deny blocks, and later starts are blocked without asking, until the user starts it', async () => {
    const { g } = gate();
    const [local] = parse({ local: { command: 'node', args: ['server.js'] } });
    vscode.recorder.answers.push(DENY);
    assert.equal(blocked(await g.prepare(local)), DENIED_REASON);
    assert.equal(blocked(await g.prepare(local)), DENIED_REASON);
    assert.equal(dialogs().length, 1, 'a start by the policy does not ask again');
    vscode.recorder.answers.push(ALLOW);
    const result = await g.asked(local.id, () => g.prepare(local));
    assert.equal(blocked(result), undefined, "the user's Start asks again");
    assert.equal(dialogs().length, 2);
  });

  test('a dialog closed without an answer decides nothing and is not asked again on its own', async () => {
    const { g } = gate();
    const [local] = parse({ local: { command: 'node', args: ['server.js'] } });
    vscode.recorder.answers.push(undefined);
    assert.equal(blocked(await g.prepare(local)), DISMISSED_REASON);
    assert.equal(blocked(await g.prepare(local)), DISMISSED_REASON);
    assert.equal(dialogs().length, 1);
    assert.deepEqual(g.consentServerIds(), [], 'nothing remembered');
  });

  test('servers started together get one dialog; Allow Selected denies the unticked ones', async () => {
    const { g } = gate();
    const [a, b, c] = parse({ a: { command: 'node', args: ['a.js'] }, b: { command: 'node', args: ['b.js'] }, c: { command: 'node', args: ['c.js'] } });
    vscode.recorder.answers.push(ALLOW_SELECTED);
    vscode.recorder.picks.push((items) => items.filter((i) => i.label !== 'b'));
    const results = await Promise.all([g.prepare(a), g.prepare(b), g.prepare(c)]);
    assert.deepEqual(results.map(blocked), [undefined, DENIED_REASON, undefined]);
    assert.equal(dialogs().length, 1, 'one dialog for the three');
    const [, , ...buttons] = dialogs()[0] as string[];
    assert.deepEqual(buttons, [ALLOW_ALL, ALLOW_SELECTED, 'Deny All']);
    const [items, options] = vscode.recorder.callsOf('window.showQuickPick')[0] as [{ label: string }[], { canPickMany: boolean }];
    assert.deepEqual(items.map((i) => i.label), ['a', 'b', 'c']);
    assert.equal(options.canPickMany, true);
  });

  test('Forget Consent asks again at the next start', async () => {
    const { g, lines } = gate();
    const [local] = parse({ local: { command: 'node', args: ['server.js'] } });
    vscode.recorder.answers.push(ALLOW);
    await g.prepare(local);
    const handle = { id: local.id, entry: local } as unknown as Parameters<StartGate['forgetConsent']>[0][number];
    assert.deepEqual(await g.forgetConsent([handle]), [local.id]);
    assert.ok(lines.includes('info: Consent forgotten for every server.'));
    assert.equal(g.awaitsConsent(local), true);
  });

  test('an input is asked once (masked for a password), kept in secret storage, and taught to the redactor', async () => {
    const { g, secrets, redactor } = gate();
    const [mine] = userSettings({ api: { command: 'node', args: ['api.js'], env: { API_KEY: '${input:key}' } } }, [{ id: 'key', type: 'promptString', description: 'API key', password: true }]);
    vscode.recorder.inputs.push('sk-very-secret-value-123');
    const resolved = await g.prepare(mine);
    assert.ok(!('blocked' in resolved));
    assert.equal(resolved.type === 'stdio' && resolved.env.API_KEY, 'sk-very-secret-value-123');
    const [options] = vscode.recorder.callsOf('window.showInputBox')[0] as [{ password: boolean; prompt: string }];
    assert.equal(options.password, true);
    assert.match(options.prompt, /secret storage/);
    assert.deepEqual([...secrets.values()], ['sk-very-secret-value-123']);
    assert.doesNotMatch(redactor.redact('key=sk-very-secret-value-123'), /sk-very/);
    await g.prepare(mine);
    assert.equal(vscode.recorder.callsOf('window.showInputBox').length, 1, 'kept: not asked again');
    assert.equal(await g.clearInputs(), 1);
    vscode.recorder.inputs.push(undefined);
    await assert.rejects(g.prepare(mine), /input "key" was not provided/);
  });
});
