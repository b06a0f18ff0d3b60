import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { McpClient, Tool } from '../../src/client';
import { confirmationReason, needsConfirmation } from '../../src/usecases/toolPolicy';
import { EVERYTHING, FILESYSTEM, connectStdio } from '../client/support';

describe('which tool calls ask first', () => {
  test('the MCP defaults: no annotations means possibly destructive', () => {
    assert.equal(needsConfirmation({}), true);
    assert.match(confirmationReason({}), /does not say whether this tool only reads or also changes things, so MCP Host treats it as one that may change them\./);
    assert.equal(needsConfirmation({ annotations: { readOnlyHint: true } }), false);
    assert.equal(needsConfirmation({ annotations: { readOnlyHint: true, destructiveHint: true } }), false, 'read-only wins: destructiveHint only means something when not read-only');
    assert.equal(needsConfirmation({ annotations: { readOnlyHint: false, destructiveHint: false } }), false);
    assert.equal(needsConfirmation({ annotations: { destructiveHint: true } }), true);
    assert.match(confirmationReason({ annotations: { destructiveHint: true } }), /may delete or overwrite things/);
    assert.match(confirmationReason({ annotations: { idempotentHint: true, readOnlyHint: false } }), /does not say that this tool only reads/);
    assert.equal(needsConfirmation({ annotations: { idempotentHint: true } }), true);
  });

  describe('on the real tools', () => {
    const clients: McpClient[] = [];
    const tools = new Map<string, Tool>();
    const dir = mkdtempSync(path.join(tmpdir(), 'mcp-inspect-policy-'));
    before(async () => {
      for (const [cmd, args] of [[process.execPath, EVERYTHING], [process.execPath, [FILESYSTEM, dir]]] as const) {
        const { client } = await connectStdio(cmd, [...args]);
        clients.push(client);
        for (const t of await client.listTools()) tools.set(t.name, t);
      }
    });
    after(async () => {
      await Promise.all(clients.map((c) => c.close()));
      rmSync(dir, { recursive: true, force: true });
    });

    test('filesystem writes ask; reads and echo do not', () => {
      for (const name of ['write_file', 'edit_file', 'move_file']) assert.equal(needsConfirmation(tools.get(name)!), true, name);
      for (const name of ['read_text_file', 'list_directory', 'create_directory', 'echo', 'get-sum', 'toggle-simulated-logging']) assert.equal(needsConfirmation(tools.get(name)!), false, name);
    });
  });
});
