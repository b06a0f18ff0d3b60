// Sampling and elicitation against a real server: server-everything over stdio, Streamable HTTP
// and HTTP+SSE, with the host's services wired exactly as the extension wires them (attachServerRequests),
// a scripted "user" standing in for the person at the dialogs, and a scripted language model
// standing in for vscode.lm. Every frame of each session is checked against the official
// 2025-11-25 schema at the end.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpClient, ResponseError } from '../../src/client';
import { McpLocalError } from '../../src/protocol/errors';
import {
  DialogQueue,
  ElicitFormView,
  ElicitUrlView,
  ElicitationPrompter,
  ElicitationService,
  FormAnswer,
  LanguageModels,
  SamplingPolicyStore,
  SamplingPrompter,
  SamplingRequestDecision,
  SamplingRequestView,
  SamplingResponseDecision,
  SamplingRun,
  SamplingService,
  UrlAnswer,
  attachServerRequests,
  clientCapabilitiesFor,
} from '../../src/serverRequests';
import { WireRecorder, waitFor } from '../client/support';
import { EverythingKind, EverythingPeer, everythingPeer } from '../transport/httpPeers';

const SERVER = { id: 'test::everything', name: 'everything' };

/** What the scripted user does at the next dialog of each kind. */
const user = {
  sampling: (_v: SamplingRequestView): SamplingRequestDecision => ({ kind: 'approve' }),
  review: (text: string): SamplingResponseDecision => ({ kind: 'send', text }),
  form: (_v: ElicitFormView, _check: Parameters<ElicitationPrompter['form']>[2]): FormAnswer | Promise<FormAnswer> => ({ action: 'cancel' }),
  url: (_v: ElicitUrlView): UrlAnswer => 'decline',
  retry: true,
};
const seen = { sampling: [] as SamplingRequestView[], forms: [] as ElicitFormView[], formSignals: [] as AbortSignal[], urls: [] as ElicitUrlView[], opened: [] as string[], runs: [] as SamplingRun[], log: [] as string[] };

const prompterS: SamplingPrompter = {
  open(_server, view) {
    seen.sampling.push(view);
    return {
      decide: async () => user.sampling(view),
      generating: () => {},
      review: async (a) => user.review(a.text),
      failed: () => {},
      close: () => {},
    };
  },
  pickModel: async (_s, models) => models[0],
  notify: () => {},
};

/** The stand-in for a VS Code chat model: answers deterministically from the last user text. */
const model: LanguageModels = {
  models: async () => [{ id: 'scripted-model-1', name: 'Scripted', family: 'scripted', vendor: 'tests' }],
  async generate(_m, run) {
    seen.runs.push(run);
    const last = run.messages[run.messages.length - 1].parts.find((p) => p.type === 'text');
    return { text: `The host's model read: ${last && last.type === 'text' ? last.text : '?'}`, stopReason: 'endTurn' };
  },
};

const prompterE: ElicitationPrompter = {
  async form(_server, view, check, signal) {
    seen.forms.push(view);
    seen.formSignals.push(signal);
    return user.form(view, check);
  },
  async url(_server, view) {
    seen.urls.push(view);
    return user.url(view);
  },
  awaitCompletion: async () => user.retry,
  notify: () => {},
};

