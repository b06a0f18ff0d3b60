// The gateway benchmark's SDK client runs 2,000 calls at once over one transport: its fetch must
// not warn of an abort-listener leak on the transport's one long-lived signal (issue 38 #24).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sdkFetch } from './gatewayBench';

test('the benchmark\'s fetch for the SDK client: 1,600 requests in flight on one shared signal print no MaxListenersExceededWarning', async () => {
  // Every answer waits until all requests have arrived, so all 1,600 are in flight at once.
  const IN_FLIGHT = 1600;
  const waiting: Array<() => void> = [];
  const server = createServer((_req, res) => {
    waiting.push(() => res.end('ok'));
    if (waiting.length === IN_FLIGHT) for (const answer of waiting.splice(0)) answer();
  });
  server.maxConnections = IN_FLIGHT + 10;
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const warnings: string[] = [];
  const onWarning = (warning: Error) => {
    if (warning.name === 'MaxListenersExceededWarning') warnings.push(warning.message);
  };
  process.on('warning', onWarning);
  try {
    const shared = new AbortController();
    const bodies = await Promise.all(Array.from({ length: IN_FLIGHT }, () => sdkFetch(url, { signal: shared.signal }).then((r) => r.text())));
    assert.equal(bodies.filter((b) => b === 'ok').length, IN_FLIGHT);
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(warnings.slice(0, 1), []);
  } finally {
    process.off('warning', onWarning);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
