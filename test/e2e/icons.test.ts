// Servers' own icons in a real VS Code (code-server), from test/fixtures/servers/icons.mjs (a
// stdio server on the official SDK 1.x): its good icons (data: PNGs, a light and a dark variant)
// show on the server, tool, resource, template and prompt rows and in the tool and prompt panels'
// headers, in the dark theme's variant; its hostile ones (an SVG with a script, a 40000×40000
// header, a 2 MiB PNG, wrong magic bytes, https URLs to a loopback port, http: and file:) keep the
// row's codicon and draw no image, and the loopback port is never connected to. The registry
// gallery (the registry fixture's /icons registry, test/fixtures/registry/iconDocuments.mjs) shows
// an entry's data: icon in the dark variant on its quick pick row; its hostile entries (http:, a
// 50 MB PNG, an SVG with a script, a loopback URL) show none and fetch nothing.
// Screenshots: test-results/screenshots/icons-*.png.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { defaultVsixPath, launch, repoRoot, retrying, step as runStep, waitUntil, type Workbench } from './harness';
import { allowServers, waitForTree } from './treeRows';
import { iconImages } from '../icons/iconImages';
import { type RegistryFixture, startRegistryFixture } from '../gallery/registryFixture';

const ICONS = join(repoRoot, 'test', 'fixtures', 'servers', 'icons.mjs');
const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;

interface RowIcon {
  readonly image: string;
  readonly className: string;
}