for (const kind of ['stdio', 'streamableHttp', 'sse'] satisfies EverythingKind[]) describe(`sampling and elicitation against server-everything over ${kind}`, () => {
  let peer: EverythingPeer;
  let client: McpClient;
  let wire: WireRecorder;
  let elicitation: ElicitationService;

  before(async () => {
    const queue = new DialogQueue(() => 3);
    const log = (_id: string, level: string, text: string) => seen.log.push(`${level} ${text}`);
    const sampling = new SamplingService({ queue, policies: new SamplingPolicyStore({ get: () => undefined, update: async () => {} }), prompter: prompterS, models: model, log });
    elicitation = new ElicitationService({ queue, prompter: prompterE, log, modes: ['form', 'url'], openUrl: async (href) => (seen.opened.push(href), true) });
    const services = { sampling, elicitation };
    client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' }, capabilities: clientCapabilitiesFor(services) });
    wire = new WireRecorder(client);
    attachServerRequests(client, SERVER, services);
    // What the scripted user saw belongs to one suite (one per transport).
    for (const list of Object.values(seen)) list.length = 0;
    peer = await everythingPeer(kind);
    await client.connect(peer.transport);
  });

  after(async () => {
    await client.close();
    await peer.stop();
  });

  test('declares sampling and both elicitation modes; the server offers its trigger tools', async () => {
    assert.deepEqual(wire.sent('initialize')[0].params.capabilities, { sampling: {}, elicitation: { form: {}, url: {} }, tasks: { list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } } });
    const tools = (await client.listTools()).map((t) => t.name);
    for (const t of ['trigger-sampling-request', 'trigger-elicitation-request', 'trigger-url-elicitation']) assert.ok(tools.includes(t), t);
  });

  test('sampling approved: the host model’s answer reaches the tool result', { timeout: 20_000 }, async () => {
    user.sampling = () => ({ kind: 'approve', edits: { systemPrompt: 'You are terse.' } });
    user.review = (text) => ({ kind: 'send', text });
    const result = await client.callTool('trigger-sampling-request', { prompt: 'What is the capital of France?', maxTokens: 64 });
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    assert.notEqual(result.isError, true, text);
    assert.match(text, /The host's model read: Resource trigger-sampling-request context: What is the capital of France\?/);
    assert.match(text, /"model": "scripted-model-1"/);
    assert.match(text, /"stopReason": "endTurn"/);
    const view = seen.sampling.at(-1)!;
    assert.equal(view.systemPrompt, 'You are a helpful test server.', 'the dialog showed what the server sent');
    assert.equal(view.maxTokens, 64);
    assert.equal(view.temperature, 0.7);
    assert.equal(seen.runs.at(-1)!.systemPrompt, 'You are terse.', 'the model got the edited system prompt');
    const response = wire.sent().find((m) => m.id !== undefined && m.result?.role === 'assistant');
    assert.deepEqual(response.result, { role: 'assistant', content: { type: 'text', text: "The host's model read: Resource trigger-sampling-request context: What is the capital of France?" }, model: 'scripted-model-1', stopReason: 'endTurn' });
  });

  test('sampling with an edited answer: the edit is what the server gets', { timeout: 20_000 }, async () => {
    user.sampling = () => ({ kind: 'approve' });
    user.review = () => ({ kind: 'send', text: 'Paris (checked by a person)' });
    const result = await client.callTool('trigger-sampling-request', { prompt: 'capital?' });
    assert.match(result.content.map((c) => (c.type === 'text' ? c.text : '')).join(''), /Paris \(checked by a person\)/);
  });

  test('sampling rejected: the tool result shows the user-rejected error (-1)', { timeout: 20_000 }, async () => {
    user.sampling = () => ({ kind: 'reject' });
    const result = await client.callTool('trigger-sampling-request', { prompt: 'Never answered' });
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    assert.equal(result.isError, true, text);
    assert.match(text, /-1/);
    assert.match(text, /User rejected sampling request/);
    const errorFrame = wire.sent().find((m) => m.error?.code === -1);
    assert.deepEqual(errorFrame.error, { code: -1, message: 'User rejected sampling request' });
  });

  test('elicitation accepted with values: they show in the tool result, defaults fill the rest', { timeout: 20_000 }, async () => {
    user.form = (view, check) => {
      const fields = view.model.properties.map((p) => p.name);
      assert.deepEqual(fields, ['name', 'check', 'firstLine', 'email', 'homepage', 'birthdate', 'integer', 'number', 'untitledSingleSelectEnum', 'untitledMultipleSelectEnum', 'titledSingleSelectEnum', 'titledMultipleSelectEnum', 'legacyTitledEnum']);
      const legacy = view.model.properties.find((p) => p.name === 'legacyTitledEnum')!.field;
      assert.deepEqual(legacy.kind === 'enum' && legacy.options.map((o) => o.label), ['Cats', 'Dogs', 'Birds', 'Fish', 'Reptiles']);
      // What a person does: type into the form (state = raw input), which the dialog checks.
      const missingName = check({ ...(view.state as object) });
      assert.equal(missingName.ok, false, 'name is required');
      const checked = check({ ...(view.state as object), name: 'Ada Lovelace', check: true, email: 'ada@example.com', number: '7', untitledMultipleSelectEnum: [1, 2], legacyTitledEnum: 1 });
      assert.ok(checked.ok, JSON.stringify(checked));
      return { action: 'accept', content: checked.content };
    };
    const result = await client.callTool('trigger-elicitation-request', {});
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    assert.match(text, /✅ User provided the requested information!/);
    assert.match(text, /- Name: Ada Lovelace/);
    assert.match(text, /- Agreed to terms: true/);
    assert.match(text, /- Email: ada@example.com/);
    assert.match(text, /- Favorite Integer: 42/, 'the default, pre-filled in the form');
    assert.match(text, /- Favorite Number: 7/);
    const raw = JSON.parse(text.slice(text.indexOf('Raw result: ') + 'Raw result: '.length)) as { action: string; content: Record<string, unknown> };
    assert.equal(raw.action, 'accept');
    assert.deepEqual(raw.content.untitledMultipleSelectEnum, ['Piano', 'Violin']);
    assert.deepEqual(raw.content.titledMultipleSelectEnum, ['fish-1'], 'default');
    assert.equal(raw.content.legacyTitledEnum, 'pet-2', 'the enum value behind the label "Dogs"');
    assert.equal(raw.content.firstLine, 'It was a dark and stormy night.');
  });

  test('a form answered after the call’s timeout would have run out: the timeout waits for the user, the call succeeds', { timeout: 20_000 }, async () => {
    const paused: boolean[] = [];
    user.form = async (view, check) => {
      await new Promise((r) => setTimeout(r, 1500)); // three timeouts' worth
      const checked = check({ ...(view.state as object), name: 'Grace Hopper', number: '7' });
      assert.ok(checked.ok, JSON.stringify(checked));
      return { action: 'accept', content: checked.content };
    };
    const result = await client.callTool('trigger-elicitation-request', {}, { timeoutMs: 500, onTimeoutPaused: (p) => paused.push(p) });
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    assert.match(text, /- Name: Grace Hopper/, text);
    assert.deepEqual(paused, [true, false], 'the panel was told the timeout paused, then ran again');
    assert.equal(wire.sent('notifications/cancelled').length, 0, 'nothing was cancelled');
  });

  test('the call a form came with is cancelled: the form closes, saying why, and the server gets an error, not an answer', { timeout: 20_000 }, async () => {
    const abort = new AbortController();
    let closedBecause: unknown;
    user.form = (_v) =>
      new Promise<FormAnswer>((resolve) => {
        const signal = seen.formSignals.at(-1)!;
        signal.addEventListener('abort', () => ((closedBecause = signal.reason), resolve({ action: 'accept', content: {} })), { once: true });
        setTimeout(() => abort.abort('the user pressed Cancel'), 100);
      });
    const before = wire.sent().length;
    await assert.rejects(client.callTool('trigger-elicitation-request', {}, { signal: abort.signal }), (e: unknown) => McpLocalError.is(e, 'cancelled'));
    assert.ok(McpLocalError.is(closedBecause, 'cancelled') && /tools\/call request .* has ended/.test(closedBecause.message), String(closedBecause));
    const sentSince = wire.sent().slice(before);
    const elicitId = wire.received().find((m) => m.method === 'elicitation/create' && sentSince.some((s) => s.id === m.id))?.id;
    const answer = sentSince.find((m) => m.id === elicitId && m.method === undefined);
    assert.ok(answer?.error, 'an error answers the elicitation');
    assert.equal(sentSince.filter((m) => m.id === elicitId && m.result).length, 0, 'no accept goes out for a cancelled call');
    // The service logs once its dialog's promise settled.
    await waitFor(() => seen.log.some((l) => /elicitation #\S+: closed: the tools\/call request .* has ended; MCP Host answers with an error/.test(l)), 2000, 'the log line');
  });

  test('elicitation declined and cancelled: each shows in the tool result', { timeout: 20_000 }, async () => {
    user.form = () => ({ action: 'decline' });
    const declined = await client.callTool('trigger-elicitation-request', {});
    assert.match(declined.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n'), /❌ User declined to provide the requested information\./);
    user.form = () => ({ action: 'cancel' });
    const cancelled = await client.callTool('trigger-elicitation-request', {});
    assert.match(cancelled.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n'), /⚠️ User cancelled the elicitation dialog\./);
    const answers = wire.sent().filter((m) => m.result && typeof m.result.action === 'string').map((m) => m.result);
    assert.deepEqual(answers.slice(-2), [{ action: 'decline' }, { action: 'cancel' }], 'no content unless accepted');
  });

  test('URL elicitation: opened only after consent, then accept; declined: never opened', { timeout: 20_000 }, async () => {
    user.url = () => 'open';
    const opened = await client.callTool('trigger-url-elicitation', { url: 'https://example.com/authorize?x=1', elicitationId: 'el-1' });
    assert.match(opened.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n'), /✅ User completed the URL elicitation flow\.\nElicitation ID: el-1/);
    assert.deepEqual(seen.opened, ['https://example.com/authorize?x=1']);
    assert.equal(seen.urls.at(-1)!.url.domain, 'example.com');
    assert.ok(elicitation.completions.isPending(SERVER.id, 'el-1'), 'waiting for notifications/elicitation/complete');

    user.url = () => 'decline';
    const declined = await client.callTool('trigger-url-elicitation', { url: 'http://xn--80ak6aa92e.com/login', elicitationId: 'el-2' });
    assert.match(declined.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n'), /❌ User declined to open the URL \(Elicitation ID: el-2\)/);
    assert.deepEqual(seen.opened, ['https://example.com/authorize?x=1'], 'the declined URL was not opened');
    assert.deepEqual(new Set(seen.urls.at(-1)!.url.warnings.map((w) => w.kind)), new Set(['not-https', 'punycode', 'homograph']));
  });

  test('-32042 from a tool call: the listed URL is offered, opened with consent, and the retry succeeds', { timeout: 20_000 }, async () => {
    const args = { url: 'https://example.org/next', errorPath: true };
    const error = await client.callTool('trigger-url-elicitation', args).then(
      () => assert.fail('expected the -32042 error'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ResponseError && error.code === -32042, String(error));
    user.url = () => 'open';
    user.retry = true;
    const before = seen.opened.length;
    assert.equal(await elicitation.handleUrlElicitationRequired(SERVER, error), true);
    assert.deepEqual(seen.opened.slice(before), ['https://modelcontextprotocol.io/'], 'the prerequisite URL from error.data.elicitations');
    assert.equal(seen.urls.at(-1)!.fromToolError, true);
    const retried = await client.callTool('trigger-url-elicitation', args);
    assert.match(retried.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n'), /✅ User completed the URL elicitation flow/);

    // Declining the prerequisite: no retry.
    const again = await client.callTool('trigger-url-elicitation', { ...args, url: 'https://example.org/other' }).catch((e: unknown) => e);
    user.url = () => 'decline';
    assert.equal(await elicitation.handleUrlElicitationRequired(SERVER, again), false);
    assert.equal(await elicitation.handleUrlElicitationRequired(SERVER, new Error('unrelated')), false);
  });

  test('every frame of the session matches the official 2025-11-25 schema; every exchange was logged', () => {
    assert.equal(client.protocolVersion, '2025-11-25');
    assert.deepEqual(wire.problems('2025-11-25'), []);
    assert.ok(wire.received('sampling/createMessage').length >= 3);
    assert.ok(wire.received('elicitation/create').length >= 5);
    for (const pattern of [/sampling #\S+: request: 1 message, maxTokens 64, temperature 0\.7/, /approved by the user, edited: system prompt/, /answer from scripted-model-1/, /rejected by the user → error -1/, /elicitation #\S+: accepted: /, /declined by the user/, /the user opened https:\/\/example\.com\/authorize\?x=1/]) {
      assert.ok(seen.log.some((l) => pattern.test(l)), `${pattern} in the log:\n${seen.log.join('\n')}`);
    }
  });
});
