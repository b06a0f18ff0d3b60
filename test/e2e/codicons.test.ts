// The codicons and theme colors MCP Host's tree uses for each server state exist in the VS Code
// under test: the workbench bundle of the code-server the end-to-end suites run (installed by
// installCodeServer(), so MCP_HOST_CACHE and the pinned version are honoured). In the end-to-end
// stream, where code-server is always installed: never skipped.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { statusIcon, type StatusKind } from '../../src/extension/tree/serverRowText';
import { installCodeServer } from './harness';

/** Every state (a `Record` so that a new state fails to compile until it is listed). */
const KINDS: Record<StatusKind, true> = { stopped: true, starting: true, waiting: true, running: true, stopping: true, error: true, blocked: true, signin: true };

test('VS Code knows every codicon and theme color the server states use', { timeout: 20 * 60_000 }, async () => {
  const install = await installCodeServer();
  const bundle = join(install.entry, '..', '..', '..', 'lib', 'vscode', 'out', 'vs', 'code', 'browser', 'workbench', 'workbench.js');
  const text = readFileSync(bundle, 'utf8');
  for (const kind of Object.keys(KINDS) as StatusKind[]) {
    const { id, color } = statusIcon(kind);
    const name = id.replace(/~\w+$/, '');
    // Codicons are registered as register("name", codepoint); theme colors as registerColor("id", {defaults}).
    assert.match(text, new RegExp(`\\w\\("${name}",\\d+\\)`), `codicon ${name} (${kind})`);
    if (color) assert.match(text, new RegExp(`\\w\\("${color.replace(/\./g, '\\.')}",\\{`), `theme color ${color} (${kind})`);
  }
});
