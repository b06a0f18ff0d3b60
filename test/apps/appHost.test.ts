// The host side of the App protocol (apps/appHost.ts) against the official app-side SDK
// (`App` of @modelcontextprotocol/ext-apps) over an in-memory relay, with every frame the host
// sends checked against the package's JSON schema of the protocol.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AppHostPorts, AppHostSession } from '../../src/apps/appHost';
import { relay } from './appRelay';
import type { AppConversationMessage } from '../../src/apps/appConversation';
import { WireError } from '../../src/protocol/errors';
import { ErrorCodes } from '../../src/protocol/messages';
import Ajv2020 from 'ajv/dist/2020';

type Json = Record<string, unknown>;

/** The ext-apps package's JSON schema of the App protocol's messages, by definition name. */
function appSchema(): { validate(name: string, value: unknown): string[] } {
  const file = path.join(path.dirname(require.resolve('@modelcontextprotocol/ext-apps/app-bridge')), 'generated/schema.json');
  const schema = JSON.parse(fs.readFileSync(file, 'utf8')) as { $id: string; $defs: Record<string, unknown> };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  return {
    validate(name, value) {
      assert.ok(schema.$defs[name], `the schema defines ${name}`);
      // The schema describes a message without its JSON-RPC envelope (no jsonrpc, no id).
      if (typeof value === 'object' && value !== null && 'method' in value) {
        const { jsonrpc: _j, id: _i, ...inner } = value as Json;
        value = inner;
      }
      // Each definition carries its own $defs: it is compiled as a schema of its own.
      const validate = ajv.compile(schema.$defs[name] as object);
      return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    },
  };
}

interface Harness {
  session: AppHostSession;
  sent: Json[];
  logs: string[];
  conversation: AppConversationMessage[];
  calls: Array<{ name: string; args: Json }>;
}

function host(overrides: Partial<AppHostPorts> = {}, rate?: { burst: number; perSecond: number }): Harness & { appTransport: ReturnType<typeof relay> } {
  const sent: Json[] = [];
  const logs: string[] = [];
  const conversation: AppConversationMessage[] = [];
  const calls: Array<{ name: string; args: Json }> = [];
  let session!: AppHostSession;
  const appTransport = relay(() => session);
  const ports: AppHostPorts = {
    deliver: (m) => {
      sent.push(m);
      queueMicrotask(() => appTransport.onmessage?.(structuredClone(m)));
    },
    callTool: async (name, args) => {
      calls.push({ name, args });
      return { content: [{ type: 'text', text: `called ${name}` }] };
    },
    readResource: async (uri) => ({ contents: [{ uri, text: 'hello' }] }),
    openLink: async () => {},
    conversation: { receive: async (m) => void conversation.push(m) },
    requestDisplayMode: async (mode) => mode,
    sizeChanged: () => {},
    requestTeardown: () => {},
    log: (level, text) => logs.push(`${level}: ${text}`),
    tracing: () => true,
    ...overrides,
  };
  session = new AppHostSession(
    {
      hostInfo: { name: 'mcp-host', version: '0.1.0' },
      hostCapabilities: { openLinks: {}, serverTools: {}, serverResources: {}, logging: {}, message: { text: {} }, updateModelContext: { text: {}, structuredContent: {} } },
      hostContext: { theme: 'dark', displayMode: 'inline', availableDisplayModes: ['inline', 'fullscreen'], locale: 'en', containerDimensions: { width: 600, maxHeight: 1200 } },
      label: 'the app of get-time',
      ...(rate ? { rate } : {}),
    },
    ports,
  );
  return { session, sent, logs, conversation, calls, appTransport };
}

async function connectApp(appTransport: unknown, capabilities: Json = { availableDisplayModes: ['inline', 'fullscreen'] }) {
  const { App } = await import('@modelcontextprotocol/ext-apps');
  const app = new App({ name: 'test-app', version: '1.0.0' }, capabilities as never, { autoResize: false });
  await app.connect(appTransport as never);
  return app;
}

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(check(), `waited for ${what}`);
};

