// Settings that loosen a safety check, read so that an untrusted workspace cannot change them.
// package.json lists them in `capabilities.untrustedWorkspaces.restrictedConfigurations`, which
// makes VS Code ignore workspace values in Restricted Mode; reading the user's own value here too
// keeps that true whatever the editor does (and `inspect()` would still report the workspace's).
// Values are kept once read: they are asked per request, per sampling request and per tree row,
// and asking VS Code's configuration builds a merged view each time.
import * as vscode from 'vscode';

/** `mcpHost.*` keys (without the prefix) whose workspace value is ignored in Restricted Mode. */
export const RESTRICTED_SETTINGS = ['servers', 'startPolicy', 'confirmDestructiveTools', 'sampling.maxQueued', 'chat.trustedServers', 'sandbox.requireForWorkspaceServers', 'sandbox.autoApproveTools'] as const;

/** What each key read as, before the caller's fallback; `undefined` when nothing set it. Only while {@link cacheMcpHostSettings} watches. */
let cache: Map<string, unknown> | undefined;

/**
 * The value of `mcpHost.<key>`: as VS Code resolves it in a trusted workspace; in Restricted Mode,
 * for a restricted key, the user's (global) value or the default, never a workspace's.
 */
export function mcpHostSetting<T>(key: string, fallback: T): T {
  let value: unknown;
  if (cache?.has(key)) value = cache.get(key);
  else {
    value = readSetting(key);
    cache?.set(key, value);
  }
  return value === undefined ? fallback : (value as T);
}

function readSetting(key: string): unknown {
  const config = vscode.workspace.getConfiguration('mcpHost');
  if (vscode.workspace.isTrusted || !(RESTRICTED_SETTINGS as readonly string[]).includes(key)) return config.get<unknown>(key);
  const inspected = config.inspect<unknown>(key);
  return inspected?.globalValue ?? inspected?.defaultValue ?? undefined;
}

/**
 * Keeps `mcpHost.*` values once read until a configuration change touches `mcpHost` or the
 * workspace is trusted (a restricted key's answer depends on trust). Call it first in
 * `activate()`: change listeners run in the order they were added, so every later listener
 * already reads the new values.
 */
export function cacheMcpHostSettings(): vscode.Disposable {
  cache = new Map();
  const clear = () => cache?.clear();
  const subscriptions = [
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('mcpHost')) clear();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(clear),
  ];
  return {
    dispose: () => {
      for (const s of subscriptions) s.dispose();
      cache = undefined;
    },
  };
}
