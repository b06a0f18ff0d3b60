// MCP Apps and @mcp below VS Code: app-only tools are never offered to the model (the official
// server-system-monitor's poll tool), a model's call of a tool with a view is remembered with its
// input and result (the official basic-vanillajs clock), and what a view sends through the
// official App SDK reaches the conversation: `ui/message` as the next request, the latest
// `ui/update-model-context` with the next request of its conversation, once.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { McpClient, Tool } from '../../src/client';
import { ChatAppViews, MAX_APP_TEXT, appLabel } from '../../src/chat/appViews';
import { buildToolCatalog, describeCatalog } from '../../src/chat/toolCatalog';
import type { ServerTool } from '../../src/chat/toolNames';
import { AppHostSession } from '../../src/apps/appHost';
import type { AppConversation } from '../../src/apps/appConversation';
import { REPO, connectStdio, fixture } from '../client/support';
import { relay } from '../apps/appRelay';

const exampleServer = (name: string) => [path.join(REPO, 'node_modules/@modelcontextprotocol', name, 'dist/index.js'), '--stdio'];

describe('app-only tools are left out of the model catalog', () => {
  let monitor: McpClient;
  let hostile: McpClient;
  before(async () => {
    ({ client: monitor } = await connectStdio(process.execPath, exampleServer('server-system-monitor')));
    ({ client: hostile } = await connectStdio(process.execPath, [fixture('hostileApp.mjs')]));
  });
  after(async () => {
    await monitor.close();
    await hostile.close();
  });

  test('server-system-monitor: poll-system-stats (visibility ["app"]) is not offered, and /tools says why', async () => {
    const tools = await monitor.listTools();
    assert.ok(tools.some((t) => t.name === 'poll-system-stats'), 'the server lists its app-only tool');
    const catalog = buildToolCatalog({ tools: tools.map((tool) => ({ serverId: 'm', serverName: 'monitor', tool })), isServerEnabled: () => true, isToolEnabled: () => true, budget: { maxTools: 128, maxTokens: 1e9 }, loaded: new Set() });
    assert.deepEqual(catalog.offered.map((t) => t.tool.name), ['get-system-info']);
    assert.deepEqual(catalog.usable.map((t) => t.tool.name), ['get-system-info'], 'find_tools cannot load it either');
    assert.deepEqual(catalog.leftOut.map((l) => [l.tool.tool.name, l.reason]), [['poll-system-stats', 'app-only']]);
    assert.match(describeCatalog(catalog), /Left out \(offered to its app view only, by the server \(_meta\.ui\.visibility\)\): monitor\/poll-system-stats/);
  });

  test('visibility ["model"] and no visibility are offered; app-only wins over a disabled server as the reason', async () => {
    const tools = await hostile.listTools();
    const appOnly: Tool = { name: 'refresh', inputSchema: { type: 'object' }, _meta: { ui: { visibility: ['app'] } } };
    const all: ServerTool[] = [...tools, appOnly].map((tool) => ({ serverId: 'h', serverName: 'hostile', tool }));
    const on = buildToolCatalog({ tools: all, isServerEnabled: () => true, isToolEnabled: () => true, budget: { maxTools: 128, maxTokens: 1e9 }, loaded: new Set() });
    assert.deepEqual(on.offered.map((t) => t.tool.name).sort(), ['hostile-app', 'model-only', 'wipe']);
    const off = buildToolCatalog({ tools: all, isServerEnabled: () => false, isToolEnabled: () => true, budget: { maxTools: 128, maxTokens: 1e9 }, loaded: new Set() });
    assert.deepEqual(off.leftOut.filter((l) => l.reason === 'app-only').map((l) => l.tool.tool.name), ['refresh']);
  });
});

