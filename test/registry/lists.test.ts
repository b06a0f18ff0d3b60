// Cached lists kept fresh by list_changed notifications and refresh(), and roots changes that
// reach a real server-filesystem.
import { after, afterEach, before, suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ServerHandle } from '../../src/registry/serverRegistry';
import { FILESYSTEM, MutableRoots, disposeRegistries, entries, firstText, fixture, isAlive, makeRegistry, node, prepare, waitFor } from './support';

afterEach(disposeRegistries);

const names = (list: readonly { name: string }[] | undefined) => (list ?? []).map((x) => x.name).sort();

suite('ServerRegistry: lists', { timeout: 60_000 }, () => {
  test('only declared lists are fetched; list_changed refreshes the matching list and fires onDidChange', async () => {
    const { registry } = makeRegistry();
    const list = entries({ growing: node(fixture('growing.mjs')) });
    await registry.update(list, prepare);
    const h = registry.get(list[0].id)!;
    assert.equal(h.status.kind, 'running', JSON.stringify(h.status));
    assert.deepEqual(names(h.tools), ['add_prompt', 'add_tool']);
    assert.deepEqual(names(h.prompts), ['prompt_0']);
    assert.equal(h.resources, undefined, 'resources were not declared');
    assert.equal(h.templates, undefined);

    const changes: ServerHandle[] = [];
    registry.onDidChange((x) => changes.push(x));
    await h.client!.callTool('add_tool');
    await waitFor(() => h.tools?.some((t) => t.name === 'extra_1'), 5000, 'extra_1 in the cached tools');
    assert.deepEqual(names(h.tools), ['add_prompt', 'add_tool', 'extra_1']);
    assert.ok(changes.includes(h), 'onDidChange fired for the handle');
    assert.deepEqual(names(h.prompts), ['prompt_0'], 'other lists untouched');

    await h.client!.callTool('add_prompt');
    await waitFor(() => h.prompts?.length === 2, 5000, 'prompt_1 in the cached prompts');
    assert.deepEqual(names(h.prompts), ['prompt_0', 'prompt_1']);

    // A burst of changes: the cache ends up complete.
    await Promise.all([h.client!.callTool('add_tool'), h.client!.callTool('add_tool'), h.client!.callTool('add_tool')]);
    await waitFor(() => h.tools?.length === 6, 5000, 'all four extra tools');
    assert.deepEqual(names(h.tools), ['add_prompt', 'add_tool', 'extra_1', 'extra_2', 'extra_3', 'extra_4']);
  });

  test('refresh() fetches again', async () => {
    const { registry } = makeRegistry();
    const list = entries({ growing: node(fixture('growing.mjs')) });
    await registry.update(list, prepare);
    const h = registry.get(list[0].id)!;
    const before = h.tools;
    await h.refresh();
    assert.notEqual(h.tools, before, 'a new array was fetched');
    assert.deepEqual(names(h.tools), names(before));
    await registry.stop(h.id);
    await h.refresh(); // a no-op when stopped
    assert.equal(h.tools, undefined);
  });
});

suite('ServerRegistry: roots', { timeout: 60_000 }, () => {
  let tmp: string;
  before(async () => {
    // realpath: server-filesystem reports resolved paths (macOS /var → /private/var).
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-roots-')));
    await fs.mkdir(path.join(tmp, 'first'));
    await fs.mkdir(path.join(tmp, 'second'));
    await fs.mkdir(path.join(tmp, 'third'));
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('server-filesystem started without directories asks for roots; rootsChanged() makes it ask again', async () => {
    const roots = new MutableRoots([{ uri: pathToFileURL(path.join(tmp, 'first')).href, name: 'first' }]);
    const { registry, logsOf } = makeRegistry({ roots });
    const list = entries({ fs: node(FILESYSTEM), other: node(fixture('lifecycle.mjs'), 'ok') });
    await registry.update(list, prepare);
    const h = registry.get(list[0].id)!;
    assert.equal(h.status.kind, 'running', JSON.stringify(h.status));
    const allowed = async () => firstText(await h.client!.callTool('list_allowed_directories'));
    await waitFor(async () => (await allowed()).includes(path.join(tmp, 'first')), 5000, 'the first root');

    roots.roots = [
      { uri: pathToFileURL(path.join(tmp, 'second')).href, name: 'second' },
      { uri: pathToFileURL(path.join(tmp, 'third')).href, name: 'third' },
    ];
    await registry.rootsChanged();
    const text = await waitFor(async () => {
      const t = await allowed();
      return t.includes(path.join(tmp, 'second')) && t.includes(path.join(tmp, 'third')) && t;
    }, 5000, 'the new roots');
    assert.ok(!text.includes(path.join(tmp, 'first')), text);
    assert.deepEqual(h.client!.rootsListed?.roots.map((r) => r.name), ['second', 'third']);
    assert.ok(logsOf(h.id).includes('sent notifications/roots/list_changed'));
    assert.ok(isAlive(h.pid));
  });
});
