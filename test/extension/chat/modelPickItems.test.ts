// @mcp's picker rows (src/extension/chat/modelPickItems.ts) on the vscode double: a running
// server's own icon on its row, a tool's own icon on its row (or its server's when it has none),
// as a light and a dark file; a server that is not running gets no icon and its icons are not
// looked at; hostile icons give none.
import { vscode } from '../../support/vscode/vscodeModule';
import { after, suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as vscodeTypes from 'vscode';
import { modelPickItems, type PickServer } from '../../../src/extension/chat/modelPickItems';
import { ServerIcons } from '../../../src/extension/tree/serverIcons';
import { iconImages } from '../../icons/iconImages';

const storage = mkdtempSync(join(tmpdir(), 'mcp-host-pick-icons-'));
after(() => rmSync(storage, { recursive: true, force: true }));

const switches = { isServerEnabled: () => true, isToolEnabled: (_: string, tool: string) => tool !== 'off' };

function server(id: string, status: string, serverIcons: unknown, tools: PickServer['tools']): PickServer {
  return { id, entry: { name: id }, status: { kind: status }, resolved: { type: 'stdio' }, client: { serverInfo: { name: id, version: '1', icons: serverIcons } }, tools };
}

type Themed = { light: vscodeTypes.Uri; dark: vscodeTypes.Uri };

suite('@mcp picker: servers’ and tools’ icons', () => {
  test('a running server’s icon and its tools’ own icons (light and dark files); a tool without icons shows its server’s', async () => {
    const { png, dataUri, SCRIPTED_SVG } = await iconImages();
    const serverIcon = [{ src: dataUri('image/png', png(16, 16, [200, 0, 0])) }];
    const lightTool = dataUri('image/png', png(16, 16, [10, 10, 10]));
    const darkTool = dataUri('image/png', png(16, 16, [240, 240, 240]));
    const running = server('paint', 'running', serverIcon, [
      { name: 'brush', icons: [{ src: lightTool, theme: 'light' }, { src: darkTool, theme: 'dark' }] },
      { name: 'plain' },
      { name: 'off', icons: [{ src: dataUri('image/svg+xml', SCRIPTED_SVG) }, { src: 'https://127.0.0.1:9/icon.png' }, { src: 'http://example.com/i.png' }] },
    ]);
    const icons = new ServerIcons(vscode.Uri.file(storage) as unknown as vscodeTypes.Uri, () => undefined);
    const items = await modelPickItems([running], switches, icons);
    assert.deepEqual(items.map((i) => [i.label, i.description]), [['paint', 'offered to models'], ['paint/brush', 'offered to models'], ['paint/plain', 'offered to models'], ['paint/off', 'off for models']]);
    const [row, brush, plain, hostile] = items.map((i) => i.iconPath as Themed | undefined);
    assert.ok(row && brush && plain);
    assert.equal(row.light.scheme, 'file');
    assert.equal(row.light.fsPath, row.dark.fsPath, 'one variant serves both themes');
    assert.notEqual(brush.light.fsPath, brush.dark.fsPath, 'the tool’s light and dark variants');
    assert.ok(readFileSync(brush.light.fsPath).equals(png(16, 16, [10, 10, 10])));
    assert.ok(readFileSync(brush.dark.fsPath).equals(png(16, 16, [240, 240, 240])));
    assert.equal(plain.light.fsPath, row.light.fsPath, 'a tool without icons shows its server’s');
    assert.equal(hostile, undefined, 'SVG, loopback and http: icons give none');
    icons.dispose();
  });

  test('a server that is not running: no icon, and its icons are not judged (nothing written, nothing fetched)', async () => {
    const { png, dataUri } = await iconImages();
    const folder = mkdtempSync(join(storage, 'stopped-'));
    const stopped = server('idle', 'stopped', [{ src: dataUri('image/png', png(16, 16, [1, 2, 3])) }], [{ name: 't', icons: [{ src: dataUri('image/png', png(16, 16, [4, 5, 6])) }] }]);
    const icons = new ServerIcons(vscode.Uri.file(folder) as unknown as vscodeTypes.Uri, () => undefined);
    const items = await modelPickItems([stopped], switches, icons);
    assert.deepEqual(items.map((i) => i.iconPath), [undefined, undefined]);
    assert.deepEqual(readdirSync(folder), [], 'no icon file was written');
    icons.dispose();
  });
});
