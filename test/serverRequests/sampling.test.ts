import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { WireError } from '../../src/protocol/errors';
import { ErrorCodes } from '../../src/protocol/messages';
import { DialogQueue } from '../../src/serverRequests/dialogQueue';
import { ModelInfo } from '../../src/serverRequests/modelSelection';
import { SamplingPolicyStore } from '../../src/serverRequests/policy';
import {
  LanguageModels,
  SamplingAnswerView,
  SamplingDialog,
  SamplingPrompter,
  SamplingRequestDecision,
  SamplingRequestView,
  SamplingResponseDecision,
  SELF_ANSWER_MODEL,
  SamplingRun,
  SamplingService,
  applyEdits,
  parseCreateMessage,
  samplingView,
} from '../../src/serverRequests/sampling';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const SERVER = { id: 'ws::everything', name: 'everything' };

function params(extra: Record<string, unknown> = {}) {
  return { messages: [{ role: 'user', content: { type: 'text', text: 'What is 2+2?' } }], maxTokens: 50, systemPrompt: 'Be brief.', ...extra };
}

function wireCode(code: number, pattern?: RegExp) {
  return (e: unknown) => e instanceof WireError && e.code === code && (!pattern || pattern.test(e.message));
}

describe('sampling requests: parsing and gating', () => {
  test('tools, toolChoice and tool_use content need sampling.tools, which the host does not declare: -32602', () => {
    assert.throws(() => parseCreateMessage(params({ tools: [{ name: 't', inputSchema: { type: 'object' } }] })), wireCode(ErrorCodes.InvalidParams, /sampling\.tools/));
    assert.throws(() => parseCreateMessage(params({ toolChoice: { mode: 'auto' } })), wireCode(ErrorCodes.InvalidParams, /sampling\.tools/));
    assert.throws(() => parseCreateMessage({ messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: '1', name: 't', input: {} }] }], maxTokens: 5 }), wireCode(ErrorCodes.InvalidParams, /tool_use/));
  });

  test('malformed requests are -32602 with the field named', () => {
    assert.throws(() => parseCreateMessage({ messages: [] , maxTokens: 5 }), wireCode(ErrorCodes.InvalidParams, /empty/));
    assert.throws(() => parseCreateMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'x' } }] }), wireCode(ErrorCodes.InvalidParams, /maxTokens is required/));
    assert.throws(() => parseCreateMessage(params({ maxTokens: 0 })), wireCode(ErrorCodes.InvalidParams, /at least 1/));
    assert.throws(() => parseCreateMessage({ messages: [{ role: 'system', content: { type: 'text', text: 'x' } }], maxTokens: 5 }), wireCode(ErrorCodes.InvalidParams));
  });

  test('the view: text parts with ids, images as data URIs only for allowed types and sound base64', () => {
    const p = parseCreateMessage({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', data: PNG, mimeType: 'image/PNG' }] },
        { role: 'assistant', content: { type: 'image', data: PNG, mimeType: 'image/svg+xml' } },
        { role: 'user', content: [{ type: 'audio', data: '!!!', mimeType: 'audio/wav' }, { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' }] },
      ],
      maxTokens: 10,
      includeContext: 'thisServer',
      modelPreferences: { hints: [{ name: 'claude' }, {}], intelligencePriority: 0.8 },
      metadata: { a: 1 },
    });
    const v = samplingView('7', p);
    assert.deepEqual(v.messages[0].parts[0], { kind: 'text', id: 'm0p0', text: 'look' });
    assert.deepEqual(v.messages[0].parts[1], { kind: 'image', mimeType: 'image/png', bytes: 70, dataUri: `data:image/png;base64,${PNG}` });
    assert.equal(v.messages[1].parts[0].kind, 'unshown', 'SVG is never an image');
    assert.equal(v.messages[2].parts[0].kind, 'unshown', 'broken base64');
    assert.equal(v.messages[2].parts[1].kind, 'audio');
    assert.deepEqual(v.modelPreferences, { hints: ['claude'], intelligencePriority: 0.8 });
    assert.equal(v.includeContext, 'thisServer');
    assert.equal(v.metadata, '{\n  "a": 1\n}');
  });

  test('edits replace texts, the system prompt and maxTokens, and are listed for the log', () => {
    const p = parseCreateMessage(params());
    assert.deepEqual(applyEdits(p, {}).edited, []);
    const { run, edited } = applyEdits(p, { texts: { m0p0: 'What is 3+3?' }, systemPrompt: '', maxTokens: 20 });
    assert.deepEqual(run, { messages: [{ role: 'user', parts: [{ type: 'text', text: 'What is 3+3?' }] }], maxTokens: 20 });
    assert.deepEqual(edited, ['message 1 text', 'system prompt', 'maxTokens 50 → 20']);
  });
});

