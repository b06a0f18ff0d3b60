// The manifest and the code agree: every command a menu names is declared and registered, the
// settings schema is the config layer's, the JSON schemas exist, activation stays lazy.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

const root = join(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const contributes = pkg.contributes;

function allSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? allSources(p) : name.endsWith('.ts') ? [p] : [];
  });
}

describe('package.json contributions', () => {
  test('every command in a menu is declared, and every declared command of the host is registered', () => {
    const declared = new Set<string>(contributes.commands.map((c: { command: string }) => c.command));
    for (const [menu, items] of Object.entries<{ command: string }[]>(contributes.menus)) {
      for (const item of items) assert.ok(declared.has(item.command), `${menu} names undeclared ${item.command}`);
    }
    const source = readFileSync(join(root, 'src', 'extension', 'commands.ts'), 'utf8');
    const registered = new Set([...source.matchAll(/register\('([\w.]+)'/g)].map((m) => m[1]));
    for (const id of registered) assert.ok(declared.has(id), `${id} is registered but not declared`);
    // Commands of other features are registered in their own files: each declared id must appear somewhere in src/.
    const sources = allSources(join(root, 'src')).map((f) => readFileSync(f, 'utf8')).join('\n');
    for (const id of declared) assert.ok(sources.includes(`'${id}'`), `${id} is declared but no source registers it`);
  });

  test("every inline button of a tree row is in the row's context menu too (Shift+F10 reaches it), and Refresh Tasks is in the palette", () => {
    const rowMenu: { command: string; when?: string; group?: string }[] = contributes.menus['view/item/context'];
    const inline = (g?: string) => (g ?? '').startsWith('inline');
    for (const button of rowMenu.filter((i) => inline(i.group))) {
      assert.ok(rowMenu.some((i) => i.command === button.command && !inline(i.group)), `${button.command} is an inline button only`);
    }
    const hidden = (contributes.menus.commandPalette as { command: string; when?: string }[]).find((i) => i.command === 'mcpHost.tasks.refresh');
    assert.ok(!hidden || hidden.when !== 'false', 'Refresh Tasks is hidden from the palette');
  });

  test('the view the end-to-end tests open: container "MCP Host", view mcpHost.servers', () => {
    assert.deepEqual(contributes.viewsContainers.activitybar.map((c: { id: string; title: string }) => [c.id, c.title]), [['mcpHost', 'MCP Host']]);
    assert.ok(contributes.views.mcpHost.some((v: { id: string }) => v.id === 'mcpHost.servers'));
    assert.ok(existsSync(join(root, contributes.viewsContainers.activitybar[0].icon)));
    assert.ok(contributes.viewsWelcome.some((w: { contents: string }) => w.contents.includes('command:mcpHost.createConfig')));
  });

  test('the mcpHost.servers setting uses the config layer schema', () => {
    const file = JSON.parse(readFileSync(join(root, 'media', 'schemas', 'settings-servers.schema.json'), 'utf8'));
    delete file.$schema;
    delete file.$id;
    const setting = { ...contributes.configuration.properties['mcpHost.servers'] };
    delete setting.order;
    assert.deepEqual(setting, { ...file, default: {}, scope: 'resource', markdownDescription: setting.markdownDescription });
    assert.deepEqual(setting.additionalProperties, file.additionalProperties, 'copy media/schemas/settings-servers.schema.json into contributes.configuration.properties["mcpHost.servers"] again');
  });

  test('JSON validation points at schemas that exist', () => {
    for (const v of contributes.jsonValidation) assert.ok(existsSync(join(root, v.url)), v.url);
    assert.deepEqual(contributes.jsonValidation.map((v: { fileMatch: string }) => v.fileMatch).sort(), ['**/.mcp.json', '**/.vscode/mcp-tests.json', '**/.vscode/mcp.json']);
  });

  test('activation is lazy, the extension runs where the workspace is, and trust is limited', () => {
    // Lazy: a window activates MCP Host only when a folder holds a config file (VS Code checks
    // the path in every folder of a multi-root workspace), or when the view is shown or one of
    // the commands runs: VS Code >= 1.74 derives onView/onCommand from `contributes` itself.
    // And when the window reloads with one of its panels open (the panel serializers, panelTabs.ts): webview
    // panels are no contribution, so VS Code derives no activation event for them.
    const restored = ['onWebviewPanel:mcpHost.toolCall', 'onWebviewPanel:mcpHost.prompt', 'onWebviewPanel:mcpHost.serverDetails'];
    assert.deepEqual(pkg.activationEvents, ['workspaceContains:.vscode/mcp.json', 'workspaceContains:.mcp.json', ...restored]);
    for (const eager of ['*', 'onStartupFinished']) assert.ok(!pkg.activationEvents.includes(eager), `${eager} activates MCP Host in every window`);
    const [major, minor] = /^\^?(\d+)\.(\d+)/.exec(pkg.engines.vscode)!.slice(1).map(Number);
    assert.ok(major > 1 || minor >= 74, `engines.vscode ${pkg.engines.vscode}: implicit onView/onCommand activation needs 1.74`);
    // The config files the activation events name are the ones the reader loads and validates.
    const configFiles = contributes.jsonValidation.filter((v: { url: string }) => !v.url.includes('mcp-tests'));
    const watched = configFiles.map((v: { fileMatch: string }) => v.fileMatch.replace(/^\*\*\//, ''));
    assert.deepEqual(pkg.activationEvents.filter((e: string) => e.startsWith('workspaceContains:')).map((e: string) => e.replace(/^workspaceContains:/, '')).sort(), watched.sort());
    assert.deepEqual(pkg.extensionKind, ['workspace']);
    assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
    // Settings that loosen a safety check: VS Code ignores their workspace value in Restricted
    // Mode, and the extension reads them through the same list (restrictedSettings.ts).
    const restricted = ['mcpHost.servers', 'mcpHost.startPolicy', 'mcpHost.confirmDestructiveTools', 'mcpHost.sampling.maxQueued', 'mcpHost.chat.trustedServers', 'mcpHost.sandbox.requireForWorkspaceServers', 'mcpHost.sandbox.autoApproveTools'];
    assert.deepEqual(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations, restricted);
    const list = /RESTRICTED_SETTINGS = \[([^\]]*)\]/.exec(readFileSync(join(root, 'src', 'extension', 'trust', 'restrictedSettings.ts'), 'utf8'))?.[1] ?? '';
    assert.deepEqual(list.split(',').map((k) => `mcpHost.${k.trim().replace(/'/g, '')}`), restricted);
    const settings = contributes.configuration.properties;
    assert.equal(settings['mcpHost.startPolicy'].default, 'onViewVisible');
    assert.equal(settings['mcpHost.restart.maxRestarts'].default, 3);
    assert.equal(settings['mcpHost.restart.windowMinutes'].default, 3);
    assert.equal(settings['mcpHost.requestTimeoutSeconds'].default, 60);
    assert.equal(settings['mcpHost.log.maxPayloadChars'].default, 4000);
  });
});
