import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { McpClient, Tool } from '../../src/client';
import { ToolCallAttempt, ToolCallEnd, callTool } from '../../src/usecases/callTool';
import { CallHistory, type NewHistoryEntry } from '../../src/usecases/history';
import { historyItem } from '../../src/usecases/panelMessages';
import type { LogSeverity } from '../../src/protocol/logging';
import { EVERYTHING, WireRecorder, connectStdio, fixture } from '../client/support';

/** Every port of the use case, recording what it was told, in order. */
function recorder(client: () => McpClient, answers: { confirm?: boolean; urlElicitation?: (error: unknown) => Promise<boolean> } = {}) {
  const events: string[] = [];
  const records: NewHistoryEntry[] = [];
  const logs: Array<[LogSeverity, string]> = [];
  const ends: ToolCallEnd[] = [];
  const starts: ToolCallAttempt[] = [];
  let progress = 0;
  const ports = {
    client,
    confirm: async (tool: Tool, reason: string) => {
      events.push(`confirm ${tool.name}: ${reason}`);
      return answers.confirm ?? true;
    },
    onStart: (a: ToolCallAttempt) => (events.push('start'), starts.push(a)),
    onProgress: () => void progress++,
    onEnd: (end: ToolCallEnd) => (events.push(`end ${end.kind}`), ends.push(end)),
    record: (entry: NewHistoryEntry) => (events.push(`record ${entry.outcome}`), records.push(entry)),
    log: (level: LogSeverity, text: string) => logs.push([level, text]),
    ...(answers.urlElicitation ? { resolveUrlElicitation: answers.urlElicitation } : {}),
  };
  return { ports, events, records, logs, ends, starts, progress: () => progress };
}

