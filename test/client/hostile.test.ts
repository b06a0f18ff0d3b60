// A hostile server (test/fixtures/servers/hostile.mjs) over the real stdio path: malformed list
// items, a catastrophic pattern, a pattern RE2 cannot run, a 10,000-property output schema,
// uniqueItems over 20,000 objects and a result nested 5,000 levels. The host keeps the valid
// items, names the bad ones, answers every check with a verdict, and stays responsive: a second
// server's ping sent while a hostile result is being checked comes back within a bound.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpClient, SkippedListItem, Tool } from '../../src/client';
import { TOO_DEEP_MARKER } from '../../src/protocol/jsonShape';
import { SchemaValidator } from '../../src/schema/validator';
import { summarizeResult, toolResultDisplay } from '../../src/usecases/resultModel';
import { connectStdio, fixture } from './support';

/**
 * Sends a ping to `other`, lets it reach the wire, runs `work` (synchronous, on this thread, as
 * the extension host would), then waits for the ping's answer: the other server is still served.
 * (How long the checks take is measured by `npm run bench -- --only hostile`, not here.)
 */
async function pingDuring(other: McpClient, work: () => void): Promise<void> {
  const ping = other.ping();
  await new Promise((resolve) => setImmediate(resolve));
  work();
  await ping;
}

describe('a hostile server cannot hide lists or freeze the host', { timeout: 120_000 }, () => {
  let hostile: McpClient;
  let other: McpClient;
  let tools: Tool[];
  let skippedTools: readonly SkippedListItem[] = [];
  const tool = (name: string) => tools.find((t) => t.name === name)!;

  before(async () => {
    ({ client: hostile } = await connectStdio(process.execPath, [fixture('hostile.mjs')]));
    ({ client: other } = await connectStdio(process.execPath, [fixture('pingControl.mjs')]));
    tools = await hostile.listTools({ onSkipped: (s) => (skippedTools = s) });
  });
  after(async () => {
    await Promise.all([hostile?.close(), other?.close()]);
  });

  test('one malformed tool does not hide the list: the valid ones are kept, each bad one is named with its field', () => {
    assert.deepEqual(
      tools.map((t) => t.name),
      ['echo', 'pattern-bomb', 'backreference', 'huge-schema', 'unique-bomb', 'deep-result'],
    );
    assert.deepEqual(skippedTools, [
      { index: 1, name: 'no-type', problem: 'tools[1].inputSchema.type must be one of "object"' },
      { index: 4, name: 'null-description', problem: 'tools[4].description must be a string' },
    ]);
  });

  test('resources, templates and prompts: the same, item by item', async () => {
    const seen: Record<string, readonly SkippedListItem[]> = {};
    const resources = await hostile.listResources({ onSkipped: (s) => (seen.resources = s) });
    const templates = await hostile.listResourceTemplates({ onSkipped: (s) => (seen.templates = s) });
    const prompts = await hostile.listPrompts({ onSkipped: (s) => (seen.prompts = s) });
    assert.deepEqual(resources.map((r) => r.uri), ['note://ok']);
    assert.deepEqual(templates.map((t) => t.uriTemplate), ['note://{id}']);
    assert.deepEqual(prompts.map((p) => p.name), ['ok']);
    assert.deepEqual(seen.resources, [{ index: 1, name: 'no-uri', problem: 'resources[1].uri is required' }]);
    assert.deepEqual(seen.templates, [{ index: 1, name: 'numeric', problem: 'resourceTemplates[1].uriTemplate must be a string' }]);
    assert.deepEqual(seen.prompts, [{ index: 1, problem: 'prompts[1].name is required' }]);
  });

  test('a catastrophic pattern (^(a+)+$ against 29 characters) is checked on the safe engine; another server answers meanwhile', async () => {
    const result = await hostile.callTool('pattern-bomb', { length: 29 });
    let display: ReturnType<typeof toolResultDisplay> | undefined;
    await pingDuring(other, () => (display = toolResultDisplay(result, tool('pattern-bomb').outputSchema, new SchemaValidator())));
    assert.equal(display!.verdict.kind, 'invalid');
    assert.deepEqual(display!.verdict.kind === 'invalid' && display!.verdict.errors.map((e) => [e.path, e.keyword]), [['/s', 'pattern']]);
  });

  test('a pattern the safe engine cannot express is not run: the verdict says it was not checked', async () => {
    const result = await hostile.callTool('backreference', {});
    const display = toolResultDisplay(result, tool('backreference').outputSchema, new SchemaValidator());
    assert.equal(display.verdict.kind, 'valid');
    assert.deepEqual(display.verdict.kind === 'valid' && display.verdict.unchecked, ['pattern ^(a)\\1$ not checked: not supported by the safe engine']);
  });

  test('a 10,000-property outputSchema and uniqueItems over 20,000 objects: a clear "not checked" at once', async () => {
    for (const [name, reason] of [
      ['huge-schema', /^schema too large to check/],
      ['unique-bomb', /^too costly to check \(uniqueItems over an array of 20000 items\)/],
    ] as const) {
      const result = await hostile.callTool(name, {});
      let display: ReturnType<typeof toolResultDisplay> | undefined;
      await pingDuring(other, () => (display = toolResultDisplay(result, tool(name).outputSchema, new SchemaValidator())));
      const verdict = display!.verdict;
      assert.equal(verdict.kind, 'unchecked', `${name}: ${JSON.stringify(verdict).slice(0, 200)}`);
      assert.match(verdict.kind === 'unchecked' ? verdict.reason : '', reason);
    }
  });

  test('a result nested 5,000 levels deep is shown with its deepest levels cut, and can be sent to the webview', async () => {
    const result = await hostile.callTool('deep-result', {});
    const display = toolResultDisplay(result, undefined, new SchemaValidator());
    assert.equal(display.structured?.cutDeep, true);
    const part = display.parts[0];
    assert.ok(part.kind === 'text' && part.cutDeep === true && part.json !== undefined);
    // What posting to the webview does; it overflowed before.
    const posted = JSON.stringify(display);
    assert.ok(posted.includes(JSON.stringify(TOO_DEEP_MARKER)));
    assert.equal(typeof summarizeResult(display), 'string');
  });
});
