import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { McpClient, McpLocalError, ResponseError, SkippedListItem } from '../../src/client';
import { ConnectionDiagnostic } from '../../src/protocol/connection';
import { connectStdio, fixture, waitFor } from './support';

const mode = (m: string, ...extra: string[]) => [fixture('misbehave.mjs'), '--mode', m, ...extra];

function diagnostics(client: McpClient): ConnectionDiagnostic[] {
  const out: ConnectionDiagnostic[] = [];
  client.onDiagnostic((d) => out.push(d));
  return out;
}

describe('badly behaved servers never take the client down', () => {
  test('a server that never answers: the call times out, the server is told, later calls still work', async () => {
    const { client, stderr } = await connectStdio(process.execPath, mode('never-answer'));
    try {
      await assert.rejects(client.callTool('hang', {}, { timeoutMs: 200 }), (e: unknown) => McpLocalError.is(e, 'timeout') && /tools\/call timed out after 200 ms/.test(e.message));
      await waitFor(() => stderr.find((l) => l.startsWith('cancelled ')), 3000, 'the server to see notifications/cancelled');
      assert.ok((await client.ping()) >= 0);
      assert.equal(client.stats()!.timeouts, 1);
    } finally {
      await client.close();
    }
  });

  test('a server that exits mid-request: the caller gets the exit code and the last stderr lines', async () => {
    const { client } = await connectStdio(process.execPath, mode('exit-mid-request'));
    await assert.rejects(client.callTool('anything', {}), (e: unknown) => McpLocalError.is(e, 'server-exited') && /code 3/.test(e.message) && /fatal: boom/.test(e.message));
    assert.equal(client.state.kind, 'closed');
    await assert.rejects(client.callTool('again', {}), (e: unknown) => McpLocalError.is(e, 'closed'));
    await client.close();
  });

  test('stray responses, duplicate answers and batches are handled', async () => {
    const { client } = await connectStdio(process.execPath, mode('stray-responses'));
    const seen = diagnostics(client);
    const logs: unknown[] = [];
    client.onLogMessage((m) => logs.push(m.data));
    try {
      const twice = await client.callTool('twice', {});
      assert.deepEqual(twice.content, [{ type: 'text', text: 'first' }]);
      const batched = await client.callTool('batch', {});
      assert.deepEqual(batched.content, [{ type: 'text', text: 'batched' }]);
      assert.equal(logs.length, 1);
      await waitFor(() => seen.filter((d) => d.kind === 'stray-response').length >= 1, 2000, 'a stray response diagnostic');
      assert.ok(seen.some((d) => d.kind === 'batch'));
      assert.deepEqual((await client.callTool('ok', {})).content, [{ type: 'text', text: 'ok' }]);
    } finally {
      await client.close();
    }
  });

  test('server-to-client requests: unknown methods get -32601, roots/list and ping are answered', async () => {
    const { client } = await connectStdio(process.execPath, mode('server-requests'), { roots: { listRoots: () => [{ uri: 'file:///tmp', name: 'tmp' }] } });
    try {
      const replies = await waitFor(async () => {
        const r = await client.callTool('report', {});
        const list = JSON.parse((r.content[0] as { text: string }).text);
        return list.length >= 3 ? list : undefined;
      }, 3000, 'three replies');
      const byId = Object.fromEntries(replies.map((m: any) => [m.id, m]));
      assert.equal(byId.s1.error.code, -32601);
      assert.deepEqual(byId.s2.result, { roots: [{ uri: 'file:///tmp', name: 'tmp' }] });
      assert.deepEqual(byId.s3.result, {});
    } finally {
      await client.close();
    }
  });

  test('pagination follows nextCursor; a cursor that never ends is stopped', async () => {
    const paged = await connectStdio(process.execPath, mode('paginate'));
    try {
      assert.deepEqual((await paged.client.listTools()).map((t) => t.name), ['t1', 't2', 't3', 't4', 't5', 't6']);
    } finally {
      await paged.client.close();
    }
    const endless = await connectStdio(process.execPath, mode('paginate', '--endless'), { maxPages: 20 });
    try {
      await assert.rejects(endless.client.listTools(), (e: unknown) => McpLocalError.is(e, 'invalid-result') && /nextCursor/.test(e.message));
    } finally {
      await endless.client.close();
    }
  });

  test('results of the wrong shape fail that call, naming the field; the connection stays up', async () => {
    const { client } = await connectStdio(process.execPath, [fixture('shapes.mjs')]);
    try {
      await assert.rejects(client.listTools(), (e: unknown) => McpLocalError.is(e, 'invalid-result') && e.message === 'tools/list: result.tools must be an array');
      // A malformed item is skipped and named; it does not fail the list.
      let skipped: readonly SkippedListItem[] = [];
      assert.deepEqual(await client.listResources({ onSkipped: (s) => (skipped = s) }), []);
      assert.deepEqual(skipped, [{ index: 0, name: 'no-uri', problem: 'resources[0].uri is required' }]);
      assert.deepEqual((await client.listPrompts()).map((p) => p.name), ['p1'], 'a valid list passes whole');
      const ok = await client.callTool('ok', {});
      assert.equal((ok as Record<string, unknown>)['x-extra'], 1, 'unknown fields are kept');
    } finally {
      await client.close();
    }
  });

  test('stdout noise is reported and skipped; progress and capability gating', async () => {
    const noisy = await connectStdio(process.execPath, mode('noise'));
    const noise: string[] = [];
    noisy.client.onTransportLog((l) => l.kind === 'noise' && noise.push(l.text));
    try {
      assert.ok((await noisy.client.callTool('ok', {})).content.length > 0);
      await waitFor(() => noise.length > 0, 2000, 'a noise line');
      assert.ok(noisy.client.stats()!.noiseLines > 0);
    } finally {
      await noisy.client.close();
    }

    const slow = await connectStdio(process.execPath, mode('slow-progress'));
    try {
      const seen: number[] = [];
      const r = await slow.client.callTool('slow', { steps: 4, intervalMs: 30 }, { onProgress: (p) => seen.push(p.progress) });
      assert.equal(seen.length, 4);
      assert.match(JSON.stringify(r.content), /done 4/);
      // The fixture declares no prompts: asking fails at once and sends nothing.
      const before = slow.wire.sent().length;
      assert.equal(slow.client.serverCapabilities?.prompts, undefined, 'the fixture declares no prompts');
      await assert.rejects(slow.client.listPrompts(), (e: unknown) => McpLocalError.is(e, 'capability') && /prompts/.test(e.message));
      assert.equal(slow.wire.sent().length, before);
      await assert.rejects(slow.client.callTool('unknown-tool', {}), (e: unknown) => e instanceof ResponseError || McpLocalError.is(e));
    } finally {
      await slow.client.close();
    }
  });
});
