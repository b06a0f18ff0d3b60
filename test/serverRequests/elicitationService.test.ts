import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ResponseError, WireError } from '../../src/protocol/errors';
import { ErrorCodes } from '../../src/protocol/messages';
import { DialogQueue } from '../../src/serverRequests/dialogQueue';
import { ElicitUrlView, ElicitationCompletions, ElicitationPrompter, ElicitationService, FormAnswer, UrlAnswer } from '../../src/serverRequests/elicitation';

const SERVER = { id: 'srv', name: 'Server' };

function harness(script: { form?: () => FormAnswer | Promise<FormAnswer>; url?: (v: ElicitUrlView) => UrlAnswer | Promise<UrlAnswer>; wait?: (completed: Promise<void>) => Promise<boolean> } = {}, opts: { opens?: boolean; maxQueued?: number; modes?: Array<'form' | 'url'> } = {}) {
  const opened: string[] = [];
  const notices: string[] = [];
  const log: string[] = [];
  const prompter: ElicitationPrompter = {
    form: async () => (script.form ? script.form() : { action: 'cancel' }),
    url: async (_s, v) => (script.url ? script.url(v) : 'decline'),
    awaitCompletion: async (_s, _v, completed) => (script.wait ? script.wait(completed) : true),
    notify: (_s, level, text) => notices.push(`${level}: ${text}`),
  };
  const service = new ElicitationService({
    queue: new DialogQueue(() => opts.maxQueued ?? 3),
    prompter,
    log: (_id, level, text) => log.push(`${level} ${text}`),
    modes: opts.modes ?? ['form', 'url'],
    openUrl: async (href) => {
      opened.push(href);
      return opts.opens ?? true;
    },
  });
  let id = 0;
  const call = (params: unknown, signal = new AbortController().signal) => service.handle(SERVER, params, { id: ++id, signal });
  return { service, call, opened, notices, log };
}

