// The figures README gives for @mcp: estimated tokens of the tool definitions sent with each
// request, for the demo's servers and for a workspace of 300 tools, with and without discovery.
// Counted as estimateDefinitionTokens does (JSON characters of {name, description, inputSchema}
// / 4); the assertions check the budget bounds what is sent, the numbers are printed.
import assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { McpClient } from '../../src/client';
import { FIND_TOOLS, buildToolCatalog, estimateDefinitionTokens } from '../../src/chat/toolCatalog';
import type { ServerTool } from '../../src/chat/toolNames';
import { ToolSearchIndex } from '../../src/chat/toolSearch';
import { appsClientCapabilities } from '../../src/client/apps';
import { receivedTasksCapability } from '../../src/serverRequests/taskReceiver';
import { EVERYTHING, REPO, connectStdio, fixture } from '../client/support';

// What the editor declares (src/extension/editorHost.ts): roots, sampling, elicitation, tasks for
// both, MCP Apps. server-everything offers some tools only to a client that declares these.
const EDITOR_CAPABILITIES = {
  sampling: {},
  elicitation: { form: {}, url: {} },
  tasks: receivedTasksCapability({ sampling: true, elicitation: true }),
  ...appsClientCapabilities(),
};

describe('tokens of tool definitions per request', () => {
  const clients: McpClient[] = [];
  const listed = new Map<string, ServerTool[]>();
  before(async () => {
    const servers: [string, string[], Record<string, string>?][] = [
      ['everything', EVERYTHING],
      ['notes', [path.join(REPO, 'demo/servers/notes-server.mjs')], { NOTES_FILE: path.join(os.tmpdir(), `mcp-host-notes-${process.pid}.json`) }],
      ['clock-app', [path.join(REPO, 'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js'), '--stdio']],
      ['many', [fixture('manyTools.mjs')]],
    ];
    for (const [name, args, env] of servers) {
      const options = { capabilities: EDITOR_CAPABILITIES, roots: { listRoots: () => [] } };
      const { client } = await connectStdio(process.execPath, args, options, env ? { env: { ...process.env, ...env } } : {});
      clients.push(client);
      listed.set(name, (await client.listTools()).map((tool) => ({ serverId: name, serverName: name, tool })));
    }
  });
  after(async () => Promise.all(clients.map((c) => c.close())));

  const figures = (tools: ServerTool[], loaded: string[]) => {
    const base = { tools, isServerEnabled: () => true, isToolEnabled: () => true, loaded: new Set(loaded) };
    const all = buildToolCatalog({ ...base, budget: { maxTools: 100_000, maxTokens: 1e9 } });
    const discovery = buildToolCatalog({ ...base, budget: { maxTools: 64, maxTokens: 12_000 } });
    return { tools: tools.length, all: estimateDefinitionTokens(all.definitions), discovery: estimateDefinitionTokens(discovery.definitions), sent: discovery.definitions.length, usesDiscovery: discovery.discovery };
  };

  test('the demo (everything + notes + clock-app) fits the default budget: every tool is sent', () => {
    const f = figures([...listed.get('everything')!, ...listed.get('notes')!, ...listed.get('clock-app')!], []);
    console.log(`demo: ${f.tools} tools, ${f.all} tokens of definitions per request (no discovery needed: ${!f.usesDiscovery})`);
    assert.equal(f.usesDiscovery, false);
  });

  test('300 tools: find_tools alone, then find_tools plus the tools loaded', () => {
    const tools = listed.get('many')!;
    const first = figures(tools, []);
    const index = new ToolSearchIndex(buildToolCatalog({ tools, isServerEnabled: () => true, isToolEnabled: () => true, loaded: new Set(), budget: { maxTools: 1e5, maxTokens: 1e9 } }).usable);
    assert.equal(index.search('convert currency', 5)[0].item.modelName, 'many_convert_currency');
    const found = index.search('archive an invoice', 5).map((m) => m.item.modelName);
    assert.equal(found[0], 'many_archive_invoice');
    const after = figures(tools, found);
    console.log(`300 tools: ${first.all} tokens with every definition; with discovery ${first.discovery} tokens (${FIND_TOOLS} only), ${after.discovery} tokens after loading 5 tools (${after.sent} definitions)`);
    assert.ok(first.usesDiscovery && first.sent === 1 && after.sent === 6);
    assert.ok(after.discovery < first.all / 20);
  });
});
