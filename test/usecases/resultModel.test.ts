import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CallToolResult, McpClient, Tool } from '../../src/client';
import { ResponseError } from '../../src/protocol/errors';
import { SchemaValidator, findRemoteRef } from '../../src/schema/validator';
import {
  DisplayPart,
  contentToPart,
  describeFailure,
  promptDisplay,
  resourceDisplay,
  summarizeFailure,
  summarizeResult,
  toolResultDisplay,
} from '../../src/usecases/resultModel';
import { base64Bytes, normalizeMimeType } from '../../src/content/mediaTypes';
import { EVERYTHING, connectStdio } from '../client/support';

const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>').toString('base64');
const WAV = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt ')]).toString('base64');
const validator = new SchemaValidator();

type PartOf<K> = DisplayPart extends infer P ? (P extends { kind: infer PK } ? (K extends PK ? P : never) : never) : never;

function only<K extends DisplayPart['kind']>(part: DisplayPart, kind: K): PartOf<K> {
  assert.equal(part.kind, kind, JSON.stringify(part).slice(0, 300));
  return part as PartOf<K>;
}

describe('result model against server-everything', () => {
  let client: McpClient;
  let tools: Tool[];
  const tool = (name: string) => tools.find((t) => t.name === name)!;

  before(async () => {
    ({ client } = await connectStdio(process.execPath, EVERYTHING));
    tools = await client.listTools();
  });
  after(async () => {
    const pid = client.stats()?.process?.pid;
    await client.close();
    if (pid) assert.throws(() => process.kill(pid, 0));
  });

  test('echo: one text part, not Markdown, summary for history', async () => {
    const display = toolResultDisplay(await client.callTool('echo', { message: 'hello <b>world</b>' }), tool('echo').outputSchema, validator);
    assert.equal(display.isError, false);
    const text = only(display.parts[0], 'text');
    assert.equal(text.text, 'Echo: hello <b>world</b>');
    assert.equal(text.preferMarkdown, false);
    assert.equal(text.html, undefined, 'plain text gets no Markdown view, so no HTML is built or posted');
    assert.deepEqual(display.verdict, { kind: 'no-schema' });
    assert.equal(summarizeResult(display), 'Echo: hello <b>world</b>');
  });

  test('get-tiny-image: an inline PNG data URI built from the base64', async () => {
    const display = toolResultDisplay(await client.callTool('get-tiny-image', {}), undefined, validator);
    const image = display.parts.map((p) => p).find((p) => p.kind === 'image');
    assert.ok(image && image.kind === 'image');
    assert.equal(image.mimeType, 'image/png');
    assert.match(image.dataUri, /^data:image\/png;base64,iVBOR[A-Za-z0-9+/=]+$/);
    assert.equal(image.warning, undefined);
    assert.ok(image.bytes > 0);
  });

  test('get-structured-content: structuredContent is valid against the real outputSchema', async () => {
    const result = await client.callTool('get-structured-content', { location: 'Chicago' });
    const display = toolResultDisplay(result, tool('get-structured-content').outputSchema, validator);
    assert.deepEqual(display.verdict, { kind: 'valid' });
    assert.deepEqual(Object.keys(display.structured!.value as object).sort(), ['conditions', 'humidity', 'temperature']);
    // The same content checked against a stricter schema fails at the right path.
    const original = tool('get-structured-content').outputSchema!;
    const stricter = { ...original, properties: { ...(original.properties as object), temperature: { type: 'string' } } };
    const bad = toolResultDisplay(result, stricter, validator);
    assert.equal(bad.verdict.kind, 'invalid');
    assert.deepEqual(bad.verdict.kind === 'invalid' && bad.verdict.errors.map((e) => [e.path, e.keyword]), [['/temperature', 'type']]);
    // An outputSchema and no structuredContent: reported as missing.
    const missing = toolResultDisplay({ content: result.content }, tool('get-structured-content').outputSchema, validator);
    assert.deepEqual(missing.verdict, { kind: 'missing' });
  });

  test('get-resource-links: resource links to read; get-resource-reference: an embedded text resource', async () => {
    const links = toolResultDisplay(await client.callTool('get-resource-links', { count: 2 }), undefined, validator);
    const linkParts = links.parts.filter((p) => p.kind === 'resourceLink');
    assert.equal(linkParts.length, 2);
    for (const l of linkParts) assert.ok(l.kind === 'resourceLink' && l.uri.startsWith('demo://') && l.name);
    const embedded = toolResultDisplay(await client.callTool('get-resource-reference', { resourceType: 'Text', resourceId: 1 }), undefined, validator);
    const res = embedded.parts.find((p) => p.kind === 'text' && p.uri !== undefined);
    assert.ok(res && res.kind === 'text' && res.uri!.startsWith('demo://'), JSON.stringify(embedded.parts));
    const blob = toolResultDisplay(await client.callTool('get-resource-reference', { resourceType: 'Blob', resourceId: 2 }), undefined, validator);
    assert.ok(blob.parts.some((p) => p.kind === 'binary' && p.uri?.startsWith('demo://')), JSON.stringify(blob.parts).slice(0, 500));
  });

  test('get-annotated-message: content annotations (audience, priority) come with the parts', async () => {
    const display = toolResultDisplay(await client.callTool('get-annotated-message', { messageType: 'error', includeImage: true }), undefined, validator);
    const annotated = display.parts.filter((p) => p.annotations !== undefined);
    assert.ok(annotated.length >= 1, JSON.stringify(display.parts).slice(0, 400));
    for (const p of annotated) {
      for (const a of p.annotations!.audience ?? []) assert.ok(a === 'user' || a === 'assistant');
      if (p.annotations!.priority !== undefined) assert.equal(typeof p.annotations!.priority, 'number');
    }
    assert.ok(display.parts.some((p) => p.kind === 'image'));
  });

  test('a real resource read and a real prompt become display parts', async () => {
    const resources = await client.listResources();
    const md = resources.find((r) => r.mimeType === 'text/markdown')!;
    const parts = resourceDisplay(await client.readResource(md.uri));
    const text = only(parts[0], 'text');
    assert.equal(text.preferMarkdown, true);
    assert.equal(text.uri, md.uri);
    assert.match(text.html!, /<h1>|<h2>|<p>/);
    const prompt = promptDisplay(await client.getPrompt('args-prompt', { city: 'Paris', state: 'Texas' }));
    assert.equal(prompt.messages[0].role, 'user');
    assert.match(only(prompt.messages[0].parts[0], 'text').text, /Paris/);
  });

  test('a protocol error and a local error are told apart; neither is a tool error', async () => {
    const wire = await client.getPrompt('no-such-prompt').then(
      () => assert.fail('should fail'),
      (e: unknown) => describeFailure(e),
    );
    assert.equal(wire.kind, 'protocol');
    assert.ok(wire.kind === 'protocol' && typeof wire.code === 'number');
    assert.match(summarizeFailure(wire), /^Server error -?\d+: /);
    const local = await client.callTool('trigger-long-running-operation', { duration: 5, steps: 5 }, { timeoutMs: 100 }).then(
      () => assert.fail('should time out'),
      (e: unknown) => describeFailure(e),
    );
    assert.deepEqual(local.kind === 'local' && local.reason, 'timeout');
  });
});

