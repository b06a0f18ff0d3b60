import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { McpLocalError } from '../../src/protocol/errors';
import { getEnv, mergeEnv, resolveCommand, searchPath } from '../../src/transport/commandResolver';

const posix = process.platform !== 'win32';

describe('resolveCommand', { skip: !posix }, () => {
  const root = mkdtempSync(path.join(tmpdir(), 'mcp-host-resolve-'));
  mkdirSync(path.join(root, 'bin'));
  writeFileSync(path.join(root, 'bin', 'tool'), '#!/bin/sh\n');
  chmodSync(path.join(root, 'bin', 'tool'), 0o755);
  writeFileSync(path.join(root, 'bin', 'plain'), 'not executable');
  after(() => rmSync(root, { recursive: true, force: true }));

  test('searches the env PATH, resolving relative entries against cwd', async () => {
    const found = await resolveCommand('tool', { env: { PATH: `/nonexistent:bin` }, cwd: root });
    assert.equal(found, path.join(root, 'bin', 'tool'));
  });

  test('resolves a relative path against cwd, not against our own directory', async () => {
    assert.equal(await resolveCommand('./bin/tool', { env: {}, cwd: root }), path.join(root, 'bin', 'tool'));
  });

  test('skips files that are not executable', async () => {
    await assert.rejects(resolveCommand('plain', { env: { PATH: 'bin' }, cwd: root }), /command not found on PATH/);
    await assert.rejects(resolveCommand('bin/plain', { env: {}, cwd: root }), /is not an executable file/);
  });

  test('names the command and every directory searched', async () => {
    await assert.rejects(resolveCommand('nope', { env: { PATH: '/x/one::/x/two' }, cwd: root }), (e: unknown) => {
      assert.ok(McpLocalError.is(e, 'spawn'));
      assert.equal(e.message, 'cannot start "nope": command not found on PATH (searched /x/one:/x/two)');
      assert.deepEqual(e.details.searched, ['/x/one', '/x/two']);
      return true;
    });
    await assert.rejects(resolveCommand('nope', { env: {}, cwd: root }), /\(PATH is empty\)/);
    await assert.rejects(resolveCommand('./missing', { env: {}, cwd: root }), new RegExp(`${path.join(root, 'missing')} does not exist`));
  });
});

describe('environment helpers', () => {
  test('mergeEnv lays variables over the base; undefined is kept so spawn leaves it unset', () => {
    assert.deepEqual(mergeEnv({ A: '1', B: '2' }, { B: '3', A: undefined }, 'linux'), { A: undefined, B: '3' });
  });

  test('on Windows names are case-insensitive', () => {
    assert.deepEqual(mergeEnv({ Path: 'C:\\old' }, { PATH: 'C:\\new' }, 'win32'), { PATH: 'C:\\new' });
    assert.equal(getEnv({ Path: 'C:\\bin' }, 'PATH', 'win32'), 'C:\\bin');
    assert.deepEqual(searchPath({ Path: '"C:\\Program Files\\node";rel' }, 'C:\\work', 'win32'), ['C:\\Program Files\\node', 'C:\\work\\rel']);
  });
});
