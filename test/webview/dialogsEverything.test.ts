// The sampling and elicitation dialogs against server-everything's own requests, without VS Code:
// server-everything (stdio) sends sampling/createMessage and elicitation/create to a real McpClient
// wired with the host's services (attachServerRequests), whose prompter is the extension's own
// WebviewPrompter on the `vscode` double; each dialog panel it opens is shown by
// media/dialogs/dialogs.js in the page harness (dialogBridge.ts), and the test clicks the page as a
// user would. The model is a scripted LanguageModels (the e2e suite's test model in name), and the
// model picker is the double's quick pick. These are the dialogs' details that serve.test.ts (e2e)
// checked through code-server until issue 35 moved them here; the e2e suite keeps one path per
// feature.
import { vscode } from '../support/vscode/vscodeModule';
import assert from 'node:assert/strict';
import type * as vscodeTypes from 'vscode';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { McpClient } from '../../src/client';
import { WebviewPrompter } from '../../src/extension/serverRequests/prompter';
import { DialogQueue, ElicitationService, type LanguageModels, SamplingPolicyStore, SamplingService, attachServerRequests, clientCapabilitiesFor } from '../../src/serverRequests';
import { REPO } from '../registry/support';
import { type EverythingPeer, everythingPeer } from '../transport/httpPeers';
import { DialogBridge } from './dialogBridge';
import { suiteBrowser } from './pageHarness';

const SERVER = { id: 'test::everything', name: 'everything' };
/** The e2e suite's test language model (test/e2e/fixtures/lm-provider), by id and name. */
const MODEL = { id: 'mcp-host-test-model', name: 'MCP Host Test Model', family: 'test', vendor: 'mcp-host-tests' };

/** Answers as the e2e suite's test model does: "Test model answer to: <last user text>". */
const models: LanguageModels = {
  models: async () => [MODEL],
  async generate(_model, run) {
    const last = run.messages[run.messages.length - 1]!.parts.find((p) => p.type === 'text');
    return { text: `Test model answer to: ${last && last.type === 'text' ? last.text : ''}`, stopReason: 'endTurn' };
  },
};

/** The text of a tool result's content, joined. */
function resultText(result: { content: ReadonlyArray<{ type: string; text?: string }> }): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