describe('result model: every content type, by hand', () => {
  const call = (content: unknown[], extra: Partial<CallToolResult> = {}) => toolResultDisplay({ content, ...extra } as CallToolResult, undefined, validator);

  test('isError is a tool error with its own summary', () => {
    const d = call([{ type: 'text', text: 'file not found' }], { isError: true });
    assert.equal(d.isError, true);
    assert.equal(summarizeResult(d), 'Tool error: file not found');
  });

  test('SVG is never inlined as an image, whether image content or blob; it is shown as text', () => {
    for (const block of [
      { type: 'image', data: SVG, mimeType: 'image/svg+xml' },
      { type: 'resource', resource: { uri: 'x://a.svg', mimeType: 'image/svg+xml', blob: SVG } },
    ]) {
      const part = only(contentToPart(block as never, 0), 'binary');
      assert.match(part.reason, /SVG/);
      assert.match(part.text!, /<script>/, 'its text is there to read (the webview puts it in with textContent)');
      assert.equal((part as { dataUri?: string }).dataUri, undefined);
    }
  });

  test('image and audio types outside the allowlist, and bad base64, are not inlined', () => {
    assert.match(only(contentToPart({ type: 'image', data: PNG_1x1, mimeType: 'text/html' }, 0), 'binary').reason, /not a image type|not a/);
    assert.equal(contentToPart({ type: 'image', data: PNG_1x1, mimeType: 'image/png"><script>' }, 0).kind, 'binary');
    assert.equal(contentToPart({ type: 'audio', data: WAV, mimeType: 'audio/x-unknown' }, 0).kind, 'binary');
    assert.match(only(contentToPart({ type: 'image', data: 'not base64!!', mimeType: 'image/png' }, 0), 'binary').reason, /base64/);
    const audio = only(contentToPart({ type: 'audio', data: WAV, mimeType: 'audio/wav' }, 0), 'audio');
    assert.equal(audio.dataUri, `data:audio/wav;base64,${WAV}`);
    const png = only(contentToPart({ type: 'image', data: PNG_1x1, mimeType: 'IMAGE/PNG; x=y' }, 0), 'image');
    assert.equal(png.mimeType, 'image/png');
    const lying = only(contentToPart({ type: 'image', data: PNG_1x1, mimeType: 'image/jpeg' }, 0), 'image');
    assert.match(lying.warning!, /looks like image\/png/);
  });

  test('resource links, embedded text and blob resources, unknown content types', () => {
    const link = only(contentToPart({ type: 'resource_link', uri: 'file:///a.txt', name: 'a', mimeType: 'text/plain', size: 3 }, 0), 'resourceLink');
    assert.deepEqual(link, { index: 0, kind: 'resourceLink', uri: 'file:///a.txt', name: 'a', mimeType: 'text/plain', size: 3 });
    const json = only(contentToPart({ type: 'resource', resource: { uri: 'x://c', mimeType: 'application/json', text: '{"a":[1,2]}' } }, 1), 'text');
    assert.deepEqual(json.json, { a: [1, 2] });
    const blobText = only(contentToPart({ type: 'resource', resource: { uri: 'x://d', mimeType: 'text/csv', blob: Buffer.from('a,b').toString('base64') } }, 2), 'binary');
    assert.equal(blobText.text, 'a,b');
    const blob = only(contentToPart({ type: 'resource', resource: { uri: 'x://e', mimeType: 'application/octet-stream', blob: 'AAEC' } }, 3), 'binary');
    assert.equal(blob.bytes, 3);
    const img = only(contentToPart({ type: 'resource', resource: { uri: 'x://f.png', mimeType: 'image/png', blob: PNG_1x1 } }, 4), 'image');
    assert.equal(img.uri, 'x://f.png');
    const unknown = only(contentToPart({ type: 'hologram', data: 1 } as never, 5), 'unknown');
    assert.equal(unknown.type, 'hologram');
  });

  test('long text is cut for display and not parsed as Markdown', () => {
    const text = only(contentToPart({ type: 'text', text: '# x\n' + 'a'.repeat(600_000) }, 0), 'text');
    assert.equal(text.truncated, true);
    assert.equal(text.text.length, 500_000);
  });

  test('a large result is folded for the panel: JSON text and structuredContent as trees of their first items', () => {
    const records = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i, name: `record ${i}`, tags: ['a', 'b'], note: 'x'.repeat(80) }));
    const result: CallToolResult = {
      content: [
        { type: 'text', text: Array.from({ length: 10_000 }, (_, i) => `line ${i}: some plain text`).join('\n') },
        { type: 'text', text: JSON.stringify(records(50_000)) },
      ],
      structuredContent: { records: records(50_000) },
    };
    const display = toolResultDisplay(result, undefined, validator);
    const [plain, jsonText] = display.parts.map((p) => only(p, 'text'));
    assert.equal(plain.truncated, false);
    assert.equal(plain.html, undefined, 'no Markdown rendered for plain text');
    // Over MAX_TEXT_CHARS as text, the JSON is still parsed, and shown folded.
    assert.equal(jsonText.truncated, true);
    assert.equal(jsonText.folded, true);
    const shown = jsonText.json as unknown[];
    assert.equal(shown.length, 501);
    assert.equal(shown[500], '… [49,500 more items folded]');
    assert.deepEqual(shown[0], records(1)[0]);
    assert.equal(display.structured?.folded, true);
    assert.equal(((display.structured?.value as { records: unknown[] }).records).length, 501);
    // What is posted to the webview stays small, whatever the result's size.
    const posted = JSON.stringify(display).length;
    assert.ok(posted < 2 * 1024 * 1024, `posted ${posted} characters`);
  });

  test('outputSchema verdicts: valid, invalid (paths), missing, missing but isError, a remote $ref never fetched and reported not checked', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer', minimum: 0 }, tags: { type: 'array', items: { type: 'string' } } }, required: ['n'], additionalProperties: false };
    const run = (structuredContent: unknown, s: unknown = schema, isError = false) => toolResultDisplay({ content: [], structuredContent, isError } as CallToolResult, s, validator).verdict;
    assert.deepEqual(run({ n: 1, tags: ['a'] }), { kind: 'valid' });
    const invalid = run({ n: -1, tags: ['a', 2], extra: true });
    assert.ok(invalid.kind === 'invalid');
    assert.deepEqual(invalid.errors.map((e) => e.path).sort(), ['/extra', '/n', '/tags/1']);
    const empty = run({});
    assert.deepEqual(empty.kind === 'invalid' && empty.errors[0], { path: '/n', message: 'required', keyword: 'required' });
    assert.deepEqual(run(undefined), { kind: 'missing' });
    assert.deepEqual(run(undefined, schema, true), { kind: 'no-schema' }, 'a tool error need not carry structured content');
    assert.deepEqual(run({ n: 1 }, null), { kind: 'no-schema' });
    const remote = run({ n: 1 }, { type: 'object', properties: { n: { $ref: 'http://127.0.0.1:9/never.json' } } });
    assert.deepEqual(remote, { kind: 'valid', unchecked: ['$ref http://127.0.0.1:9/never.json not checked: remote schemas are never fetched'] });
    assert.equal(findRemoteRef({ enum: [{ $ref: 'http://x' }] }), undefined, 'data is not a schema');
  });

  test('mime and base64 helpers', () => {
    assert.equal(normalizeMimeType(' Text/Plain ; charset=utf-8'), 'text/plain');
    assert.equal(normalizeMimeType('nonsense'), undefined);
    assert.equal(normalizeMimeType('image/png<script>'), undefined);
    assert.equal(base64Bytes('AAEC'), 3);
    assert.equal(base64Bytes('AAE='), 2);
    assert.equal(base64Bytes('AA E C\n'), 3);
    assert.equal(base64Bytes('AAE'), undefined);
    assert.equal(base64Bytes('A$EC'), undefined);
  });
});

describe('failures with the 2026-07-28 codes', () => {
  test('are described with their meaning: the missing capability, the supported versions', () => {
    const missing = describeFailure(new ResponseError('tools/call', -32021, 'Server requires the elicitation capability', { requiredCapabilities: { elicitation: {} } }));
    assert.equal(missing.kind === 'protocol' && missing.meaning, 'the server needs the client capability elicitation, which this client did not declare');
    const versions = describeFailure(new ResponseError('tools/call', -32022, 'Unsupported protocol version', { supported: ['2026-07-28'], requested: '2025-11-25' }));
    assert.equal(summarizeFailure(versions), 'Server error -32022: Unsupported protocol version (2025-11-25 is not supported; the server supports 2026-07-28)');
    const plain = describeFailure(new ResponseError('tools/call', -32603, 'boom'));
    assert.equal(summarizeFailure(plain), 'Server error -32603: boom');
  });
});
