import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rootsLogLines, workspaceRoots, type RootFolder } from '../../../src/extension/config/roots';

/** A workspace folder as VS Code hands it over: a name and a URI with its scheme. */
function folder(name: string, uri: string): RootFolder {
  return { name, uri: { scheme: new URL(uri).protocol.slice(0, -1), toString: () => uri } };
}

describe('workspaceRoots', () => {
  test('file folders become roots in folder order; other schemes are skipped and named', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-host-roots-'));
    try {
      const a = pathToFileURL(join(dir, 'a b')).href; // a space: the URI is encoded, as VS Code's is
      const b = pathToFileURL(join(dir, 'b')).href;
      const selection = workspaceRoots([
        folder('a b', a),
        folder('remote repo', 'vscode-vfs://github/owner/repo'),
        folder('b', b),
        folder('scratch', 'untitled:Untitled-1'),
      ]);
      assert.deepEqual(selection.roots, [
        { uri: a, name: 'a b' },
        { uri: b, name: 'b' },
      ]);
      // What a server does with a root: turn it back into the folder on disk.
      assert.equal(fileURLToPath(selection.roots[0].uri), join(dir, 'a b'));
      assert.deepEqual(selection.skipped, [
        { name: 'remote repo', uri: 'vscode-vfs://github/owner/repo' },
        { name: 'scratch', uri: 'untitled:Untitled-1' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('no folder open: no roots, nothing skipped', () => {
    assert.deepEqual(workspaceRoots(undefined), { roots: [], skipped: [] });
    assert.deepEqual(workspaceRoots([]), { roots: [], skipped: [] });
  });

  test('the scheme decides, not the look of the URI', () => {
    // A "file" folder on a UNC share is still a root; a virtual folder whose path looks local is not.
    const selection = workspaceRoots([folder('share', 'file://server/share/project'), folder('looks local', 'vscode-remote://ssh-remote+box/home/me/project')]);
    assert.deepEqual(selection.roots, [{ uri: 'file://server/share/project', name: 'share' }]);
    assert.deepEqual(
      selection.skipped.map((f) => f.name),
      ['looks local'],
    );
  });
});

describe('rootsLogLines', () => {
  test('one line per skipped folder, naming it, then the roots', () => {
    const selection = workspaceRoots([folder('a', 'file:///w/a'), folder('remote repo', 'vscode-vfs://github/owner/repo')]);
    assert.deepEqual(rootsLogLines(selection, 'workspace folders changed'), [
      'Roots: skipping "remote repo" (vscode-vfs://github/owner/repo): only file folders are offered to servers.',
      'Roots (workspace folders changed): a file:///w/a.',
    ]);
  });

  test('"none" when no folder is a root', () => {
    assert.deepEqual(rootsLogLines(workspaceRoots([folder('scratch', 'untitled:Untitled-1')]), 'activation'), [
      'Roots: skipping "scratch" (untitled:Untitled-1): only file folders are offered to servers.',
      'Roots (activation): none.',
    ]);
  });
});