describe('the sampling and elicitation dialogs with server-everything\u2019s own requests', () => {
  const browser = suiteBrowser();
  let peer: EverythingPeer;
  let client: McpClient;
  let bridge: DialogBridge;
  const logs: string[] = [];
  const opened: string[] = [];

  before(async () => {
    const queue = new DialogQueue(() => 3);
    const log = (_id: string, level: string, text: string) => void logs.push(`${level} ${text}`);
    const prompter = new WebviewPrompter({ extensionUri: vscode.Uri.file(REPO) as unknown as vscodeTypes.Uri, queue, log });
    const sampling = new SamplingService({ queue, policies: new SamplingPolicyStore({ get: () => undefined, update: async () => {} }), prompter, models, log });
    const elicitation = new ElicitationService({ queue, prompter, log, modes: ['form', 'url'], openUrl: async (href) => (opened.push(href), true) });
    const services = { sampling, elicitation };
    client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' }, capabilities: clientCapabilitiesFor(services) });
    attachServerRequests(client, SERVER, services);
    peer = await everythingPeer('stdio');
    await client.connect(peer.transport);
  });
  after(async () => {
    await client.close();
    await peer.stop();
  });
  beforeEach(() => {
    vscode.recorder.reset();
    logs.length = 0;
    bridge = new DialogBridge(browser);
  });
  afterEach(async () => {
    await bridge.stop();
    assert.deepEqual(bridge.problems, [], 'no page errors or CSP violations');
  });

  test('sampling: the request shown (server, system prompt, message, max tokens, temperature), edited and approved; the model picked; the answer reviewed, edited and sent', { timeout: 60_000 }, async () => {
    vscode.recorder.picks.push((items) => items.find((i) => i.label === MODEL.name));
    const call = client.callTool('trigger-sampling-request', { prompt: 'What is the capital of France?' });
    const { page, closed } = await bridge.dialog(0);
    const p = page.page;
    assert.match(await p.locator('header h1').innerText(), /everything asks to use a language model/);
    assert.equal(await p.locator('#system-prompt').inputValue(), 'You are a helpful test server.');
    const message = p.locator('.message-text').first();
    assert.equal(await message.inputValue(), 'Resource trigger-sampling-request context: What is the capital of France?');
    assert.equal(await p.locator('#max-tokens').inputValue(), '100');
    assert.match(await p.locator('.facts').first().innerText(), /Temperature\s*0\.7/);

    await message.fill('What is the capital of Italy?');
    await p.locator('#max-tokens').fill('50');
    await p.locator('#approve').click();
    const answer = p.locator('#answer');
    await answer.waitFor({ timeout: 20_000 });
    assert.equal(await answer.inputValue(), 'Test model answer to: What is the capital of Italy?');
    assert.match(await p.locator('.answer .facts').innerText(), /MCP Host Test Model[\s\S]*endTurn/);
    // No model hint from this server: the user was asked which model, with its name in the title.
    const [pick] = vscode.recorder.callsOf('window.showQuickPick');
    assert.match(String((pick?.[1] as { title?: string } | undefined)?.title), /Which language model should answer everything's sampling request\?/);
    await answer.fill('Rome (reviewed by a person)');
    await p.locator('#send-answer').click();
    await closed;

    const text = resultText(await call);
    assert.match(text, /Rome \(reviewed by a person\)/);
    assert.match(text, /"model": "mcp-host-test-model"/);
    assert.match(text, /"stopReason": "endTurn"/);
    const log = logs.join('\n');
    assert.match(log, /sampling #\S+: request: 1 message, maxTokens 100, temperature 0\.7/);
    assert.match(log, /approved by the user, edited: message 1 text, maxTokens 100 → 50/);
    assert.match(log, /model picked by the user: MCP Host Test Model/);
    assert.match(log, /answer from mcp-host-test-model/);
    assert.match(log, /the user edited the answer/);
  });

  test('sampling rejected: the tool result shows the user-rejected error -1', { timeout: 60_000 }, async () => {
    const call = client.callTool('trigger-sampling-request', { prompt: 'Please do not answer' });
    const { page, closed } = await bridge.dialog(0);
    await page.page.locator('#reject').click();
    await closed;
    const text = resultText(await call);
    assert.match(text, /User rejected sampling request/);
    assert.match(text, /-1/);
  });

  test('elicitation form: defaults and titles shown, required and email checked, values accepted and shown in the result', { timeout: 60_000 }, async () => {
    const call = client.callTool('trigger-elicitation-request', {});
    const { page, closed } = await bridge.dialog(0);
    const form = page.page;
    assert.equal(await form.locator('header h1 .server-name').innerText(), 'everything');
    assert.match(await form.locator('header h1').innerText(), /^everything asks you for information/);
    assert.match(await form.locator('.server-message').innerText(), /Please provide inputs for the following fields/);
    // Defaults are in place; the legacy enumNames labels are shown.
    assert.equal(await form.locator('.field[data-path="/integer"] input').inputValue(), '42');
    assert.equal(await form.locator('.field[data-path="/legacyTitledEnum"] select option:checked').innerText(), 'Cats');
    assert.deepEqual((await form.locator('.field[data-path="/titledMultipleSelectEnum"] label.checkbox').allInnerTexts()).map((x) => x.trim()), ['Tuna', 'Salmon', 'Trout']);
    // A choice's default is named by its title, not its id ("default hero-1").
    const hint = (path: string) => form.locator(`.field[data-path="${path}"] > .constraints`).innerText();
    assert.match(await hint('/titledSingleSelectEnum'), /default Superman/);
    assert.match(await hint('/titledMultipleSelectEnum'), /default Tuna/);
    assert.match(await hint('/legacyTitledEnum'), /default Cats/);

    await form.locator('#accept').click();
    await form.waitForFunction(() => /required/.test(document.querySelector('.field[data-path="/name"] .field-error')?.textContent ?? ''), undefined, { timeout: 10_000 });
    await form.locator('.field[data-path="/email"] input').fill('not an email');
    await form.waitForFunction(() => /email/.test(document.querySelector('.field[data-path="/email"] .field-error')?.textContent ?? ''), undefined, { timeout: 10_000 });

    await form.locator('.field[data-path="/name"] input, .field[data-path="/name"] textarea').first().fill('Ada Lovelace');
    await form.locator('.field[data-path="/email"] input').fill('ada@example.com');
    await form.locator('.field[data-path="/check"] select').selectOption('true');
    await form.locator('.field[data-path="/number"] input').fill('7');
    await form.locator('.field[data-path="/legacyTitledEnum"] select').selectOption({ label: 'Dogs' });
    await form.locator('.field[data-path="/untitledMultipleSelectEnum"] label.checkbox', { hasText: 'Piano' }).locator('input').check();
    await form.waitForFunction(() => document.querySelectorAll('.field.invalid').length === 0, undefined, { timeout: 10_000 });
    await form.locator('#accept').click();
    await closed;

    const text = resultText(await call);
    assert.match(text, /User provided the requested information/);
    assert.match(text, /- Name: Ada Lovelace/);
    assert.match(text, /- Agreed to terms: true/);
    assert.match(text, /- Email: ada@example.com/);
    assert.match(text, /- Favorite Integer: 42/);
    assert.match(text, /- Favorite Number: 7/);
    assert.match(text, /"legacyTitledEnum": "pet-2"/);
    assert.match(text, /"untitledMultipleSelectEnum": \[\s*"Guitar",\s*"Piano"\s*\]/);
  });

  test('elicitation declined, cancelled with the Cancel button, and closed as a tab: each shows in the result and the log', { timeout: 60_000 }, async () => {
    const declined = client.callTool('trigger-elicitation-request', {});
    const first = await bridge.dialog(0);
    await first.page.page.locator('#decline').click();
    await first.closed;
    assert.match(resultText(await declined), /User declined to provide the requested information/);
    assert.match(logs.join('\n'), /elicitation #\S+: declined by the user/);

    const cancelled = client.callTool('trigger-elicitation-request', {});
    const second = await bridge.dialog(1);
    await second.page.page.locator('#cancel').click();
    await second.closed;
    assert.match(resultText(await cancelled), /User cancelled the elicitation dialog/);
    assert.match(logs.join('\n'), /elicitation #\S+: cancelled by the user/);

    // The user closes the dialog's tab: VS Code disposes the panel.
    const closed = client.callTool('trigger-elicitation-request', {});
    const third = await bridge.dialog(2);
    third.panel.dispose();
    await third.closed;
    assert.match(resultText(await closed), /User cancelled the elicitation dialog/);
    assert.equal(logs.filter((l) => /elicitation #\S+: cancelled by the user/.test(l)).length, 2);
  });

  test('URL elicitation: the domain highlighted, punycode and http warned about, the two refusals named for the user; declined; a crafted userinfo refused with no dialog', { timeout: 60_000 }, async () => {
    const call = client.callTool('trigger-url-elicitation', { url: 'http://xn--80ak6aa92e.com/login?next=1' });
    const { page, closed } = await bridge.dialog(0);
    const dialog = page.page;
    assert.match(await dialog.locator('header h1').innerText(), /everything asks you to open a link/);
    assert.equal(await dialog.locator('#domain').innerText(), 'xn--80ak6aa92e.com');
    assert.equal(await dialog.locator('.seg-domain').innerText(), 'xn--80ak6aa92e.com');
    const kinds = await dialog.locator('#warnings li').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.kind));
    assert.deepEqual(new Set(kinds), new Set(['not-https', 'punycode', 'homograph']));
    // The two ways to say no say what each tells the server, not the protocol's words.
    assert.equal((await dialog.locator('#decline').innerText()).trim(), 'Refuse the link');
    assert.equal((await dialog.locator('#cancel').innerText()).trim(), 'Not now');
    await dialog.locator('#decline').click();
    await closed;
    assert.match(resultText(await call), /User declined to open the URL/);
    assert.deepEqual(opened, []);

    // VS Code's URI decodes %2F in the userinfo and would open evil.example: refused, no dialog.
    const dialogsBefore = bridge.count;
    const crafted = await client.callTool('trigger-url-elicitation', { url: 'https://evil.example%2F@example.com/' });
    assert.match(resultText(crafted), /\S/);
    assert.match(logs.join('\n'), /refused the URL: it has a user name or other text before "@"/);
    assert.equal(bridge.count, dialogsBefore, 'no dialog for the crafted URL');
    assert.deepEqual(opened, []);
  });
});
