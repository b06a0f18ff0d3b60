// The registry gallery's row icons (src/extension/gallery/galleryIcons.ts) on the vscode double,
// against the registry fixture's `/icons` registry (test/fixtures/registry/iconDocuments.mjs):
// rows first, then the icons of the entries that pass src/icons' rules as a light and a dark file,
// the row the user is on kept; the hostile ones (a 50 MB PNG, an SVG with a script, a loopback
// URL, http:) give no icon, and the loopback port is never connected to.
import { vscode } from '../../support/vscode/vscodeModule';
import { after, before, suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as vscodeTypes from 'vscode';
import { GalleryIcons, registryIconOrigins, registryIcons } from '../../../src/extension/gallery/galleryIcons';
import { RegistryClient } from '../../../src/gallery/registryClient';
import type { ServerDetail } from '../../../src/gallery/serverJson';
import { readImageHeader } from '../../../src/icons/imageHeader';
import { MAX_ICON_BYTES, classifyIconSource } from '../../../src/icons/iconSource';
import { type RegistryFixture, startRegistryFixture } from '../../gallery/registryFixture';

type Row = vscodeTypes.QuickPickItem & { row?: { serverName?: string } };

/** A quick pick as the gallery's rows need it: items, the active row, and how often the rows were redrawn. */
function pickOf(entries: readonly ServerDetail[]) {
  const pick = { items: [] as readonly Row[], activeItems: [] as readonly Row[], redraws: 0 };
  const rows = entries.map((s) => ({ label: s.title ?? s.name, row: { serverName: s.name } }));
  let items: readonly Row[] = [...rows, { label: 'More results…' }];
  Object.defineProperty(pick, 'items', {
    get: () => items,
    set: (v: readonly Row[]) => {
      items = v;
      pick.redraws++;
    },
  });
  pick.activeItems = [items[3]];
  return pick;
}

function iconOf(pick: { items: readonly Row[] }, title: string): { light: vscodeTypes.Uri; dark: vscodeTypes.Uri } | undefined {
  return pick.items.find((i) => i.label === title)?.iconPath as { light: vscodeTypes.Uri; dark: vscodeTypes.Uri } | undefined;
}

/** The colour of the first pixel of a PNG the fixture made (one colour, filter byte 0): read by inflating its IDAT. */
async function firstPixel(file: string): Promise<number[]> {
  const { inflateSync } = await import('node:zlib');
  const bytes = readFileSync(file);
  const idat = bytes.indexOf('IDAT');
  const length = bytes.readUInt32BE(idat - 4);
  return [...inflateSync(bytes.subarray(idat + 4, idat + 4 + length)).subarray(1, 4)];
}

suite('registry gallery: the entries’ icons on the rows', () => {
  let fixture: RegistryFixture;
  let entries: ServerDetail[];
  const storage = mkdtempSync(join(tmpdir(), 'mcp-host-gallery-icons-'));
  before(async () => {
    fixture = await startRegistryFixture();
    const page = await new RegistryClient({ baseUrl: `${fixture.url}/icons` }).search({ search: '', limit: 30 });
    entries = page.servers.map((e) => e.server);
  });
  after(async () => {
    await fixture.close();
    rmSync(storage, { recursive: true, force: true });
  });

  test('an entry’s icons may come from the origins its URLs name (the scheme is judged apart); data: and other schemes add none', () => {
    const fetched = entries.find((e) => e.name.endsWith('/fetched'))!;
    assert.equal(registryIcons(fetched).length, 1);
    const origins = registryIconOrigins([{ src: 'https://cdn.example.com/a.png' }, { src: 'https://cdn.example.com/b.png' }, { src: 'http://plain.example.com/c.png' }, { src: 'data:image/png;base64,AA==' }, { src: 'file:///etc/passwd' }]);
    assert.deepEqual(origins, { allowed: ['https://cdn.example.com', 'http://plain.example.com'] });
    assert.equal(classifyIconSource('http://plain.example.com/c.png', origins).kind, 'refused');
    assert.equal(classifyIconSource('https://elsewhere.example.com/a.png', origins).kind, 'refused');
    assert.equal(classifyIconSource('https://cdn.example.com/a.png', origins).kind, 'https');
  });

  test('under the product’s rules: the data: icons show as a light and a dark file, every hostile one gives none and the loopback port is never reached', async () => {
    const logged: string[] = [];
    const icons = new GalleryIcons(join(storage, 'product'), (t) => logged.push(t));
    const pick = pickOf(entries);
    const active = pick.activeItems[0];
    // The rows are drawn before any icon is judged: nothing is known yet.
    assert.deepEqual(pick.items.map((i) => icons.withIcon(i).iconPath), pick.items.map(() => undefined));
    await icons.load(entries, pick);
    const painted = iconOf(pick, 'Painted');
    assert.ok(painted, 'the painted entry has its icon');
    assert.ok(painted.light instanceof vscode.Uri && painted.light.scheme === 'file');
    assert.notEqual(painted.light.fsPath, painted.dark.fsPath, 'a light and a dark variant');
    assert.deepEqual(await firstPixel(painted.light.fsPath), [20, 60, 200]);
    assert.deepEqual(await firstPixel(painted.dark.fsPath), [250, 190, 30]);
    for (const title of ['Fetched', 'Huge', 'Scripted', 'Loopback']) assert.equal(iconOf(pick, title), undefined, `${title} has no icon`);
    assert.equal(pick.activeItems[0].label, active.label, 'the row the user was on is still active after the redraw');
    assert.equal(pick.items.at(-1)!.label, 'More results…');
    assert.equal(fixture.iconTrap.connections, 0, 'the loopback port was never connected to');
    assert.ok(!fixture.requests.some((r) => r.path.startsWith('/img/')), 'nothing was fetched from http:');
    assert.ok(logged.some((l) => /127\.0\.0\.1 is this machine/.test(l)), logged.join('\n'));
    assert.ok(logged.some((l) => /SVG is not shown/.test(l)), logged.join('\n'));
    assert.ok(logged.some((l) => /http: icons are not fetched/.test(l)), logged.join('\n'));
    // Only checked images were written to disk.
    for (const name of readdirSync(join(storage, 'product'))) assert.equal(readImageHeader(readFileSync(join(storage, 'product', name))).kind, 'image');
  });

  test('fetched (a test allowance for the fixture on 127.0.0.1): the PNG shows and is kept on disk; the 50 MB PNG is cut at the cap; the SVG served as a PNG is refused', async () => {
    const logged: string[] = [];
    const allowance = { testOnlyAllowance: { plainHttp: true, address: (a: string) => a === '127.0.0.1' } };
    const fetchedOnly = entries.filter((e) => /\/(fetched|huge|scripted)$/.test(e.name));
    const icons = new GalleryIcons(join(storage, 'fetched'), (t) => logged.push(t), allowance);
    const pick = pickOf(fetchedOnly);
    await icons.load(fetchedOnly, pick);
    const fetched = iconOf(pick, 'Fetched');
    assert.ok(fetched, logged.join('\n'));
    assert.equal(fetched.light.fsPath, fetched.dark.fsPath, 'one variant serves both themes');
    assert.deepEqual(await firstPixel(fetched.light.fsPath), [40, 170, 60]);
    assert.equal(iconOf(pick, 'Huge'), undefined);
    assert.equal(iconOf(pick, 'Scripted'), undefined);
    assert.ok(logged.some((l) => /the download was cut there/.test(l)), logged.join('\n'));
    assert.ok(fixture.iconTrap.sent.huge < 16 * MAX_ICON_BYTES, `the huge PNG stopped early (${fixture.iconTrap.sent.huge} bytes sent)`);
    assert.ok(logged.some((l) => /SVG is not shown/.test(l)), logged.join('\n'));
    const asked = fixture.requests.filter((r) => r.path === '/img/valid.png').length;
    assert.equal(asked, 1);

    // Another window (a new resolver on the same folder): the icon comes from disk, not the network.
    const again = new GalleryIcons(join(storage, 'fetched'), () => undefined, allowance);
    const second = pickOf(fetchedOnly);
    await again.load(fetchedOnly, second);
    assert.ok(iconOf(second, 'Fetched'));
    assert.equal(fixture.requests.filter((r) => r.path === '/img/valid.png').length, asked, 'not fetched again');
  });
});
