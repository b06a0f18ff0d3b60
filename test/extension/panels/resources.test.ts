// Reading resources in the editor (src/extension/panels/resources.ts) on the vscode double,
// against server-everything over stdio: a text resource opens as a read-only document of the
// resource scheme and is recorded in the history; a failed read is recorded as an error; a blob is
// offered for saving; the Subscribe toggle subscribes on the wire, an open editor keeps the
// subscription until its tab closes; a server without resources.subscribe is refused by name.
import '../../support/vscode/vscodeModule';
import { after, afterEach, before, suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ResourceFeatures } from '../../../src/extension/panels/resources';
import { RESOURCE_SCHEME, resourceEditorUri } from '../../../src/extension/panels/resourceDocuments';
import { EVERYTHING, NODE, entries, sharedFixture } from '../../registry/support';
import { panelHost, waitUntil, vscode } from './panelSupport';

type Host = Awaited<ReturnType<typeof panelHost>>;
const T = { timeout: 30_000 };
const DOCUMENT = 'demo://resource/static/document/architecture.md';

suite('resources in the editor (vscode double, server-everything)', () => {
  let host: Host;
  let features: ResourceFeatures;
  before(async () => {
    host = await panelHost(entries({ everything: { command: NODE, args: EVERYTHING }, pings: { command: NODE, args: [sharedFixture('pingControl.mjs')] } }));
    features = new ResourceFeatures(host.ctx);
  });
  afterEach(() => {
    vscode.recorder.reset();
    vscode.window.tabGroups.all = [];
  });
  after(async () => {
    features.dispose();
    await host.close();
  });

  const everything = () => host.idOf('everything');
  const historyOf = (uri: string) => host.ctx.history.list(everything(), { kind: 'resource', name: uri });
  const logged = (text: string) => host.logs.some((l) => l.serverId === everything() && l.text === text);

  test('a text resource opens as a document of the resource scheme, with its text, and is recorded', T, async () => {
    await features.open(everything(), DOCUMENT);
    const [[document, options]] = vscode.recorder.callsOf('window.showTextDocument') as [[{ uri: { scheme: string }; getText(): string }, unknown]];
    assert.equal(document.uri.scheme, RESOURCE_SCHEME);
    assert.deepEqual(options, { preview: false });
    const read = await (await host.ctx.client(everything())).readResource(DOCUMENT);
    assert.equal(document.getText(), (read.contents[0] as { text: string }).text);
    const [entry] = historyOf(DOCUMENT);
    assert.equal(entry.outcome, 'ok');
    assert.match(entry.summary, /^1 content, text\/markdown, \d+ bytes$/);
  });

  test('a read the server refuses is recorded as an error and thrown', T, async () => {
    const missing = 'demo://resource/static/document/no-such-file.md';
    await assert.rejects(features.open(everything(), missing));
    const [entry] = historyOf(missing);
    assert.equal(entry.outcome, 'error');
    assert.deepEqual(vscode.recorder.callsOf('window.showTextDocument'), []);
  });

  test('a blob is not opened as text: its size and type are said, and Save As… asks where', T, async () => {
    const blob = 'demo://resource/dynamic/blob/3';
    vscode.recorder.answers.push('Save As…');
    await features.open(everything(), blob);
    const [[message, ...buttons]] = vscode.recorder.callsOf('window.showInformationMessage') as [[string, ...string[]]];
    assert.match(message, /^demo:\/\/resource\/dynamic\/blob\/3 is binary \(text\/plain, \d+ bytes\)\.$/);
    assert.deepEqual(buttons, ['Save As…', 'Show Details']);
    const [[dialog]] = vscode.recorder.callsOf('window.showSaveDialog') as [[{ title: string }]];
    assert.equal(dialog.title, `Save ${blob}`);
    assert.deepEqual(vscode.recorder.callsOf('window.showTextDocument'), []);
  });

  test('Subscribe subscribes on the wire; an open editor keeps it after Unsubscribe until its tab closes', T, async () => {
    const uri = 'demo://resource/dynamic/text/7';
    assert.equal(await features.toggleSubscription(everything(), uri), true);
    assert.equal(features.isSubscribed(everything(), uri), true);
    assert.deepEqual(features.subscriptions(), [{ serverId: everything(), uri, explicit: true, open: false, active: true }]);
    assert.ok(logged(`Subscribed to ${uri}.`));
    assert.deepEqual(vscode.recorder.callsOf('window.setStatusBarMessage').at(-1), [`Subscribed to ${uri}`, 4000]);

    // An editor of it opens: the tab keeps the subscription.
    const editor = resourceEditorUri(everything(), 'everything', uri, 'text/plain');
    vscode.window.tabGroups.all = [{ tabs: [{ isPinned: false, label: 'x', input: new vscode.TabInputText(editor) }] }];
    vscode.windowEvents.tabs.fire({ opened: [], closed: [], changed: [] });
    assert.equal(await features.toggleSubscription(everything(), uri), false);
    assert.deepEqual(vscode.recorder.callsOf('window.setStatusBarMessage').at(-1), [`Unsubscribed from ${uri} (an editor still shows it: it stays subscribed until that closes)`, 4000]);
    assert.deepEqual(features.subscriptions(), [{ serverId: everything(), uri, explicit: false, open: true, active: true }]);
    assert.ok(!logged(`Unsubscribed from ${uri}.`));

    // The tab closes: unsubscribed on the wire.
    vscode.window.tabGroups.all = [];
    vscode.windowEvents.tabs.fire({ opened: [], closed: [], changed: [] });
    await waitUntil(() => logged(`Unsubscribed from ${uri}.`));
    assert.deepEqual(features.subscriptions().filter((s) => s.active), []);
  });

  test('a server without resources.subscribe: refused by name, nothing kept', T, async () => {
    await assert.rejects(features.setSubscribed(host.idOf('pings'), 'x://y', true), /pings does not support resource subscriptions \(resources\.subscribe\)/);
    assert.equal(features.isSubscribed(host.idOf('pings'), 'x://y'), false);
  });
});