describe('the App host session with the official App SDK', () => {
  test('initializes with host context and capabilities, then sends tool input and result in order', async () => {
    const h = host();
    h.session.toolInput({ city: 'Paris' });
    h.session.toolResult({ content: [{ type: 'text', text: '12:00' }], structuredContent: { time: '12:00' } });
    const received: string[] = [];
    const { App } = await import('@modelcontextprotocol/ext-apps');
    const app = new App({ name: 'test-app', version: '1.0.0' }, {}, { autoResize: false });
    app.ontoolinput = (p) => received.push(`input ${JSON.stringify(p.arguments)}`);
    app.ontoolresult = (p) => received.push(`result ${JSON.stringify(p.structuredContent)}`);
    await app.connect(h.appTransport as never);
    assert.equal(app.getHostContext()?.theme, 'dark');
    assert.deepEqual(app.getHostCapabilities()?.serverTools, {});
    await until(() => received.length === 2, 'input and result');
    assert.deepEqual(received, ['input {"city":"Paris"}', 'result {"time":"12:00"}']);
    assert.ok(h.session.isInitialized);
    // Every frame the host sent fits the protocol's schema.
    const schema = appSchema();
    const init = h.sent.find((m) => 'result' in m && (m.result as Json).hostInfo)!;
    // The generated schema cannot hold containerDimensions with two keys ({ width, maxHeight },
    // as the specification's type allows): it intersects two closed objects. Checked apart.
    const { containerDimensions, ...context } = (init.result as Json).hostContext as Json;
    assert.deepEqual(containerDimensions, { width: 600, maxHeight: 1200 });
    assert.deepEqual(schema.validate('McpUiInitializeResult', { ...(init.result as Json), hostContext: context }), []);
    const input = h.sent.find((m) => m.method === 'ui/notifications/tool-input')!;
    assert.deepEqual(schema.validate('McpUiToolInputNotification', input), []);
    const result = h.sent.find((m) => m.method === 'ui/notifications/tool-result')!;
    assert.deepEqual(schema.validate('McpUiToolResultNotification', result), []);
    // Traffic is logged at Trace in both directions.
    assert.ok(h.logs.some((l) => l.startsWith('trace: [app → host]') && l.includes('ui/initialize')));
    assert.ok(h.logs.some((l) => l.startsWith('trace: [host → app]') && l.includes('ui/notifications/tool-result')));
    await app.close();
    h.session.dispose();
  });

  test('a tool call, a resource read, a message and a context update go to their ports', async () => {
    const h = host();
    const app = await connectApp(h.appTransport);
    const called = await app.callServerTool({ name: 'get-time', arguments: { zone: 'UTC' } });
    assert.deepEqual(called.content, [{ type: 'text', text: 'called get-time' }]);
    assert.deepEqual(h.calls, [{ name: 'get-time', args: { zone: 'UTC' } }]);
    const read = await app.readServerResource({ uri: 'ui://get-time/data' });
    assert.equal((read.contents[0] as Json).text, 'hello');
    await app.sendMessage({ role: 'user', content: [{ type: 'text', text: 'What time is it?' }] });
    await app.updateModelContext({ structuredContent: { selected: 3 } });
    assert.deepEqual(h.conversation, [
      { kind: 'message', role: 'user', content: [{ type: 'text', text: 'What time is it?' }] },
      { kind: 'context', structuredContent: { selected: 3 } },
    ]);
    await app.sendLog({ level: 'warning', data: 'disk almost full', logger: 'ui' });
    await until(() => h.logs.some((l) => l.includes('log warning (ui): disk almost full')), 'the app log line');
    await app.close();
    h.session.dispose();
  });

  test('refusals from ports reach the app as JSON-RPC errors', async () => {
    const h = host({
      callTool: async (name) => {
        throw new WireError(ErrorCodes.InvalidParams, `the app may not call ${name}`);
      },
      openLink: async () => {
        throw new WireError(-32000, 'Link opening denied by user');
      },
    });
    const app = await connectApp(h.appTransport);
    await assert.rejects(app.callServerTool({ name: 'delete-all', arguments: {} }), /may not call delete-all/);
    const link = await app.openLink({ url: 'https://example.com' }).then(
      (r) => r,
      (e: Error) => ({ error: e.message }),
    );
    assert.match(JSON.stringify(link), /denied/);
    await app.close();
    h.session.dispose();
  });

  test('display mode: granted when both sides offer it, otherwise the current one', async () => {
    const asked: string[] = [];
    const h = host({ requestDisplayMode: async (mode) => (asked.push(mode), mode) });
    const app = await connectApp(h.appTransport, { availableDisplayModes: ['inline', 'fullscreen'] });
    assert.equal((await app.requestDisplayMode({ mode: 'fullscreen' })).mode, 'fullscreen');
    assert.equal((await app.requestDisplayMode({ mode: 'pip' })).mode, 'inline');
    assert.deepEqual(asked, ['fullscreen']);
    await app.close();
    h.session.dispose();
  });

  test('host context changes reach the app as host-context-changed, only what changed', async () => {
    const h = host();
    const { App } = await import('@modelcontextprotocol/ext-apps');
    const app = new App({ name: 'test-app', version: '1.0.0' }, {}, { autoResize: false });
    const changes: Json[] = [];
    app.onhostcontextchanged = (p) => changes.push(p as Json);
    await app.connect(h.appTransport as never);
    h.session.updateContext({ theme: 'light', locale: 'en' });
    await until(() => changes.length === 1, 'the change');
    assert.deepEqual(changes[0], { theme: 'light' });
    assert.equal(app.getHostContext()?.theme, 'light');
    const note = h.sent.find((m) => m.method === 'ui/notifications/host-context-changed')!;
    assert.deepEqual(appSchema().validate('McpUiHostContextChangedNotification', note), []);
    await app.close();
    h.session.dispose();
  });

  test('teardown waits for the view to answer ui/resource-teardown', async () => {
    const h = host();
    const { App } = await import('@modelcontextprotocol/ext-apps');
    const app = new App({ name: 'test-app', version: '1.0.0' }, {}, { autoResize: false });
    let tornDown = 0;
    app.onteardown = async () => {
      // The host waits for this answer: the view may save its state first.
      await new Promise((r) => setTimeout(r, 50));
      tornDown = Date.now();
      return {};
    };
    await app.connect(h.appTransport as never);
    await h.session.teardown('the panel was closed');
    assert.ok(tornDown > 0 && tornDown <= Date.now(), 'the view answered before teardown() resolved');
    const request = h.sent.find((m) => m.method === 'ui/resource-teardown')!;
    assert.deepEqual(appSchema().validate('McpUiResourceTeardownRequest', request), []);
  });

  test('malformed messages are refused and logged; a flood is rate-limited', async () => {
    let t = 0;
    const h = host({}, { burst: 5, perSecond: 1 });
    h.session.receive('not json-rpc');
    h.session.receive([{ jsonrpc: '2.0', method: 'ping', id: 1 }]);
    h.session.receive({ jsonrpc: '1.0', method: 'ping', id: 2 });
    assert.ok(h.logs.some((l) => l.includes('refused a message: not a JSON-RPC object')));
    assert.ok(h.logs.some((l) => l.includes('batches are not accepted')));
    await until(() => h.sent.some((m) => m.id === 2 && (m.error as Json)?.code === ErrorCodes.InvalidRequest), 'the error for id 2');
    for (let i = 0; i < 50; i++) h.session.receive({ jsonrpc: '2.0', id: 100 + i, method: 'ping' });
    await until(() => h.sent.filter((m) => typeof m.id === 'number' && (m.id as number) >= 100).length === 50, 'every ping answered');
    const limited = h.sent.filter((m) => (m.error as Json)?.code === ErrorCodes.TooManyRequests);
    // The bucket held 5 minus the 3 refused messages above: the rest of the 50 are refused.
    assert.ok(limited.length >= 45, `rate-limited: ${limited.length}`);
    void t;
    h.session.dispose();
  });
});
