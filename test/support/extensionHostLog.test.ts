import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extensionErrors } from './extensionHostLog';

// Shapes copied from code-server 4.139's remoteexthost.log.
const LOG = `2026-11-23 09:07:35.777 [info] ExtensionService#_doActivateExtension mcp-host.mcp-host, startup: false, activationEvent: 'onView:mcpHost.servers'
2026-11-23 09:07:37.466 [error] PendingMigrationError: navigator is now a global in nodejs, please see https://aka.ms/vscode-extensions/navigator for additional info on this error.
    at get (file:///root/.cache/mcp-host/code-server-4.139.1/node_modules/code-server/lib/vscode/out/vs/workbench/api/node/extensionHostProcess.js:473:7297)
    at /tmp/mcp-host-e2e-vadoNC/extensions/mcp-host.mcp-host-0.1.0/dist/extension.js:11052:3
    at Module._compile (node:internal/modules/cjs/loader:1929:14)
2026-11-23 09:07:37.500 [error] Error: something else
    at /tmp/x/extensions/vscode.git-1.0.0/dist/main.js:1:1
2026-11-23 09:07:37.510 [error] Activating extension mcp-host.mcp-host failed due to an error:
2026-11-23 09:07:37.511 [error] TypeError: boom
2026-11-23 09:07:37.529 [info] ExtensionService#_doActivateExtension vscode.git-base, startup: true, activationEvent: '*', root cause: vscode.git
`;

test('extension host log: only error entries that name MCP Host, with their first frame in it', () => {
  assert.deepEqual(extensionErrors(LOG), [
    '2026-11-23 09:07:37.466 [error] PendingMigrationError: navigator is now a global in nodejs, please see https://aka.ms/vscode-extensions/navigator for additional info on this error.\n' +
      'at /tmp/mcp-host-e2e-vadoNC/extensions/mcp-host.mcp-host-0.1.0/dist/extension.js:11052:3',
    '2026-11-23 09:07:37.510 [error] Activating extension mcp-host.mcp-host failed due to an error:',
  ]);
  assert.deepEqual(extensionErrors('2026-11-23 09:07:35.777 [info] nothing wrong\n'), []);
});
