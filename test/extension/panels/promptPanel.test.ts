// Get Prompt's panel (src/extension/panels/promptPanel.ts) on the vscode double against
// server-everything: the form of a prompt's arguments, what is refused before anything is sent,
// the server's completions as the user types (the newest request wins), and the messages shown.
import '../../support/vscode/vscodeModule';
import { after, afterEach, before, suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { PromptPanel, promptArgumentsSchema } from '../../../src/extension/panels/promptPanel';
import { EVERYTHING, NODE, entries } from '../../registry/support';
import { lastPanel, panelHost, posted, waitUntil, vscode } from './panelSupport';

type Host = Awaited<ReturnType<typeof panelHost>>;
const noResource = async () => undefined;

suite('prompt panel (vscode double, server-everything)', () => {
  let host: Host;
  before(async () => {
    host = await panelHost(entries({ everything: { command: NODE, args: EVERYTHING } }));
  });
  afterEach(() => {
    PromptPanel.disposeAll();
    vscode.recorder.reset();
  });
  after(() => host.close());

  const open = (name: string) => {
    const server = host.registry.get(host.idOf('everything'))!;
    const prompt = server.prompts!.find((p) => p.name === name)!;
    PromptPanel.show(host.ctx, server.id, prompt, noResource);
    const panel = lastPanel();
    panel.webview.fromPage({ type: 'ready' });
    return panel;
  };

  test("a prompt's arguments as a form: strings, the required ones required", () => {
    assert.deepEqual(promptArgumentsSchema({ arguments: [{ name: 'city', description: 'Name of the city', required: true }, { name: 'state' }] }), {
      type: 'object',
      properties: { city: { type: 'string', description: 'Name of the city' }, state: { type: 'string' } },
      required: ['city'],
    });
  });

  test('the header names the prompt and says completions are offered (the server declares them)', async () => {
    const panel = open('args-prompt');
    assert.equal(panel.title, 'Prompt args-prompt — everything');
    const init = await posted<{ header: { kind: string; name: string; title: string; completions: boolean } }>(panel, 'initTool');
    assert.deepEqual([init.header.kind, init.header.name, init.header.title, init.header.completions], ['prompt', 'args-prompt', 'Arguments Prompt', true]);
    assert.deepEqual(await posted(panel, 'remember'), { type: 'remember', state: { kind: 'prompt', serverId: host.idOf('everything'), prompt: host.registry.get(host.idOf('everything'))!.prompts!.find((p) => p.name === 'args-prompt') } });
  });

  test('a missing required argument is refused in the panel; filled in, the messages come back', async () => {
    const panel = open('args-prompt');
    panel.webview.fromPage({ type: 'run', input: { mode: 'form', state: { state: 'Texas' } } });
    const refused = await posted<{ errors: { path: string }[] }>(panel, 'validation');
    assert.deepEqual(refused.errors.map((e) => e.path), ['/city']);
    assert.equal(panel.postedOfType('running').length, 0, 'nothing sent');
    panel.webview.fromPage({ type: 'run', input: { mode: 'form', state: { city: 'Austin', state: 'Texas' } } });
    const running = await posted<{ callId: string; arguments: string }>(panel, 'running');
    assert.deepEqual(JSON.parse(running.arguments), { city: 'Austin', state: 'Texas' });
    const result = await posted<{ callId: string; display: unknown }>(panel, 'promptResult');
    assert.equal(result.callId, running.callId);
    assert.match(JSON.stringify(result.display), /What's weather in Austin, Texas\?/);
    panel.webview.fromPage({ type: 'run', input: { mode: 'json', text: '{}' } });
    const json = await posted<{ errors: { message: string }[] }>(panel, 'validation', 2);
    assert.match(json.errors[0].message, /filled in the form/);
  });

  test("completions: the server's values for what is typed, the other arguments as context", async () => {
    const panel = open('completable-prompt');
    panel.webview.fromPage({ type: 'complete', name: 'department', value: 'Eng', context: {} });
    const first = await posted<{ name: string; values: string[] }>(panel, 'completions');
    assert.deepEqual([first.name, first.values], ['department', ['Engineering']]);
    panel.webview.fromPage({ type: 'complete', name: 'name', value: '', context: { department: 'Sales', name: '' } });
    const second = await posted<{ values: string[] }>(panel, 'completions', 2);
    assert.deepEqual(second.values, ['David', 'Eve', 'Frank']);
  });

  test('a result link is opened only when it is plain http(s)', async () => {
    const panel = open('args-prompt');
    await posted(panel, 'initTool');
    panel.webview.fromPage({ type: 'openLink', url: 'javascript:alert(1)' });
    panel.webview.fromPage({ type: 'openLink', url: 'https://example.com/docs' });
    await waitUntil(() => vscode.recorder.callsOf('env.openExternal').length === 1);
    assert.equal(String(vscode.recorder.callsOf('env.openExternal')[0][0]), 'https://example.com/docs');
    assert.ok(host.logs.some((l) => l.level === 'warn' && /Refused to open a link/.test(l.text)));
  });
});