describe('servers’ icons: the good ones show, the hostile ones do not', () => {
  let wb: Workbench;
  const workspace = mkdtempSync(join(tmpdir(), 'mcp-host-icons-'));
  let connections = 0;
  let registry: RegistryFixture;
  const loopback = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });

  function step(name: string, fn: () => Promise<void>): Promise<void> {
    return runStep(wb, `icons-failed-${name}`, fn, async () => {
      await wb.page.keyboard.press('Escape');
    });
  }

  /** Each tree row's icon element: its background image (an icon file) and its classes (a codicon). */
  function rowIcons(): Promise<Record<string, RowIcon>> {
    return wb.page.evaluate(() =>
      Object.fromEntries(
        Array.from(document.querySelectorAll('.part.sidebar .monaco-list[role="tree"] .monaco-list-row')).map((row) => {
          const icon = row.querySelector<HTMLElement>('.custom-view-tree-node-item-icon');
          return [row.querySelector('.label-name')?.textContent?.trim() ?? '', { image: icon?.style.backgroundImage ?? '', className: icon?.className ?? '' }];
        }),
      ),
    );
  }

  /** The colour of the middle pixel of the image at `url` (a row's icon file), as the page loads it. */
  function pixelOf(url: string): Promise<number[]> {
    return wb.page.evaluate(
      (src) =>
        new Promise<number[]>((resolve, reject) => {
          const img = new Image();
          img.onload = () => {
            const canvas = document.createElement('canvas');
            canvas.width = img.naturalWidth;
            canvas.height = img.naturalHeight;
            const g = canvas.getContext('2d')!;
            g.drawImage(img, 0, 0);
            resolve([img.naturalWidth, img.naturalHeight, ...Array.from(g.getImageData(8, 8, 1, 1).data.slice(0, 3))]);
          };
          img.onerror = () => reject(new Error(`the icon file did not load: ${src}`));
          img.src = src;
        }),
      url,
    );
  }

  before(async () => {
    await new Promise<void>((ok) => loopback.listen(0, '127.0.0.1', ok));
    const port = (loopback.address() as net.AddressInfo).port;
    mkdirSync(join(workspace, '.vscode'));
    writeFileSync(join(workspace, '.vscode', 'mcp.json'), JSON.stringify({ servers: { icons: { command: process.execPath, args: [ICONS, '--loopback-port', String(port)] } } }, null, 2));
    registry = await startRegistryFixture();
    wb = await launch({ workspace, vsix: VSIX, timeoutMs: 150_000, viewport: { width: 1400, height: 900 }, settings: { 'chat.mcp.access': 'none', 'chat.mcp.autostart': 'never', 'workbench.colorTheme': 'Default Dark Modern', 'mcpHost.registry.url': `${registry.url}/icons` } });
    await wb.openView('MCP Host');
    await wb.waitForTreeItem('icons', { timeoutMs: 30_000 });
    await allowServers(wb, 1);
    await waitForTree(wb, 'the server running with its groups', (items) => items.some((i) => i.label === 'Prompts'), 60_000);
  });

  after(async () => {
    if (wb) {
      await wb.close();
      assert.deepEqual(wb.leftoverProcesses(), [], 'nothing of the launch outlives it');
    }
    loopback.close();
    await registry?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  test('tree rows: the good icons in the dark variant; the hostile rows keep their codicon', { timeout: 180_000 }, async () => {
    await step('tree', async () => {
      for (const group of ['Tools', 'Resources', 'Resource Templates', 'Prompts']) await wb.expandTreeItem(group);
      const good = ['icons', 'good_tool', 'good_resource', 'good_template', 'good_prompt'];
      const icons = await waitUntil(
        async () => {
          const now = await rowIcons();
          return good.every((label) => /icons.*\.png/.test(decodeURIComponent(now[label]?.image ?? ''))) && now['hostile_prompt'] && now;
        },
        30_000,
        'the good rows drawn with their icon files',
      );
      await wb.screenshot('icons-tree');
      const url = (label: string) => /url\("?([^")]+)"?\)/.exec(icons[label].image)![1];
      assert.deepEqual(await pixelOf(url('good_tool')), [16, 16, 240, 140, 20], 'the dark variant (orange), drawn');
      assert.deepEqual(await pixelOf(url('icons')), [16, 16, 20, 180, 60], 'the server’s own icon (green)');
      for (const [label, codicon] of [['svg_tool', 'tools'], ['huge_tool', 'tools'], ['big_tool', 'tools'], ['wrong_magic_tool', 'tools'], ['loopback_tool', 'tools'], ['hostile_prompt', 'comment-discussion']]) {
        assert.equal(icons[label].image, '', `${label}: no image`);
        assert.match(icons[label].className, new RegExp(`codicon-${codicon}`), `${label} keeps its codicon`);
      }
    });
  });

  test('panel headers: the good tool and prompt show their icon; a hostile tool’s panel has none; the loopback port saw nothing', { timeout: 180_000 }, async () => {
    await step('panels', async () => {
      const { png, dataUri } = await iconImages();
      const dark = dataUri('image/png', png(16, 16, [240, 140, 20]));
      await wb.clickTreeItem('good_tool');
      const panel = await waitUntil(async () => (await wb.webviewFrames('good_tool'))[0], 30_000, 'the good_tool panel');
      const src = await waitUntil(async () => (await panel.locator('header h1 img.item-icon').getAttribute('src', { timeout: 1000 }).catch(() => null)) ?? undefined, 20_000, 'the icon in the header');
      assert.equal(src, dark);
      await wb.screenshot('icons-tool-panel');

      await wb.clickTreeItem('good_prompt');
      const prompt = await waitUntil(async () => (await wb.webviewFrames('good_prompt'))[0], 30_000, 'the good_prompt panel');
      assert.equal(await waitUntil(async () => (await prompt.locator('header h1 img.item-icon').getAttribute('src', { timeout: 1000 }).catch(() => null)) ?? undefined, 20_000, 'the prompt icon'), dark);

      await wb.clickTreeItem('svg_tool');
      const hostile = await waitUntil(async () => (await wb.webviewFrames('svg_tool'))[0], 30_000, 'the svg_tool panel');
      await hostile.locator('#run').waitFor({ state: 'visible', timeout: 20_000 });
      await new Promise((ok) => setTimeout(ok, 1500));
      assert.equal(await hostile.locator('img').count(), 0, 'no image in the hostile tool’s page');
      await wb.screenshot('icons-hostile-panel');
      assert.equal(connections, 0, 'the loopback port was never connected to');
    });
  });

  test('registry gallery: an entry’s icon on its row in the dark variant; hostile entries show none and fetch nothing', { timeout: 180_000 }, async () => {
    await step('gallery', async () => {
      const input = wb.page.locator('.quick-input-widget .quick-input-box input');
      const shown = async () => input.isVisible().catch(() => false);
      /** Each quick pick row's label and the image its icon draws (iconPath becomes a CSS background). */
      const galleryIcons = () =>
        wb.page.evaluate(() =>
          Object.fromEntries(
            Array.from(document.querySelectorAll('.quick-input-widget .quick-input-list .monaco-list-row')).map((row) => {
              // Whatever element VS Code draws the icon on: the one with a url() background.
              const image = Array.from(row.querySelectorAll<HTMLElement>('*')).map((e) => getComputedStyle(e).backgroundImage).find((b) => b.startsWith('url(')) ?? '';
              return [row.querySelector('.label-name')?.textContent?.trim() ?? '', image];
            }),
          ),
        );
      // The previous test's panel had the keyboard: the side bar takes it first, and if VS Code
      // still hands it back to the panel after the palette (its late focus return, which closes
      // the command's own quick pick), the command runs again, counted.
      const rows = await retrying('icons: "MCP Host: Browse MCP Registry…" run again after its quick pick closed', 3, async () => {
        await wb.page.locator('.part.sidebar .composite.title').first().click();
        await wb.runCommand('MCP Host: Browse MCP Registry…');
        await waitUntil(async () => (await shown()) && !((await input.inputValue().catch(() => '>')) || '').startsWith('>'), 10_000, 'the gallery’s quick pick');
        const found = await waitUntil(async () => {
          if (!(await shown())) return 'closed' as const;
          const now = await galleryIcons();
          return /\.png/.test(now['Painted'] ?? '') && now['Loopback'] !== undefined && now;
        }, 30_000, 'the gallery’s rows with the Painted entry’s icon');
        if (found === 'closed') throw new Error('the gallery’s quick pick closed before its rows came');
        return found;
      }, { retryable: async () => !(await shown()) });
      await wb.screenshot('icons-gallery');
      const url = /url\("?([^")]+)"?\)/.exec(rows['Painted'])![1];
      assert.deepEqual(await pixelOf(url), [32, 32, 250, 190, 30], 'the dark variant (amber), drawn');
      for (const title of ['Fetched', 'Huge', 'Scripted', 'Loopback']) assert.equal(rows[title], '', `${title}: no icon`);
      assert.equal(registry.iconTrap.connections, 0, 'the loopback port named by an entry was never connected to');
      assert.ok(!registry.requests.some((r) => r.path.startsWith('/img/')), 'no icon was fetched over http:');
      await wb.page.keyboard.press('Escape');
    });
  });
});
