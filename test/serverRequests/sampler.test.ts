// Elicitation against the SDK-built sampler fixture: the server itself withdraws its request.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { DialogQueue, ElicitationPrompter, ElicitationService, attachServerRequests, clientCapabilitiesFor } from '../../src/serverRequests';
import { McpClient } from '../../src/client';
import { StdioTransport } from '../../src/transport/stdio';
import { WireRecorder, waitFor } from '../client/support';

const SAMPLER = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'servers', 'sampler.mjs');
const SERVER = { id: 'test::sampler', name: 'sampler' };

test('a form the server cancels (notifications/cancelled) is closed, and no answer goes back', { timeout: 20_000 }, async () => {
  let formSignal: AbortSignal | undefined;
  const prompter: ElicitationPrompter = {
    // The "user" never answers: only the server's cancel can close this form.
    form: (_server, _view, _check, signal) => ((formSignal = signal), new Promise(() => {})),
    url: async () => 'decline',
    awaitCompletion: async () => false,
    notify: () => {},
  };
  const log: string[] = [];
  const elicitation = new ElicitationService({ queue: new DialogQueue(() => 3), prompter, log: (_id, level, text) => log.push(`${level} ${text}`), modes: ['form'], openUrl: async () => false });
  const services = { elicitation };
  const client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' }, capabilities: clientCapabilitiesFor(services) });
  const wire = new WireRecorder(client);
  attachServerRequests(client, SERVER, services);
  try {
    await client.connect(new StdioTransport({ command: process.execPath, args: [SAMPLER], closeGraceMs: 500, termGraceMs: 500 }));
    const result = await client.callTool('ask-form-briefly', {}, { timeoutMs: 10_000 });
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    assert.equal(result.isError, true, text);
    assert.match(text, /timed out/i);
    assert.equal(formSignal?.aborted, true, 'the form was closed');
    const request = wire.received('elicitation/create')[0];
    assert.ok(wire.received('notifications/cancelled').some((m) => m.params.requestId === request.id), 'the server cancelled its request');
    assert.equal(wire.sent().filter((m) => m.id === request.id).length, 0, 'no answer to a cancelled request');
    // The cancel and the tool's answer can come in one read: the service logs once its dialog's promise settled.
    await waitFor(() => log.some((l) => /cancelled by the server \(.*\); no answer is sent/.test(l)), 2000, `the log line (log: ${log.join(' | ')})`);
  } finally {
    await client.close();
  }
});
