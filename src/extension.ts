// Entry point of the MCP Host extension. Activation is cheap: it builds the objects, reads the
// configuration and only starts servers when the start policy says so (`mcpHost.startPolicy`).
// Everything it creates goes into `context.subscriptions`; `deactivate()` waits until no server
// process is left.
import * as vscode from 'vscode';
import { registerCommands } from './extension/commands';
import { RegistryGalleryCommands, registerRegistryGalleryOnDemand, registerUseCasesOnDemand } from './extension/lazyFeatures';
import { checkRegistryUpdatesOnce, registryUpdateMarks } from './extension/tree/registryUpdateMarks';
import { EditorHost } from './extension/editorHost';
import { ServersTreeProvider } from './extension/tree/serversTree';
import { focusFirstRowOnOpening } from './extension/tree/serversViewFocus';
import { McpStatusBar } from './extension/tree/statusBar';
import { OfferChangesView } from './extension/dev/offerChangesView';
import { cacheMcpHostSettings } from './extension/trust/restrictedSettings';
import { OPEN_WALKTHROUGH_COMMAND, walkthroughArgument } from './extension/walkthrough';
import { errorMessage } from './protocol/errors';

let host: EditorHost | undefined;

export function activate(context: vscode.ExtensionContext): void {
  // mcpHost.* values are kept once read; first, so every later change listener reads new values.
  context.subscriptions.push(cacheMcpHostSettings());
  // The view's provider first: until it is registered VS Code says "There is no data provider
  // registered", which reads like an error; from here on the view says "Reading configuration…".
  const tree = new ServersTreeProvider();
  const view = vscode.window.createTreeView('mcpHost.servers', { treeDataProvider: tree, showCollapseAll: true });
  context.subscriptions.push(tree, view, tree.trackExpansion(view, context.workspaceState));

  const log = vscode.window.createOutputChannel('MCP Host', { log: true });
  context.subscriptions.push(log);
  log.info(`MCP Host ${String((context.extension.packageJSON as { version?: unknown }).version)} activated; workspace ${vscode.workspace.isTrusted ? 'trusted' : 'not trusted (servers defined in it will not start)'}.`);

  const editorHost = new EditorHost(context, log);
  host = editorHost;
  tree.attach(editorHost.tree);
  const statusBar = new McpStatusBar(editorHost.tree);
  const changes = new OfferChangesView(editorHost.offerChanges);
  context.subscriptions.push(changes, vscode.window.createTreeView('mcpHost.changes', { treeDataProvider: changes }));
  // A person opening the view gets the focus on its first row (VS Code focuses the tree, not a row).
  const viewFocus = focusFirstRowOnOpening(view, tree, () => editorHost.viewShown());
  // Rows say when the registry a server was installed from has a newer version.
  context.subscriptions.push(editorHost, statusBar, viewFocus.disposable, ...registerCommands(editorHost, tree, view, viewFocus.opening), registerRegistryGalleryOnDemand(context, log, editorHost));
  context.subscriptions.push(tree.showRegistryUpdates(registryUpdateMarks), checkRegistryUpdatesOnce(() => editorHost.tree.servers(), editorHost.onDidChange, RegistryGalleryCommands.checkUpdates));
  // The view's toolbar offers only what applies (Start All once something can start, and so on).
  const updateContext = () => {
    const kinds = editorHost.tree.servers().map((h) => editorHost.tree.displayStatus(h).kind);
    void vscode.commands.executeCommand('setContext', 'mcpHost.loaded', editorHost.tree.isLoaded());
    // The "No MCP servers are configured" welcome only once the configuration was read and has none.
    void vscode.commands.executeCommand('setContext', 'mcpHost.noServers', editorHost.tree.isLoaded() && kinds.length === 0 && editorHost.tree.problems().length === 0);
    void vscode.commands.executeCommand('setContext', 'mcpHost.hasServers', kinds.length > 0);
    void vscode.commands.executeCommand('setContext', 'mcpHost.canStart', kinds.some((k) => k === 'stopped' || k === 'error' || k === 'blocked'));
    void vscode.commands.executeCommand('setContext', 'mcpHost.canStop', kinds.some((k) => k === 'running' || k === 'starting' || k === 'waiting'));
    // The walkthrough's "Allow it" is done once a server runs (canStop holds while one waits for consent).
    void vscode.commands.executeCommand('setContext', 'mcpHost.anyRunning', kinds.includes('running'));
  };
  updateContext();
  context.subscriptions.push(editorHost.onDidChange(updateContext));
  // Call tools, read resources, get prompts, server actions, the timeline and skills: registered
  // now, read after the configuration's first read (below) or when one of them is needed first.
  const useCases = registerUseCasesOnDemand({ context, editorHost, tree, view, log });
  context.subscriptions.push(useCases);
  editorHost.waitBeforeStarts(() => useCases.load());
  // "Get Started with MCP Host": the walkthrough, from the palette and the view's welcome.
  context.subscriptions.push(
    vscode.commands.registerCommand(OPEN_WALKTHROUGH_COMMAND, () =>
      vscode.commands.executeCommand('workbench.action.openWalkthrough', walkthroughArgument(context.extension.packageJSON as { publisher?: unknown; name?: unknown }), false),
    ),
  );
  // "asked 12s ago" under Roots and a running task's elapsed time move: their rows alone, while the view shows.
  context.subscriptions.push(tree.followVisibility(view));

  const updateMessage = () => {
    view.message = vscode.workspace.isTrusted ? undefined : 'Restricted Mode: servers defined in this workspace do not start until you trust it.';
  };
  updateMessage();
  context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(updateMessage),
  );

  editorHost.roots.logRoots('activation');
  void editorHost.config.reload('activation').then(() => {
    editorHost.startIfPolicySays({ kind: 'configurationRead', viewVisible: view.visible });
    // After the tree's first rows: the saved tests in the Testing view, @mcp's model list, and the use cases ready for a click.
    useCases.load().catch((error: unknown) => log.error(`The use cases did not load: ${errorMessage(error)}`));
  });
}

/** Stops every server and waits until their processes are gone. */
export async function deactivate(): Promise<void> {
  const h = host;
  host = undefined;
  await h?.shutdown();
}
