// The Get Started walkthrough (`contributes.walkthroughs` in package.json): add a server, allow it,
// call a tool, read its log, try @mcp, share with VS Code's chat. VS Code itself opens it once
// after the extension is installed (`workbench.welcomePage.walkthroughs.openOnInstall`); the
// command palette ("MCP Host: Get Started with MCP Host") and the view's welcome open it again.
// No `vscode` import here, so the ids and the argument are unit-tested.

/** The walkthrough's id in package.json. */
export const WALKTHROUGH_ID = 'mcpHost.getStarted';

/** The command that opens it. */
export const OPEN_WALKTHROUGH_COMMAND = 'mcpHost.openWalkthrough';

/**
 * The argument `workbench.action.openWalkthrough` takes: `<publisher>.<name>#<walkthrough id>`,
 * from the extension's own manifest, so a renamed publisher cannot leave the command pointing
 * at nothing.
 */
export function walkthroughArgument(manifest: { readonly publisher?: unknown; readonly name?: unknown }): string {
  if (typeof manifest.publisher !== 'string' || typeof manifest.name !== 'string') {
    throw new Error('the extension manifest has no publisher or name; the walkthrough cannot be named');
  }
  return `${manifest.publisher}.${manifest.name}#${WALKTHROUGH_ID}`;
}
