// find_tools' search over the tool lists of real servers (server-everything, server-filesystem,
// server-memory), listed here through MCP Host's own client: the tool a request describes ranks
// first, deterministically.
import assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { McpClient } from '../../src/client';
import { ToolSearchIndex, searchTerms } from '../../src/chat/toolSearch';
import type { SearchableTool } from '../../src/chat/toolSearch';
import { EVERYTHING, FILESYSTEM, REPO, connectStdio } from '../client/support';

const MEMORY = path.join(REPO, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');

describe('tool search on real servers', () => {
  const clients: McpClient[] = [];
  let index: ToolSearchIndex;
  before(async () => {
    const servers: [string, string[]][] = [
      ['everything', EVERYTHING],
      ['filesystem', [FILESYSTEM, os.tmpdir()]],
      ['memory', [MEMORY]],
    ];
    const items: SearchableTool[] = [];
    for (const [serverName, args] of servers) {
      const { client } = await connectStdio(process.execPath, args, {}, { env: { ...process.env, MEMORY_FILE_PATH: path.join(os.tmpdir(), `mcp-host-search-${process.pid}.json`) } });
      clients.push(client);
      for (const tool of await client.listTools()) items.push({ serverName, tool });
    }
    index = new ToolSearchIndex(items);
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });

  const top = (query: string, k = 1) => index.search(query, k).map((m) => `${m.item.serverName}/${m.item.tool.name}`);

  for (const [query, expected] of [
    ['echo back a message', 'everything/echo'],
    ['add two numbers', 'everything/get-sum'],
    ['read the contents of a text file', 'filesystem/read_text_file'],
    ['list the files in a directory', 'filesystem/list_directory'],
    ['move or rename a file', 'filesystem/move_file'],
    ['create entities in the knowledge graph', 'memory/create_entities'],
    ['delete relations from the graph', 'memory/delete_relations'],
    ['search nodes by query', 'memory/search_nodes'],
    ['add observations to an entity', 'memory/add_observations'],
  ] as const) {
    test(`"${query}" → ${expected}`, () => {
      assert.equal(top(query)[0], expected, `got ${top(query, 5).join(', ')}`);
    });
  }

  test('deterministic, scores best first, no match for unrelated words, limit honoured', () => {
    const a = index.search('write file', 5);
    const b = index.search('write file', 5);
    assert.deepEqual(a, b);
    assert.equal(a.length, 5);
    for (let i = 1; i < a.length; i++) assert.ok(a[i - 1].score >= a[i].score);
    assert.deepEqual(index.search('zyxwvut qqq', 5), []);
    assert.deepEqual(index.search('', 5), []);
  });

  test('as you type: the last word, unfinished, matches the words it begins (Find Tool…); a finished query is unchanged', () => {
    assert.deepEqual(index.search('observat', 5), [], 'whole words only by default');
    const observations = index.search('observat', 5, { asYouType: true }).map((m) => m.item.tool.name);
    assert.ok(observations.length >= 2 && observations.slice(0, 2).every((n) => n.endsWith('_observations')), observations.join(', '));
    const typed = index.search('read_text_fi', 3, { asYouType: true }).map((m) => m.item.tool.name);
    assert.equal(typed[0], 'read_text_file', typed.join(', '));
    assert.equal(index.search('echo', 1, { asYouType: true })[0]?.item.tool.name, 'echo');
    assert.equal(index.search('knowledge gra', 1, { asYouType: true })[0]?.item.serverName, 'memory');
    // A trailing space finishes the word: then it must match whole, as without the option.
    assert.deepEqual(index.search('read_text_fi ', 5, { asYouType: true }), index.search('read_text_fi', 5));
    assert.deepEqual(index.search('write file', 5, { asYouType: true }).slice(0, 1), index.search('write file', 5).slice(0, 1));
  });

  test('terms: case, snake and kebab split, plurals folded, stop words dropped', () => {
    assert.deepEqual(searchTerms('readTextFile list_directories get-sum the Files'), ['read', 'text', 'file', 'list', 'directory', 'get', 'sum', 'file']);
  });
});