// ---- the service, with a scripted user and a scripted model ----

class Memento {
  data = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }
  update(key: string, value: unknown): Promise<void> {
    this.data.set(key, value);
    return Promise.resolve();
  }
}

interface Script {
  decide?: (view: SamplingRequestView) => SamplingRequestDecision | Promise<SamplingRequestDecision>;
  review?: (answer: SamplingAnswerView) => SamplingResponseDecision;
  pick?: (models: readonly ModelInfo[]) => ModelInfo | undefined;
}

function harness(script: Script, models: ModelInfo[] = [{ id: 'echo-1', name: 'Echo', family: 'echo', vendor: 'test' }], maxQueued = 3) {
  const events: string[] = [];
  const runs: SamplingRun[] = [];
  const notices: string[] = [];
  const prompter: SamplingPrompter = {
    open(_server, view, signal): SamplingDialog {
      events.push(`open ${view.requestId}${view.plannedModel ? ` planned=${view.plannedModel.label}` : ''}`);
      signal.addEventListener('abort', () => events.push(`abort ${view.requestId}`));
      let shown = view;
      return {
        decide: async () => (script.decide ? script.decide(shown) : { kind: 'approve' }),
        offerSelfAnswer: (reason) => {
          events.push(`self-answer offered: ${reason}`);
          shown = { ...view, modelsAvailable: false, noModelReason: reason };
        },
        generating: (m) => events.push(`generating ${m.id}`),
        review: async (a) => (script.review ? script.review(a) : { kind: 'send', text: a.text }),
        failed: (t) => events.push(`failed ${t}`),
        close: () => events.push(`close ${view.requestId}`),
      };
    },
    pickModel: async (_s, list) => {
      events.push('pick');
      return script.pick ? script.pick(list) : list[0];
    },
    notify: (_s, level, text) => notices.push(`${level}: ${text}`),
    ranUnattended: (_s, m) => events.push(`unattended ${m.id}`),
    refusedUnattended: () => events.push('refused'),
  };
  const lm: LanguageModels & { fail?: string; silent?: boolean } = {
    models: async () => models,
    async generate(model, run) {
      runs.push(run);
      if (lm.fail) throw new Error(lm.fail);
      // A model that is not signed in (or has no quota) can end its turn with nothing.
      if (lm.silent) return { text: '', stopReason: 'endTurn' };
      const last = run.messages[run.messages.length - 1].parts.find((p) => p.type === 'text');
      return { text: `${model.id} says: ${last && last.type === 'text' ? last.text : ''}`, stopReason: 'endTurn' };
    },
  };
  const log: string[] = [];
  const policies = new SamplingPolicyStore(new Memento());
  const service = new SamplingService({ queue: new DialogQueue(() => maxQueued), policies, prompter, models: lm, log: (_id, level, text) => log.push(`${level} ${text}`) });
  let id = 0;
  const call = (p: unknown = params(), signal = new AbortController().signal) => service.handle(SERVER, p, { id: ++id, signal });
  return { service, call, events, runs, notices, log, lm, policies };
}

