// The commands of MCP Host. Server commands take a tree node (menus), a server id or name
// (scripts, tests), or nothing (command palette: a quick pick asks which server).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ConfigProblem } from '../config';
import type { ServerHandle } from '../registry';
import { EXAMPLE_MCP_JSON } from './config/exampleConfig';
import { plainPickText } from '../content/untrustedText';
import type { EditorHost } from './editorHost';
import { problemRange } from './config/workspaceConfig';
import type { ServersTreeProvider, TreeNode } from './tree/serversTree';
import type { OpeningFocus } from './tree/openingFocus';
import { errorMessage } from '../protocol/errors';

type ServerArg = TreeNode | string | undefined;

export function registerCommands(host: EditorHost, tree: ServersTreeProvider, view: vscode.TreeView<TreeNode>, opening: OpeningFocus): vscode.Disposable[] {
  const register = (id: string, fn: (...args: any[]) => unknown) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        await fn(...args);
      } catch (error) {
        const message = errorMessage(error);
        host.log.error(`${id} failed: ${message}`);
        void vscode.window.showErrorMessage(`MCP Host: ${message}`);
      }
    });

  const withServer = (placeHolder: string, action: (h: ServerHandle) => unknown, filter: (h: ServerHandle) => boolean = () => true) => async (arg: ServerArg) => {
    const h = await pickServer(host, arg, placeHolder, filter);
    if (h) await action(h);
  };

  return [
    register('mcpHost.refresh', async () => {
      await host.refresh();
      tree.refresh();
    }),
    register('mcpHost.startAll', () => host.startAll()),
    register('mcpHost.stopAll', () => host.stopAll()),
    register('mcpHost.restartAll', () => host.restartAll()),
    register('mcpHost.server.start', withServer('Start which MCP server?', (h) => host.start(h.id), (h) => h.entry.config.type === 'stdio')),
    register('mcpHost.server.stop', withServer('Stop which MCP server?', (h) => host.stop(h.id), (h) => h.status.kind !== 'stopped')),
    register('mcpHost.server.restart', withServer('Restart which MCP server?', (h) => host.restart(h.id), (h) => h.entry.config.type === 'stdio')),
    register('mcpHost.server.signIn', withServer('Sign in to which MCP server?', (h) => host.signIns.signIn(h.id), (h) => h.entry.config.type !== 'stdio')),
    register('mcpHost.server.setToken', withServer('Set a token for which MCP server?', async (h) => (await import('./signIn/setToken.js')).setToken(h, host.inputs, (id) => host.restart(id)), (h) => h.entry.config.type !== 'stdio')),
    register('mcpHost.server.signOut', withServer('Sign out of which MCP server?', (h) => host.signIns.signOut(h.id), (h) => host.signIns.canSignOut(h.id))),
    register('mcpHost.server.recordSession', withServer('Record (or stop recording) which MCP server?', async (h) => (await host.recorder.get()).toggle(h))),
    register('mcpHost.server.toggleShare', withServer('Share which MCP server with VS Code Chat (or stop sharing it)?', (h) => host.chatShare.toggle(h))),
    register('mcpHost.server.copyGatewayConfig', withServer('Copy the gateway entry of which shared MCP server?', (h) => host.chatShare.copyClientConfig(h), (h) => host.chatShare.isShared(h))),
    register('mcpHost.server.showOutput', withServer('Show the output of which MCP server?', (h) => host.logs.get(h.id).show())),
    register('mcpHost.server.openConfig', withServer('Open the configuration of which MCP server?', (h) => openServerConfig(h))),
    register('mcpHost.showLog', () => host.log.show(true)),
    register('mcpHost.openProblem', (arg?: TreeNode) => (arg?.kind === 'problem' ? openProblem(arg.problem) : undefined)),
    register('mcpHost.createConfig', () => createConfig()),
    // A long group's last row, and its inline Show All (serversTree.ts, groupPages.ts).
    register('mcpHost.tree.showMore', (node: TreeNode) => tree.showMore(node)),
    register('mcpHost.tree.showAll', (node: TreeNode) => tree.showAll(node)),
    register('mcpHost.findTool', (arg?: TreeNode) => findToolFrom(host, tree, view, opening, arg)),
    register('mcpHost.clearInputs', async () => {
      const count = await host.gate.clearInputs();
      void vscode.window.showInformationMessage(
        count ? `MCP Host: cleared ${count} stored input value${count === 1 ? '' : 's'}. Servers ask again when they next start.` : 'MCP Host: no input values were stored.',
      );
    }),
    // After a Deny (or a dialog closed without an answer): ask consent again, now.
    register('mcpHost.server.allow', withServer('Allow which MCP server to start? Its consent is asked again.', (h) => host.start(h.id), (h) => host.gate.awaitsConsent(h.entry))),
    register('mcpHost.forgetConsent', (arg: ServerArg) => forgetConsent(host, arg)),
  ];
}

/** Find Tool: from a Tools group, that server's tools; otherwise every running server's. The find tool module loads on first use. */
async function findToolFrom(host: EditorHost, tree: ServersTreeProvider, view: vscode.TreeView<TreeNode>, opening: OpeningFocus, arg: TreeNode | undefined): Promise<void> {
  const { findTool } = await import('./tree/findTool.js');
  await findTool(
    {
      runningServers: () => host.tree.servers().filter((h) => host.tree.displayStatus(h).kind === 'running'),
      openTool: (serverId, name) => vscode.commands.executeCommand('mcpHost.tool.call', { serverId, kind: 'tool', name }),
      revealTool: (serverId, name, occurrence) =>
        // The view this reveal shows is not a person's opening: the focus goes to the tool's row, not the first.
        opening.revealing(() => tree.revealTool(view, serverId, name, occurrence)).catch((error: unknown) => {
          host.log.warn(`Find Tool: could not show ${name} in the tree: ${errorMessage(error)}`);
          return false;
        }),
    },
    arg?.kind === 'group' ? arg.serverId : undefined,
  );
}