const FORM = { mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' }, n: { type: 'integer', default: 3 } }, required: ['name'] } };
const url = (u: string, elicitationId = 'e1') => ({ mode: 'url', message: 'Sign in', elicitationId, url: u });

describe('ElicitationService', () => {
  test('capability lists the declared modes', () => {
    assert.deepEqual(harness().service.capability(), { form: {}, url: {} });
    assert.deepEqual(harness({}, { modes: ['form'] }).service.capability(), { form: {} });
  });

  test('form: accept returns checked content with defaults; decline and cancel carry no content', async () => {
    assert.deepEqual(await harness({ form: () => ({ action: 'accept', content: { name: 'Ada' } }) }).call(FORM), { action: 'accept', content: { name: 'Ada', n: 3 } });
    assert.deepEqual(await harness({ form: () => ({ action: 'decline' }) }).call(FORM), { action: 'decline' });
    assert.deepEqual(await harness({ form: () => ({ action: 'cancel' }) }).call(FORM), { action: 'cancel' });
  });

  test('form: content that does not match the schema never reaches the server', async () => {
    const h = harness({ form: () => ({ action: 'accept', content: { n: 'three' } as never }) });
    await assert.rejects(h.call(FORM), (e: unknown) => e instanceof WireError && e.code === -32603);
    assert.ok(h.log.some((l) => /does not match the schema/.test(l)));
  });

  test('a mode not declared is -32602 and is logged', async () => {
    const h = harness({}, { modes: ['form'] });
    await assert.rejects(h.call(url('https://example.com')), (e: unknown) => e instanceof WireError && e.code === ErrorCodes.InvalidParams);
    assert.ok(h.log.some((l) => /refused: Elicitation mode "url" was not declared/.test(l)));
  });

  test('URL: opened only after consent; accept then; the completion notification is matched by id', async () => {
    const h = harness({ url: () => 'open' });
    const completed: string[] = [];
    h.service.completions.onDidComplete((e) => completed.push(e.elicitationId));
    assert.deepEqual(await h.call(url('https://login.example.com/a?b=c')), { action: 'accept' });
    assert.deepEqual(h.opened, ['https://login.example.com/a?b=c']);
    h.service.onCompleteNotification(SERVER, { elicitationId: 'unknown' });
    h.service.onCompleteNotification(SERVER, {});
    assert.deepEqual(completed, [], 'unknown ids and malformed notifications are ignored');
    h.service.onCompleteNotification(SERVER, { elicitationId: 'e1' });
    assert.deepEqual(completed, ['e1']);
    assert.ok(h.notices.some((n) => /step at example\.com is complete/.test(n)));
    h.service.onCompleteNotification(SERVER, { elicitationId: 'e1' });
    assert.deepEqual(completed, ['e1'], 'a second completion of the same id is ignored');
  });

  test('URL: declined or cancelled → never opened; VS Code refusing to open → cancel', async () => {
    const d = harness({ url: () => 'decline' });
    assert.deepEqual(await d.call(url('https://example.com')), { action: 'decline' });
    const c = harness({ url: () => 'cancel' });
    assert.deepEqual(await c.call(url('https://example.com')), { action: 'cancel' });
    assert.deepEqual([...d.opened, ...c.opened], []);
    const refused = harness({ url: () => 'open' }, { opens: false });
    assert.deepEqual(await refused.call(url('https://example.com')), { action: 'cancel' });
  });

  test('URL: a scheme other than http(s) is refused with -32602 and the user is told; no dialog', async () => {
    let asked = false;
    const h = harness({ url: () => ((asked = true), 'open') });
    await assert.rejects(h.call(url('javascript:alert(1)')), (e: unknown) => e instanceof WireError && e.code === ErrorCodes.InvalidParams && /only http and https/.test(e.message));
    assert.equal(asked, false);
    assert.deepEqual(h.opened, []);
    assert.equal(h.notices.length, 1);
  });

  test('flood: past maxQueued → -32000; cancellation closes the open dialog', async () => {
    let aborted = false;
    const h = harness({ form: () => new Promise(() => {}) }, { maxQueued: 1 });
    const first = new AbortController();
    first.signal.addEventListener('abort', () => (aborted = true));
    const p1 = h.call(FORM, first.signal);
    const p2 = h.call(FORM);
    await assert.rejects(h.call(FORM), (e: unknown) => e instanceof WireError && e.code === ErrorCodes.TooManyRequests);
    first.abort('server timeout');
    await assert.rejects(p1);
    assert.ok(aborted);
    assert.ok(h.log.some((l) => /cancelled by the server \(server timeout\)/.test(l)));
    // The log line says the limit is shared, not that this was a sampling request.
    const refused = h.log.find((l) => /refused: 1 request already waits behind the open dialog/.test(l));
    assert.ok(refused, h.log.join('\n'));
    assert.match(refused, /sampling and elicitation requests share this limit: setting mcpHost\.sampling\.maxQueued\) → error -32000/);
    void p2.catch(() => {});
  });

  test('URL: a completion that arrives before the opener returns still counts; a failed open forgets the id', async () => {
    const completed: string[] = [];
    const early = new ElicitationService({
      queue: new DialogQueue(() => 3),
      prompter: { form: async () => ({ action: 'cancel' }), url: async () => 'open', awaitCompletion: async () => true, notify: () => {} },
      log: () => {},
      modes: ['url'],
      // The page reports the step done while VS Code is still opening it.
      openUrl: async () => {
        early.onCompleteNotification(SERVER, { elicitationId: 'fast' });
        return true;
      },
    });
    early.completions.onDidComplete((e) => completed.push(e.elicitationId));
    assert.deepEqual(await early.handle(SERVER, url('https://example.com/x', 'fast'), { id: 1, signal: new AbortController().signal }), { action: 'accept' });
    assert.deepEqual(completed, ['fast']);
    assert.equal(early.completions.isPending(SERVER.id, 'fast'), false);

    const h = harness({ url: () => 'open' }, { opens: false });
    assert.deepEqual(await h.call(url('https://example.com/y', 'never-opened')), { action: 'cancel' });
    assert.equal(h.service.completions.isPending(SERVER.id, 'never-opened'), false);
    const throwing = new ElicitationService({
      queue: new DialogQueue(() => 3),
      prompter: { form: async () => ({ action: 'cancel' }), url: async () => 'open', awaitCompletion: async () => true, notify: () => {} },
      log: () => {},
      modes: ['url'],
      openUrl: () => Promise.reject(new Error('no browser')),
    });
    assert.deepEqual(await throwing.handle(SERVER, url('https://example.com/z', 'z'), { id: 1, signal: new AbortController().signal }), { action: 'cancel' });
    assert.equal(throwing.completions.isPending(SERVER.id, 'z'), false);
  });

  test('-32042: every listed URL is offered; the retry waits for the completion notification', async () => {
    let waited: Promise<void> | undefined;
    const h = harness({ url: () => 'open', wait: (completed) => ((waited = completed), completed.then(() => true)) });
    const error = new ResponseError('tools/call', -32042, 'URL elicitation required', {
      elicitations: [url('https://a.example/x', 'a'), url('https://b.example/y', 'b')],
    });
    const retry = h.service.handleUrlElicitationRequired(SERVER, error);
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(h.opened, ['https://a.example/x', 'https://b.example/y']);
    let settled = false;
    void waited!.then(() => (settled = true));
    h.service.onCompleteNotification(SERVER, { elicitationId: 'a' });
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(settled, false, 'one of two completed');
    h.service.onCompleteNotification(SERVER, { elicitationId: 'b' });
    assert.equal(await retry, true);
  });

  test('-32042: declining any URL means no retry; other errors are not handled', async () => {
    let n = 0;
    const h = harness({ url: () => (n++ === 0 ? 'open' : 'decline') });
    const error = { code: -32042, data: { elicitations: [url('https://a.example', 'a'), url('https://b.example', 'b')] } };
    assert.equal(await h.service.handleUrlElicitationRequired(SERVER, error), false);
    assert.deepEqual(h.opened, ['https://a.example/']);
    assert.equal(await h.service.handleUrlElicitationRequired(SERVER, new ResponseError('tools/call', -32602, 'bad', {})), false);
    assert.equal(await harness({ url: () => 'open' }, { modes: ['form'] }).service.handleUrlElicitationRequired(SERVER, error), false, 'not without the url mode');
  });
});

describe('ElicitationCompletions', () => {
  test('waitAll resolves when all complete; ids not pending count as complete; abort rejects', async () => {
    const c = new ElicitationCompletions();
    c.expect({ serverId: 's', elicitationId: 'x', domain: 'd', message: 'm', openedAt: 0 });
    await c.waitAll('s', ['never-opened'], new AbortController().signal);
    const ctl = new AbortController();
    const waiting = c.waitAll('s', ['x'], ctl.signal);
    ctl.abort('stop');
    await assert.rejects(waiting);
    const again = c.waitAll('s', ['x'], new AbortController().signal);
    assert.ok(c.complete('s', 'x'));
    await again;
    assert.equal(c.complete('s', 'x'), undefined);
  });

  test('a server that stops forgets its pending ids', () => {
    const c = new ElicitationCompletions();
    c.expect({ serverId: 's', elicitationId: 'x', domain: 'd', message: 'm', openedAt: 0 });
    c.forget('s');
    assert.equal(c.isPending('s', 'x'), false);
  });
});
