// The layer direction of src/, checked from the imports themselves: a folder imports only
// folders below it, only the VS Code layer imports `vscode`, and no two folders import each other
// (directly or round a loop). docs/architecture.md draws the same table.
import { suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '../..');

/**
 * Each folder of src/ and its layer, bottom (0) to top. A folder may import a folder of a lower
 * layer, never one of its own layer or above. `extension` is src/extension/ and src/extension.ts.
 */
const LAYERS: Readonly<Record<string, number>> = {
  protocol: 0,
  // Shared helpers for what servers send (markdown, URL safety, invisible characters): a leaf.
  content: 0.5,
  client: 1,
  schema: 1,
  config: 2,
  forms: 2,
  skills: 2,
  // Between config (its policy) and transport (which starts it).
  sandbox: 2.5,
  transport: 3,
  auth: 4,
  registry: 4,
  icons: 4,
  usecases: 5,
  gallery: 5,
  // Feature folders above the use cases they call (as chat is), below chat which shows app views.
  apps: 5.5,
  timeline: 5.5,
  serverRequests: 6,
  chat: 6,
  gateway: 6,
  cli: 7,
  extension: 7,
};

/** The folder (layer name) a path under src/ belongs to. */
function folderOf(file: string): string {
  const [first] = file.split('/');
  return first === 'extension.ts' ? 'extension' : first;
}

/** Module specifiers of every import, export-from, dynamic import and require in `text`. */
function importsOf(text: string): string[] {
  const found: string[] = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;
  for (const m of text.matchAll(pattern)) found.push(m[1]);
  return found;
}

/** What breaks the layering in `files` (paths relative to src/ → their text): one line per problem. */
function layerViolations(files: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  const edges = new Map<string, Set<string>>();
  for (const [file, text] of files) {
    const from = folderOf(file);
    if (!(from in LAYERS)) problems.push(`${file}: folder "${from}" has no layer in this test's table`);
    for (const spec of importsOf(text)) {
      if (spec === 'vscode') {
        if (from !== 'extension') problems.push(`${file} imports vscode outside the VS Code layer`);
        continue;
      }
      if (!spec.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      if (target.startsWith('..')) continue;
      const to = folderOf(target);
      if (to === from) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
      if (from in LAYERS && to in LAYERS && LAYERS[to] >= LAYERS[from]) problems.push(`${file} (${from}, layer ${LAYERS[from]}) imports ${target} (${to}, layer ${LAYERS[to]})`);
    }
  }
  // Loops between folders, whatever the table says.
  const state = new Map<string, 'open' | 'done'>();
  const visit = (folder: string, trail: string[]): void => {
    if (state.get(folder) === 'done') return;
    if (state.get(folder) === 'open') {
      problems.push(`import cycle: ${[...trail.slice(trail.indexOf(folder)), folder].join(' → ')}`);
      return;
    }
    state.set(folder, 'open');
    for (const next of edges.get(folder) ?? []) visit(next, [...trail, folder]);
    state.set(folder, 'done');
  };
  for (const folder of edges.keys()) visit(folder, []);
  return problems;
}

function sourceFiles(dir: string, base = dir): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) for (const [k, v] of sourceFiles(full, base)) files.set(k, v);
    else if (entry.name.endsWith('.ts')) files.set(path.relative(base, full).split(path.sep).join('/'), fs.readFileSync(full, 'utf8'));
  }
  return files;
}

suite('architecture', () => {
  test('src/ keeps the layer direction: lower folders only, vscode only in the VS Code layer, no cycles', () => {
    const files = sourceFiles(path.join(REPO, 'src'));
    assert.ok(files.size > 100, `read ${files.size} files`);
    assert.ok(files.has('extension.ts') && files.has('protocol/connection.ts'));
    assert.deepEqual(layerViolations(files), []);
  });

  test('the check finds an upward import, vscode below the VS Code layer, and a cycle', () => {
    const files = new Map([
      ['protocol/a.ts', "import { b } from '../registry/b';"],
      ['registry/b.ts', "import type { a } from '../protocol/a';\nexport const x = require('../client/c');"],
      ['client/c.ts', "import * as vscode from 'vscode';\nimport { b } from '../registry/b';"],
      ['extension.ts', "import * as vscode from 'vscode';\nimport { c } from './client/c';"],
    ]);
    const problems = layerViolations(files);
    assert.ok(problems.some((p) => p.startsWith('protocol/a.ts (protocol, layer 0) imports registry/b')), problems.join('\n'));
    assert.ok(problems.some((p) => p.startsWith('client/c.ts (client, layer 1) imports registry/b')), problems.join('\n'));
    assert.ok(problems.includes('client/c.ts imports vscode outside the VS Code layer'), problems.join('\n'));
    assert.ok(!problems.some((p) => p.startsWith('extension.ts')), 'extension.ts may import vscode and lower layers');
    assert.ok(problems.some((p) => p.startsWith('import cycle: ') && p.includes('protocol') && p.includes('registry')), problems.join('\n'));
    assert.ok(!problems.some((p) => p.startsWith('registry/b.ts')), 'registry may import protocol and client');
  });
});