/** Forget Consent: of the server given (a tree row, an id or a name), or of the one picked among those with a remembered decision (or of all). */
async function forgetConsent(host: EditorHost, arg: ServerArg): Promise<void> {
  if (arg !== undefined) {
    const h = await pickServer(host, arg, '', () => true);
    if (h) await host.forgetConsent([h.id]);
    return;
  }
  const ids = host.gate.consentServerIds();
  if (ids.length === 0) {
    void vscode.window.showInformationMessage('MCP Host: no server has a remembered consent decision.');
    return;
  }
  const byId = new Map(host.tree.servers().map((h) => [h.id, h]));
  const items: (vscode.QuickPickItem & { ids?: string[] })[] = [
    { label: 'All servers', description: `${ids.length} remembered decision${ids.length === 1 ? '' : 's'}` },
    ...ids.map((id) => {
      const h = byId.get(id);
      return { label: plainPickText(h?.entry.name ?? id), description: h ? host.tree.originLabel(h.entry.source) : 'no longer configured', ids: [id] };
    }),
  ];
  const picked = await vscode.window.showQuickPick(items, { placeHolder: 'Forget the consent of which MCP server? It is stopped and asks again when it next starts.' });
  if (picked) await host.forgetConsent(picked.ids);
}

/** The server a command acts on: from a tree node, an id or a name, or picked by the user. */
async function pickServer(host: EditorHost, arg: ServerArg, placeHolder: string, filter: (h: ServerHandle) => boolean): Promise<ServerHandle | undefined> {
  const servers = host.tree.servers();
  if (typeof arg === 'string') return servers.find((h) => h.id === arg) ?? servers.find((h) => h.entry.name === arg);
  if (arg && 'serverId' in arg) return servers.find((h) => h.id === arg.serverId);
  const candidates = servers.filter(filter);
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage('MCP Host: no server to act on.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    candidates.map((h) => ({ label: plainPickText(h.entry.name), description: `${host.tree.stateText(h)} · ${host.tree.originLabel(h.entry.source)}`, handle: h })),
    { placeHolder },
  );
  return picked?.handle;
}

async function openProblem(problem: ConfigProblem): Promise<void> {
  const source = problem.source;
  if (source.file) {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(source.file));
    const range = problemRange(problem, document.getText());
    await vscode.window.showTextDocument(document, { selection: range });
    return;
  }
  await openSettings(source.scope, source.folder?.fsPath);
}

async function openSettings(scope: 'user' | 'workspace' | 'folder' | undefined, folder?: string): Promise<void> {
  if (scope === 'user') await vscode.commands.executeCommand('workbench.action.openSettingsJson');
  else if (scope === 'folder' && folder) await vscode.window.showTextDocument(vscode.Uri.file(path.join(folder, '.vscode', 'settings.json')));
  else await vscode.commands.executeCommand('workbench.action.openWorkspaceSettingsFile');
}

/** Opens the file that defines a server, at its entry. */
async function openServerConfig(h: ServerHandle): Promise<void> {
  const source = h.entry.source;
  if (!source.file) {
    await openSettings(source.scope, source.folder?.fsPath);
    return;
  }
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(source.file));
  const text = document.getText();
  // jsonc-parser is in the configuration parser's chunk (workspaceConfig.ts), loaded by the first read.
  const { findNodeAtLocation, parseTree } = await import('jsonc-parser');
  const root = parseTree(text, [], { allowTrailingComma: true });
  const node = root && (findNodeAtLocation(root, ['servers', h.entry.name]) ?? findNodeAtLocation(root, ['mcpServers', h.entry.name]));
  const keyNode = node?.parent?.children?.[0];
  const at = keyNode ?? node;
  const selection = at ? new vscode.Range(document.positionAt(at.offset), document.positionAt(at.offset + at.length)) : undefined;
  await vscode.window.showTextDocument(document, { selection });
}

/** Writes an example `.vscode/mcp.json` into a workspace folder (asking which, if several) and opens it. */
async function createConfig(): Promise<void> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  if (folders.length === 0) {
    void vscode.window.showInformationMessage('MCP Host: open a folder first; .vscode/mcp.json lives in a workspace folder.');
    return;
  }
  const folder =
    folders.length === 1
      ? folders[0]
      : (await vscode.window.showQuickPick(
          folders.map((f) => ({ label: f.name, description: f.uri.fsPath, folder: f })),
          { placeHolder: 'Create .vscode/mcp.json in which folder?' },
        ))?.folder;
  if (!folder) return;
  const uri = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
  let exists = false;
  try {
    await vscode.workspace.fs.stat(uri);
    exists = true;
  } catch {
    // not there yet
  }
  if (!exists) await vscode.workspace.fs.writeFile(uri, Buffer.from(EXAMPLE_MCP_JSON, 'utf8'));
  await vscode.window.showTextDocument(uri);
  if (exists) void vscode.window.showInformationMessage(`MCP Host: ${vscode.workspace.asRelativePath(uri, true)} already exists; opened it.`);
}