describe('SamplingService', () => {
  test('approved: the (edited) request runs on the model and its answer is returned in CreateMessageResult shape', async () => {
    const h = harness({ decide: () => ({ kind: 'approve', edits: { texts: { m0p0: 'edited question' } } }) });
    const result = await h.call();
    assert.deepEqual(result, { role: 'assistant', content: { type: 'text', text: 'echo-1 says: edited question' }, model: 'echo-1', stopReason: 'endTurn' });
    assert.equal(h.runs[0].systemPrompt, 'Be brief.');
    assert.deepEqual(h.events, ['open 1', 'pick', 'generating echo-1', 'close 1']);
    assert.ok(h.log.some((l) => /approved by the user, edited: message 1 text/.test(l)), h.log.join('\n'));
    assert.ok(h.log.some((l) => /answer from echo-1/.test(l)));
  });

  test('rejected: -1, and the model never runs', async () => {
    const h = harness({ decide: () => ({ kind: 'reject' }) });
    await assert.rejects(h.call(), wireCode(ErrorCodes.UserRejected, /User rejected/));
    assert.equal(h.runs.length, 0);
    assert.deepEqual(h.events, ['open 1', 'close 1']);
  });

  test('the answer can be edited or rejected before it reaches the server', async () => {
    const edited = harness({ review: (a) => ({ kind: 'send', text: `${a.text} (checked)` }) });
    assert.equal((await edited.call()).content.text, 'echo-1 says: What is 2+2? (checked)');
    const rejected = harness({ review: () => ({ kind: 'reject' }) });
    await assert.rejects(rejected.call(), wireCode(ErrorCodes.UserRejected, /response/));
  });

  test('policies: never → -1 without a dialog; always/session → no dialog; a decision can set them', async () => {
    const h = harness({ decide: () => ({ kind: 'approve', remember: 'allowAlways' }) });
    await h.call();
    assert.equal(h.policies.get(SERVER.id), 'allowAlways');
    h.events.length = 0;
    await h.call();
    assert.equal(h.events.length, 1, 'no dialog, no pick (the earlier pick is remembered)');
    assert.match(h.events[0], /^unattended /, 'but a passing hint that it ran');
    h.events.length = 0;
    await h.policies.set(SERVER.id, SERVER.name, 'never');
    await assert.rejects(h.call(), wireCode(ErrorCodes.UserRejected));
    assert.deepEqual(h.events, ['refused'], 'no dialog, a passing hint of the refusal');
    assert.ok(h.log.some((l) => /rejected by your setting/.test(l)));

    const n = harness({ decide: () => ({ kind: 'reject', remember: 'never' }) });
    await assert.rejects(n.call(), wireCode(ErrorCodes.UserRejected));
    assert.equal(n.policies.get(SERVER.id), 'never');
  });

  test('model: the server’s hints choose it and the dialog says so; without a match the user picks once per session', async () => {
    const models = [
      { id: 'gpt-4o', name: 'GPT-4o', family: 'gpt-4o', vendor: 'v' },
      { id: 'claude-sonnet', name: 'Claude Sonnet', family: 'claude', vendor: 'v' },
    ];
    const h = harness({ pick: (list) => list[0] }, models);
    const r = await h.call(params({ modelPreferences: { hints: [{ name: 'sonnet' }] } }));
    assert.equal(r.model, 'claude-sonnet');
    assert.deepEqual(h.events[0], 'open 1 planned=Claude Sonnet (v · claude)');
    assert.equal(h.events.includes('pick'), false);
    h.events.length = 0;
    assert.equal((await h.call()).model, 'gpt-4o');
    assert.ok(h.events.includes('pick'));
    h.events.length = 0;
    assert.equal((await h.call()).model, 'gpt-4o');
    assert.equal(h.events.includes('pick'), false, 'the pick is remembered for the server');
    assert.match(h.events[0], /planned=GPT-4o/);
  });

  test('no model picked: -1', async () => {
    const h = harness({ pick: () => undefined });
    await assert.rejects(h.call(), wireCode(ErrorCodes.UserRejected, /no model/));
  });

  test('no language model available: the dialog still opens (even when allowed without asking), the user answers it themselves as a model name of their choice', async () => {
    const h = harness({ decide: (view) => (view.modelsAvailable === false ? { kind: 'answer', text: 'Four.', model: ' my-own-words ' } : { kind: 'reject' }) }, []);
    await h.policies.set(SERVER.id, SERVER.name, 'allowSession');
    const result = await h.call();
    assert.deepEqual(result, { role: 'assistant', content: { type: 'text', text: 'Four.' }, model: 'my-own-words', stopReason: 'endTurn' });
    assert.deepEqual(h.events, ['open 1', 'close 1'], 'a dialog, no model, no picker');
    assert.equal(h.runs.length, 0);
    assert.ok(h.log.some((l) => /answered by the user as model "my-own-words"/.test(l)), h.log.join('\n'));
    assert.equal(h.notices.length, 0);

    const blank = harness({ decide: () => ({ kind: 'answer', text: 'x', model: '' }) }, []);
    assert.equal((await blank.call()).model, SELF_ANSWER_MODEL, 'an empty name becomes the default');
    const rejected = harness({ decide: () => ({ kind: 'reject' }) }, []);
    await assert.rejects(rejected.call(), wireCode(ErrorCodes.UserRejected));
    const approved = harness({ decide: () => ({ kind: 'approve' }) }, []);
    await assert.rejects(approved.call(), wireCode(ErrorCodes.InternalError, /No language model is available/), 'approving without a model is an error, not a hang');
  });

  test('with models available the user may still answer themselves: the model never runs', async () => {
    const h = harness({ decide: () => ({ kind: 'answer', text: 'By hand.', model: 'human' }) });
    const result = await h.call();
    assert.equal(result.content.text, 'By hand.');
    assert.equal(result.model, 'human');
    assert.equal(h.runs.length, 0);
    assert.deepEqual(h.events, ['open 1', 'close 1']);
  });

  test('a model that answers nothing is an error the user sees, with their own answer offered; it is not offered again', async () => {
    const models = [{ id: 'auto', name: 'Auto', family: 'auto', vendor: 'copilotcli' }];
    const h = harness({ decide: (view) => (view.modelsAvailable === false ? { kind: 'answer', text: 'Four.', model: 'human' } : { kind: 'approve' }) }, models);
    h.lm.silent = true;
    const result = await h.call();
    // The empty text never reaches the server as an answer: the person's does.
    assert.deepEqual(result, { role: 'assistant', content: { type: 'text', text: 'Four.' }, model: 'human', stopReason: 'endTurn' });
    assert.deepEqual(h.events, ['open 1', 'pick', 'generating auto', 'self-answer offered: The model Auto (copilotcli · auto) answered with no text (stopReason endTurn), so there is nothing to send. Answer the request yourself, or reject it.', 'close 1']);
    assert.ok(h.log.some((l) => /^warn sampling #1: auto answered with no text/.test(l)), h.log.join('\n'));
    // The next request does not offer it as if it could answer: the person answers, told why.
    h.events.length = 0;
    const again = await h.call();
    assert.equal(again.content.text, 'Four.');
    assert.equal(h.runs.length, 1, 'the model did not run again');
    assert.deepEqual(h.events, ['open 2', 'close 2']);
    assert.ok(h.log.some((l) => /not offered: Auto \(copilotcli · auto\) answered with no text \(stopReason endTurn\) earlier in this session/.test(l)), h.log.join('\n'));

    // Rejected after the empty answer: -1. Allowed without a dialog: -32603 and a notice, never an empty answer.
    const rejected = harness({ decide: (view) => (view.modelsAvailable === false ? { kind: 'reject' } : { kind: 'approve' }) }, models);
    rejected.lm.silent = true;
    await assert.rejects(rejected.call(), wireCode(ErrorCodes.UserRejected));
    const unattended = harness({}, models);
    unattended.lm.silent = true;
    await unattended.policies.set(SERVER.id, SERVER.name, 'allowSession');
    await assert.rejects(unattended.call(), wireCode(ErrorCodes.InternalError, /returned no text/));
    assert.match(unattended.notices.join('\n'), /^error: Sampling for .*: the model Auto \(copilotcli · auto\) answered with no text/);
  });

  test('the model fails: -32603 with its message, shown in the dialog', async () => {
    const h = harness({});
    h.lm.fail = 'quota exceeded';
    await assert.rejects(h.call(), wireCode(ErrorCodes.InternalError, /quota exceeded/));
    assert.ok(h.events.includes('failed The model failed: quota exceeded'));
  });

  test('one dialog at a time per server; a flood past maxQueued gets -32000; a cancelled waiting request leaves the line', async () => {
    let release!: () => void;
    const first = new Promise<SamplingRequestDecision>((r) => (release = () => r({ kind: 'approve' })));
    const h = harness({ decide: (v) => (v.requestId === '1' ? first : { kind: 'approve' }) }, undefined, 2);
    const p1 = h.call();
    await new Promise((r) => setImmediate(r));
    const cancel = new AbortController();
    const p2 = h.call(params(), cancel.signal);
    const p3 = h.call();
    await assert.rejects(h.call(), wireCode(ErrorCodes.TooManyRequests, /Too many requests/));
    assert.ok(h.notices.some((n) => /more sampling or elicitation requests/.test(n)));
    assert.deepEqual(h.events, ['open 1'], 'only one dialog is open');
    cancel.abort('server gave up');
    await assert.rejects(p2);
    release();
    await p1;
    await p3;
    assert.deepEqual(h.events.filter((e) => e.startsWith('open')).map((e) => e.split(' ').slice(0, 2).join(' ')), ['open 1', 'open 3'], 'the cancelled request never showed a dialog');
  });

  test('server cancellation while the dialog is open closes it', async () => {
    const h = harness({ decide: () => new Promise(() => {}) });
    const cancel = new AbortController();
    const pending = h.call(params(), cancel.signal);
    await new Promise((r) => setImmediate(r));
    cancel.abort('timeout');
    await assert.rejects(pending);
    assert.deepEqual(h.events, ['open 1', 'abort 1', 'close 1']);
    assert.ok(h.log.some((l) => /cancelled by the server \(timeout\)/.test(l)));
  });
});

describe('SamplingService: the user closes the dialog', () => {
  test('while the model works: the model request is aborted and the server gets -1', async () => {
    const closed = new AbortController();
    let modelSignal: AbortSignal | undefined;
    const service = new SamplingService({
      queue: new DialogQueue(() => 3),
      policies: new SamplingPolicyStore(new Memento()),
      prompter: {
        open: () => ({
          closed: closed.signal,
          decide: async () => ({ kind: 'approve' }),
          generating: () => setTimeout(() => closed.abort('closed'), 5),
          review: async () => ({ kind: 'reject' }),
          failed: () => {},
          close: () => {},
        }),
        pickModel: async (_s, list) => list[0],
        notify: () => {},
      },
      models: {
        models: async () => [{ id: 'slow', name: 'Slow', family: 'slow', vendor: 'test' }],
        generate: (_m, _r, signal) =>
          new Promise((_, reject) => {
            modelSignal = signal;
            signal.addEventListener('abort', () => reject(new Error('cancelled')));
          }),
      },
      log: () => {},
    });
    await assert.rejects(service.handle(SERVER, params(), { id: 1, signal: new AbortController().signal }), wireCode(ErrorCodes.UserRejected));
    assert.equal(modelSignal?.aborted, true);
  });
});
