// Settings that loosen a safety check, read so that an untrusted workspace cannot change them.
// package.json lists them in `capabilities.untrustedWorkspaces.restrictedConfigurations`, which
// makes VS Code ignore workspace values in Restricted Mode; reading the user's own value here too
// keeps that true whatever the editor does (and `inspect()` would still report the workspace's).
import * as vscode from 'vscode';

/** `mcpHost.*` keys (without the prefix) whose workspace value is ignored in Restricted Mode. */
export const RESTRICTED_SETTINGS = ['servers', 'startPolicy', 'confirmDestructiveTools', 'sampling.maxQueued'] as const;

/**
 * The value of `mcpHost.<key>`: as VS Code resolves it in a trusted workspace; in Restricted Mode,
 * for a restricted key, the user's (global) value or the default, never a workspace's.
 */
export function mcpHostSetting<T>(key: string, fallback: T): T {
  const config = vscode.workspace.getConfiguration('mcpHost');
  if (vscode.workspace.isTrusted || !(RESTRICTED_SETTINGS as readonly string[]).includes(key)) return config.get<T>(key, fallback);
  const inspected = config.inspect<T>(key);
  return inspected?.globalValue ?? inspected?.defaultValue ?? fallback;
}