describe('app views of chat calls', () => {
  let basic: McpClient;
  let getTime: ServerTool;
  before(async () => {
    ({ client: basic } = await connectStdio(process.execPath, exampleServer('server-basic-vanillajs')));
    const tool = (await basic.listTools()).find((t) => t.name === 'get-time')!;
    getTime = { serverId: 'b', serverName: 'basic', tool };
  });
  after(async () => basic.close());

  test('a call of a tool with a view is remembered with its input and result; one without is not', async () => {
    const views = new ChatAppViews();
    const result = await basic.callTool('get-time', {});
    const call = views.record('c1', getTime, {}, result)!;
    assert.equal(call.resourceUri, 'ui://get-time/mcp-app.html');
    assert.deepEqual(views.call(call.id)?.result, result);
    assert.equal(views.call('nope'), undefined);
    assert.equal(views.call(42), undefined);
    assert.equal(views.record('c1', { serverId: 'b', serverName: 'basic', tool: { name: 'plain', inputSchema: { type: 'object' } } }, {}, result), undefined);
    assert.equal(appLabel(call), 'the app of get-time (basic)');
  });

  test('remembers the last 100 calls', async () => {
    const views = new ChatAppViews();
    const result = { content: [] };
    const first = views.record('c', getTime, {}, result)!;
    for (let i = 0; i < 100; i++) views.record('c', getTime, { i }, result);
    assert.equal(views.call(first.id), undefined);
  });

  /** A host session for `conversation`, with the official App connected to it. */
  async function appOn(conversation: AppConversation) {
    let session!: AppHostSession;
    const transport = relay(() => session);
    session = new AppHostSession(
      {
        hostInfo: { name: 'mcp-host', version: '0.1.0' },
        hostCapabilities: { message: { text: {} }, updateModelContext: { text: {}, structuredContent: {} } },
        hostContext: { theme: 'dark', displayMode: 'fullscreen' },
        label: 'the app of get-time',
      },
      {
        deliver: (m) => queueMicrotask(() => transport.onmessage?.(structuredClone(m))),
        callTool: async () => ({ content: [] }),
        readResource: async () => ({ contents: [] }),
        openLink: async () => {},
        conversation,
        requestDisplayMode: async (mode) => mode,
        sizeChanged: () => {},
        requestTeardown: () => {},
        log: () => {},
        tracing: () => false,
      },
    );
    const { App } = await import('@modelcontextprotocol/ext-apps');
    const app = new App({ name: 'clock', version: '1.0.0' }, {}, { autoResize: false });
    await app.connect(transport as never);
    return { app, session };
  }

  test('the official App: its message becomes the next request, its latest context goes with the next request of its conversation, once', async () => {
    let t = 1_000;
    const views = new ChatAppViews(() => t);
    const call = views.record('conv-A', getTime, {}, await basic.callTool('get-time', {}))!;
    const sent: string[] = [];
    const { app, session } = await appOn(views.conversation(call, async (prompt) => void sent.push(prompt)));
    await app.updateModelContext({ content: [{ type: 'text', text: 'first state' }] });
    await app.updateModelContext({ content: [{ type: 'text', text: 'The user picked 12:00' }], structuredContent: { picked: '12:00' } });
    // Another conversation's request does not get it.
    assert.equal(views.takeContext('conv-B'), undefined);
    const taken = views.takeContext('conv-A')!;
    assert.equal(taken.from[0].id, call.id);
    assert.match(taken.text, /^Context from app views the user has open \(written by the views, not by the user\):\n\[the app of get-time \(basic\)\] The user picked 12:00 \{"picked":"12:00"\}$/);
    assert.doesNotMatch(taken.text, /first state/, 'each update replaces the one before');
    assert.equal(views.takeContext('conv-A'), undefined, 'taken once');

    await app.sendMessage({ role: 'user', content: [{ type: 'text', text: 'What time  is it\nin Paris?' }] });
    assert.deepEqual(sent, ['What time  is it\nin Paris?']);
    // A second message waits until the first reached the chat.
    await assert.rejects(app.sendMessage({ role: 'user', content: [{ type: 'text', text: 'again' }] }), /has not reached the chat yet/);
    assert.equal(views.takeAppMessage('something else'), undefined);
    // The chat input may fold whitespace.
    assert.equal(views.takeAppMessage('What time is it in Paris?')?.id, call.id);
    assert.equal(views.takeAppMessage('What time is it in Paris?'), undefined, 'taken once');
    await app.sendMessage({ role: 'user', content: [{ type: 'text', text: 'again' }] });
    // The sender's context goes with its message even when the chat shown is another conversation.
    await app.updateModelContext({ content: [{ type: 'text', text: 'state 3' }] });
    const sender = views.takeAppMessage('again')!;
    assert.match(views.takeContext('conv-B', sender)!.text, /state 3/);
    // A message no request picks up (the user did not send it from the chat input) is forgotten after ten minutes: the view may send another.
    await app.sendMessage({ role: 'user', content: [{ type: 'text', text: 'lost' }] });
    t += 10 * 60_000 + 1_000;
    await app.sendMessage({ role: 'user', content: [{ type: 'text', text: 'found' }] });
    assert.equal(views.takeAppMessage('lost'), undefined);
    assert.deepEqual(sent.slice(-2), ['lost', 'found']);
    session.dispose();
  });

  test('a message cannot start a chat command, name a participant or a variable; too long or unsent is refused', async () => {
    const views = new ChatAppViews();
    const call = views.record('c', getTime, {}, { content: [] })!;
    const sent: string[] = [];
    let fail = false;
    const conversation = views.conversation(call, async (prompt) => {
      if (fail) throw new Error('no chat');
      sent.push(prompt);
    });
    for (const text of ['/tools', '  @workspace hi', '#file:/etc/passwd']) {
      await conversation.receive({ kind: 'message', role: 'user', content: [{ type: 'text', text }] });
      assert.ok(views.takeAppMessage(sent.at(-1)!));
    }
    assert.deepEqual(sent, ['“/tools”', '“@workspace hi”', '“#file:/etc/passwd”']);
    await assert.rejects(conversation.receive({ kind: 'context', content: [{ type: 'text', text: 'x'.repeat(MAX_APP_TEXT + 1) }] }), /longer than 8000 characters/);
    fail = true;
    await assert.rejects(conversation.receive({ kind: 'message', role: 'user', content: [{ type: 'text', text: 'hello' }] }), /no chat/);
    fail = false;
    // The failed message is not left waiting: the next one goes.
    await conversation.receive({ kind: 'message', role: 'user', content: [{ type: 'text', text: 'hello' }] });
    assert.equal(sent.at(-1), 'hello');
  });

  test('conversation ids are distinct', () => {
    const views = new ChatAppViews();
    assert.notEqual(views.newConversationId(), views.newConversationId());
  });
});