describe('the tool-call use case (server-everything)', () => {
  let client: McpClient;
  let wire: WireRecorder;
  let tools: Tool[];
  before(async () => {
    ({ client, wire } = await connectStdio(process.execPath, EVERYTHING));
    tools = await client.listTools();
  });
  after(async () => client.close());
  const tool = (name: string) => tools.find((t) => t.name === name)!;
  const calls = () => wire.sent('tools/call').length;

  test('arguments that do not fit the inputSchema: field errors, nothing sent, asked or kept', async () => {
    const before = calls();
    const r = recorder(() => client);
    const outcome = await callTool({ serverId: 'e', tool: tool('get-sum'), arguments: { mode: 'json', text: '{ "a": 1, "b": "two" }' }, origin: 'a test' }, r.ports);
    assert.deepEqual(outcome.kind === 'invalid' && outcome.errors.map((e) => [e.path, e.keyword, e.message]), [['/b', 'type', 'expected a number, got a string']]);
    const unreadable = await callTool({ serverId: 'e', tool: tool('get-sum'), arguments: { mode: 'form', state: { a: 'one', b: '2' } }, origin: 'a test' }, r.ports);
    assert.deepEqual(unreadable.kind === 'invalid' && unreadable.errors.map((e) => [e.path, e.keyword]), [['/a', 'type']], 'text in a number box');
    assert.equal(calls(), before);
    assert.deepEqual(r.events, []);
  });

  test('a call made by an MCP App is kept in the history as made by it, and its panel row says so', async () => {
    const r = recorder(() => client);
    await callTool({ serverId: 'e', tool: tool('echo'), arguments: { mode: 'value', value: { message: 'tick' } }, origin: 'Clock (from app)' }, r.ports);
    await callTool({ serverId: 'e', tool: tool('echo'), arguments: { mode: 'value', value: { message: 'tock' } }, origin: 'the tool panel' }, r.ports);
    const history = new CallHistory();
    for (const entry of r.records) history.add(entry);
    const restored = CallHistory.restore(JSON.parse(JSON.stringify(history.toJSON())));
    assert.deepEqual(restored.list('e').map((e) => historyItem(e, 'the tool panel').madeBy), [undefined, 'Clock (from app)'], 'newest first; the panel\'s own call is not marked');
  });

  test('a tool that may change things is confirmed first; declined, nothing is sent', async () => {
    const before = calls();
    const r = recorder(() => client, { confirm: false });
    const destructive: Tool = { ...tool('echo'), annotations: { destructiveHint: true } };
    const outcome = await callTool({ serverId: 'e', tool: destructive, arguments: { mode: 'form', state: { message: 'hi' } }, origin: 'a test' }, r.ports);
    assert.equal(outcome.kind, 'declined');
    assert.deepEqual(r.events, ['confirm echo: The server says this tool may delete or overwrite things. Servers describe their tools themselves; MCP Host cannot check this.']);
    assert.equal(calls(), before);
  });

  test('answered: started, shown, kept and logged, in that order', async () => {
    const r = recorder(() => client);
    const readOnly: Tool = { ...tool('echo'), annotations: { readOnlyHint: true } };
    const outcome = await callTool({ serverId: 'e', tool: readOnly, arguments: { mode: 'form', state: { message: 'hi there' } }, timeout: { seconds: 5, note: 'a note' }, origin: 'a test' }, r.ports);
    assert.equal(outcome.kind, 'answered');
    assert.match(JSON.stringify(outcome.kind === 'answered' && outcome.result.content), /hi there/);
    assert.deepEqual(r.events, ['start', 'end answered', 'record ok']);
    assert.deepEqual(r.starts.map((s) => s.arguments), [{ message: 'hi there' }]);
    assert.equal(r.records[0].name, 'echo');
    assert.match(r.records[0].summary, /hi there/);
    assert.deepEqual(r.logs[0], ['info', 'Calling tool echo from a test (timeout 5 s, a note).']);
    assert.match(r.logs[1][1], /^Tool echo answered in \d+ ms\.$/);
  });

  test('progress reaches the caller while the call runs', async () => {
    const r = recorder(() => client);
    const outcome = await callTool({ serverId: 'e', tool: tool('trigger-long-running-operation'), arguments: { mode: 'value', value: { duration: 1, steps: 3 } }, origin: 'a test' }, { ...r.ports, confirm: undefined });
    assert.equal(outcome.kind, 'answered');
    assert.ok(r.progress() >= 1, `${r.progress()} progress reports`);
  });

  test('a failure is shown, kept and logged; no server is "unavailable" and nothing else happens', async () => {
    const r = recorder(() => client);
    const failed = await callTool({ serverId: 'e', tool: { name: 'no-such-tool' }, arguments: { mode: 'value', value: {} }, origin: 'a test' }, r.ports);
    assert.equal(failed.kind === 'answered' ? (failed.result.isError ? 'failed' : 'answered') : failed.kind, 'failed', 'the server refuses an unknown tool');
    assert.deepEqual(r.events, ['start', `end ${failed.kind}`, `record ${failed.kind === 'failed' ? 'error' : 'tool-error'}`]);
    assert.equal(r.logs.at(-1)?.[0], 'warn');
    const none = recorder(() => {
      throw new Error('the server is not running');
    });
    const unavailable = await callTool({ serverId: 'e', tool: { name: 'echo' }, arguments: { mode: 'value', value: { message: 'x' } }, origin: 'a test' }, none.ports);
    assert.ok(unavailable.kind === 'unavailable' && /not running/.test(unavailable.failure.message));
    assert.deepEqual(none.events, []);
  });

  test('cancelled through the signal: kept as cancelled', async () => {
    const r = recorder(() => client);
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 200);
    const outcome = await callTool({ serverId: 'e', tool: tool('trigger-long-running-operation'), arguments: { mode: 'value', value: { duration: 10, steps: 10 } }, origin: 'a test', signal: abort.signal }, { ...r.ports, confirm: undefined });
    assert.equal(outcome.kind, 'failed');
    assert.deepEqual(r.records.map((e) => e.outcome), ['cancelled']);
  });
});

describe('the tool-call use case: -32042 "URL elicitation required" (sampler fixture)', () => {
  test('the URLs are offered; once the step is done the same call runs again and answers', async () => {
    const { client } = await connectStdio(process.execPath, [fixture('sampler.mjs')], { capabilities: { elicitation: { url: {} } } });
    try {
      const offered: string[] = [];
      const r = recorder(() => client, {
        urlElicitation: async (error) => {
          const url = (error as { data: { elicitations: Array<{ url: string }> } }).data.elicitations[0].url;
          offered.push(url);
          // What the user does: open the page that completes the step.
          await (await fetch(url)).text();
          return true;
        },
      });
      const needsLink = (await client.listTools()).find((t) => t.name === 'needs-link')!;
      const outcome = await callTool({ serverId: 's', tool: needsLink, arguments: { mode: 'value', value: {} }, origin: 'a test' }, r.ports);
      assert.equal(offered.length, 1);
      assert.ok(outcome.kind === 'answered' && /the step .+ is done/.test(JSON.stringify(outcome.result.content)));
      assert.deepEqual(r.events, ['start', 'end failed', 'record error', 'start', 'end answered', 'record ok']);
      assert.ok(r.logs.some(([, text]) => text === 'Retrying tool needs-link after URL elicitation.'));
    } finally {
      await client.close();
    }
  });
});
