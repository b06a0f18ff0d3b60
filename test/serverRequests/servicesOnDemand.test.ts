import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DialogQueue } from '../../src/serverRequests/dialogQueue';
import { ElicitationService } from '../../src/serverRequests/elicitation';
import type { SamplingService } from '../../src/serverRequests/sampling';
import { clientCapabilitiesFor, requestHandlersFor } from '../../src/serverRequests/attach';
import { LoadedServerRequestServices, servicesOnDemand } from '../../src/serverRequests/servicesOnDemand';

const SERVER = { id: 'srv', name: 'Server' };

/** Real services behind a counted load, as extension/serverRequests/createServerRequests.ts has them. */
function onDemand() {
  const notices: string[] = [];
  let loads = 0;
  let loaded: LoadedServerRequestServices | undefined;
  const elicitation = new ElicitationService({
    queue: new DialogQueue(() => 3),
    prompter: { form: async () => ({ action: 'accept', content: { name: 'Ada' } }), url: async () => 'decline', awaitCompletion: async () => true, notify: (_s, level, text) => notices.push(`${level}: ${text}`) },
    log: () => {},
    modes: ['form', 'url'],
    openUrl: async () => true,
  });
  const sampling = { handler: () => async () => ({ role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' }) } as unknown as SamplingService;
  const load = async () => (loads++, (loaded = { sampling, elicitation }));
  const services = servicesOnDemand(load, () => loaded, ['form', 'url']);
  return { services, elicitation, notices, loads: () => loads };
}

const ctx = { id: 1, signal: new AbortController().signal, waitOnUser: () => {} } as never;

describe('servicesOnDemand', () => {
  test('the capabilities and handlers a client is wired with need no load; the first request loads the services and gets their answer', async () => {
    const h = onDemand();
    assert.deepEqual(clientCapabilitiesFor(h.services), clientCapabilitiesFor({ sampling: h.services.sampling, elicitation: h.elicitation }));
    const handlers = requestHandlersFor(SERVER, h.services);
    h.services.elicitation.completions.forget(SERVER.id);
    assert.equal(h.loads(), 0);
    const form = { mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } };
    assert.deepEqual(await handlers['elicitation/create'](form, ctx), { action: 'accept', content: { name: 'Ada' } });
    assert.deepEqual(await handlers['sampling/createMessage']({}, ctx), { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' });
    assert.equal(h.loads(), 2, 'each request asks the load (OnDemand makes it one)');
  });

  test('a completion notice that comes before the services loaded reaches them once loaded', async () => {
    const h = onDemand();
    h.elicitation.completions.expect({ serverId: SERVER.id, elicitationId: 'e1', domain: 'example.com' } as never);
    h.services.elicitation.onCompleteNotification(SERVER, { elicitationId: 'e1' });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(h.notices, ['info: Server: the step at example.com is complete.']);
    assert.equal(h.elicitation.completions.isPending(SERVER.id, 'e1'), false);
  });
});
