import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { Root } from '../../src/client';
import { FILESYSTEM, connectStdio, waitFor } from './support';

describe('roots with server-filesystem started without directories', () => {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'mcp-roots-')));
  const a = path.join(base, 'alpha');
  const b = path.join(base, 'beta');
  after(() => rmSync(base, { recursive: true, force: true }));

  test('the server asks for roots, and sees the new set after a roots change', async () => {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(a);
    mkdirSync(b);
    let roots: Root[] = [{ uri: pathToFileURL(a).href, name: 'alpha' }];
    const { client, wire } = await connectStdio(process.execPath, [FILESYSTEM], { roots: { listRoots: () => roots } });
    try {
      assert.deepEqual(wire.sent('initialize')[0].params.capabilities, { roots: { listChanged: true }, tasks: {} });
      await waitFor(() => client.rootsListed, 5000, 'the server to ask for roots');
      const allowed = async () => {
        const r = await client.callTool('list_allowed_directories', {});
        return (r.content[0] as { text: string }).text;
      };
      // The server applies the roots it was given asynchronously, after its roots/list is answered.
      let before = '';
      for (let i = 0; i < 50 && !before.includes(a); i++) {
        before = await allowed();
        if (!before.includes(a)) await new Promise((r) => setTimeout(r, 50));
      }
      assert.ok(before.includes(a) && !before.includes(b), before);

      const askedBefore = client.rootsListed!.time;
      roots = [{ uri: pathToFileURL(b).href, name: 'beta' }];
      await client.rootsChanged();
      assert.equal(wire.sent('notifications/roots/list_changed').length, 1);
      await waitFor(() => client.rootsListed!.time > askedBefore && client.rootsListed, 5000, 'a second roots/list');
      // Again applied asynchronously; poll its view of the world.
      let after = '';
      for (let i = 0; i < 50 && !after.includes(b); i++) {
        after = await allowed();
        if (!after.includes(b)) await new Promise((r) => setTimeout(r, 50));
      }
      assert.ok(after.includes(b) && !after.includes(a), after);
      assert.deepEqual(wire.problems(client.protocolVersion!), []);
    } finally {
      await client.close();
    }
  });
});
