// Multi round-trip input from a modern server (protocol 2026-07-28, the SDK 2.x eras fixture)
// answered by the host's own services, wired as the extension wires them: the handlers given to
// the client when it is created (requestHandlersFor), a scripted "user" at the dialogs and a scripted
// language model standing in for vscode.lm. The same services answer the same tools on a legacy
// session, where they arrive as server-to-client requests.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { McpClient, ProtocolPreference } from '../../src/client';
import { DialogQueue, ElicitFormView, ElicitationPrompter, ElicitationService, LanguageModels, SamplingPolicyStore, SamplingPrompter, SamplingRequestView, SamplingService, attachServerRequests, clientCapabilitiesFor, requestHandlersFor } from '../../src/serverRequests';
import { StdioTransport } from '../../src/transport/stdio';
import { WireRecorder, fixture } from '../client/support';

const SERVER = { id: 'test::eras', name: 'eras' };

function host() {
  const seen = { sampling: [] as SamplingRequestView[], forms: [] as ElicitFormView[] };
  const prompterS: SamplingPrompter = {
    open(_server, view) {
      seen.sampling.push(view);
      return { decide: async () => ({ kind: 'approve' }), generating: () => {}, review: async (a) => ({ kind: 'send', text: a.text }), failed: () => {}, close: () => {} };
    },
    pickModel: async (_s, models) => models[0],
    notify: () => {},
  };
  const model: LanguageModels = {
    models: async () => [{ id: 'scripted-model-1', name: 'Scripted', family: 'scripted', vendor: 'tests' }],
    async generate(_m, run) {
      const last = run.messages[run.messages.length - 1].parts.find((p) => p.type === 'text');
      return { text: `model read: ${last && last.type === 'text' ? last.text : '?'}`, stopReason: 'endTurn' };
    },
  };
  const prompterE: ElicitationPrompter = {
    async form(_server, view) {
      seen.forms.push(view);
      return { action: 'accept', content: { name: 'Grace' } };
    },
    url: async () => 'decline',
    awaitCompletion: async () => false,
    notify: () => {},
  };
  const queue = new DialogQueue(() => 3);
  const log = () => {};
  const sampling = new SamplingService({ queue, policies: new SamplingPolicyStore({ get: () => undefined, update: async () => {} }), prompter: prompterS, models: model, log });
  const elicitation = new ElicitationService({ queue, prompter: prompterE, log, modes: ['form'], openUrl: async () => false });
  return { services: { sampling, elicitation }, seen, queue };
}

async function session(protocol: ProtocolPreference, args: string[]) {
  const h = host();
  const client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' }, capabilities: clientCapabilitiesFor(h.services), handlers: requestHandlersFor(SERVER, h.services), protocol });
  attachServerRequests(client, SERVER, h.services);
  const wire = new WireRecorder(client);
  await client.connect(new StdioTransport({ command: process.execPath, args: [fixture('eras.mjs'), ...args], closeGraceMs: 500, termGraceMs: 500 }));
  return { ...h, client, wire };
}

const text = (r: { content: any[] }) => r.content.map((c) => c.text ?? '').join('');

describe('input requests answered by the host services', () => {
  for (const [protocol, args, era] of [['auto', ['--modern-only'], 'modern'], ['legacy', [], 'legacy']] as const) {
    test(`${era}: sampling goes through the sampling dialog and the model, elicitation through the form`, async () => {
      const s = await session(protocol, [...args]);
      try {
        assert.equal(s.client.era, era);
        assert.equal(text(await s.client.callTool('ask-sample')), 'sampled: model read: Say hi');
        assert.equal(s.seen.sampling.length, 1, 'the user saw one sampling dialog');
        assert.match(text(await s.client.callTool('ask-name')), /^elicited: accept \{"name":"Grace"\}/);
        assert.equal(s.seen.forms.length, 1, 'the user saw one form');
        assert.equal(s.seen.forms[0].message, 'Your name?');
        if (era === 'modern') {
          assert.equal(s.wire.received('sampling/createMessage').length + s.wire.received('elicitation/create').length, 0, 'no server-to-client requests in the modern era');
          assert.deepEqual(s.wire.problems('2026-07-28'), []);
        } else {
          assert.equal(s.wire.received('sampling/createMessage').length, 1);
          assert.deepEqual(s.wire.problems('2025-11-25'), []);
        }
      } finally {
        await s.client.close();
        s.queue.dispose();
      }
    });
  }

  test('a modern server needing a capability the client did not declare: -32021, naming it', async () => {
    const client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' }, protocol: 'modern' });
    try {
      await client.connect(new StdioTransport({ command: process.execPath, args: [fixture('eras.mjs'), '--modern-only'], closeGraceMs: 500, termGraceMs: 500 }));
      await assert.rejects(client.callTool('ask-sample'), (e: Error) => /-32021/.test(e.message) && /sampling/.test(e.message));
    } finally {
      await client.close();
    }
  });
});
