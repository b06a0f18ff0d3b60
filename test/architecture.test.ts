// The shape of src/, checked from the imports themselves against FOLDERS in
// scripts/architecture.mjs (which also writes the folder table of docs/architecture.md): a folder
// imports only the folders its row allows, only the VS Code layer imports `vscode`, and no file
// imports itself round a loop of other files. Type-only imports count: a type cycle still ties the
// files together for a reader, and `import type` turns into a value import with one edit.
import { suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const REPO = path.resolve(__dirname, '../..');

interface FolderRow {
  readonly folder: string;
  readonly layer: number;
  readonly imports: readonly string[];
  readonly why?: Readonly<Record<string, string>>;
}
interface Architecture {
  readonly FOLDERS: readonly FolderRow[];
  readonly EDGES_NEEDING_A_REASON: readonly (readonly [string, string])[];
  readonly EDITOR_LAYER: string;
  roomsTable(srcDir?: string): string;
  withRoomsTable(doc: string, table: string): string;
}
const architecture = (): Promise<Architecture> => import(pathToFileURL(path.join(REPO, 'scripts', 'architecture.mjs')).href) as Promise<Architecture>;

/** The folder (row of FOLDERS) a path under src/ belongs to. */
function folderOf(file: string): string {
  const [first] = file.split('/');
  return first === 'extension.ts' ? 'extension' : first;
}

/**
 * Module specifiers of every import, export-from, dynamic import and require in `text`. Comment
 * lines are skipped: a comment that shows an import is not one.
 */
function importsOf(text: string): string[] {
  const code = text
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join('\n');
  const found: string[] = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;
  for (const m of code.matchAll(pattern)) found.push(m[1]);
  return found;
}

/** The file of src/ a relative specifier of `from` names (`.js` endings and folder imports resolved). */
function resolveImport(files: ReadonlyMap<string, string>, from: string, spec: string): string | undefined {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)).replace(/\.js$/, '');
  return [`${base}.ts`, `${base}/index.ts`, `${base}.d.ts`, base].find((candidate) => files.has(candidate));
}

/** What breaks the folder table in `files` (paths relative to src/ → their text): one line per problem. */
function folderViolations(files: ReadonlyMap<string, string>, rows: readonly FolderRow[], editorLayer: string): string[] {
  const table = new Map(rows.map((r) => [r.folder, r]));
  const problems: string[] = [];
  const used = new Set<string>();
  for (const [file, text] of files) {
    const from = folderOf(file);
    const row = table.get(from);
    if (!row) problems.push(`${file}: folder "${from}" has no row in scripts/architecture.mjs FOLDERS`);
    for (const spec of importsOf(text)) {
      if (spec === 'vscode') {
        if (from !== editorLayer) problems.push(`${file} imports vscode outside the VS Code layer`);
        continue;
      }
      if (!spec.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      if (target.startsWith('..')) continue;
      const to = folderOf(target);
      if (to === from || !row) continue;
      used.add(`${from}→${to}`);
      if (!row.imports.includes(to)) problems.push(`${file} (${from}) imports ${target} (${to}): FOLDERS does not let ${from} import ${to}`);
    }
  }
  for (const row of rows) {
    for (const to of row.imports) {
      const target = table.get(to);
      if (!target) problems.push(`FOLDERS: ${row.folder} may import "${to}", which has no row`);
      else if (target.layer >= row.layer) problems.push(`FOLDERS: ${row.folder} (layer ${row.layer}) may import ${to} (layer ${target.layer}), which is not below it`);
      if (!used.has(`${row.folder}→${to}`)) problems.push(`FOLDERS: ${row.folder} may import ${to}, but no file does (drop the edge)`);
    }
  }
  return problems;
}

/** Edges the review found unmeant that FOLDERS allows without saying why. */
function unexplainedEdges(rows: readonly FolderRow[], needing: readonly (readonly [string, string])[]): string[] {
  return needing.filter(([from, to]) => rows.some((r) => r.folder === from && r.imports.includes(to) && !r.why?.[to])).map(([from, to]) => `${from} → ${to} is allowed without a why`);
}

/** Every loop of imports between files of `files`, one line each ("a.ts → b.ts → a.ts"). */
function fileCycles(files: ReadonlyMap<string, string>): string[] {
  const edges = new Map<string, string[]>();
  for (const [file, text] of files) {
    const targets = importsOf(text)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => resolveImport(files, file, spec))
      .filter((t): t is string => t !== undefined);
    edges.set(file, [...new Set(targets)]);
  }
  // Tarjan's strongly connected components; each one with more than one file (or a file that
  // imports itself) holds a loop, reported as one loop through its first file.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[] = [];
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = new Set<string>();
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.add(w);
    } while (w !== v);
    if (component.size > 1 || edges.get(v)?.includes(v)) cycles.push(loopThrough(v, component, edges));
  };
  for (const file of [...files.keys()].sort()) if (!index.has(file)) connect(file);
  return cycles;
}

/** The shortest loop from `start` back to it inside `component`, as "a → b → a". */
function loopThrough(start: string, component: ReadonlySet<string>, edges: ReadonlyMap<string, readonly string[]>): string {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const at = queue.shift()!;
    for (const next of edges.get(at) ?? []) {
      if (!component.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let step: string | undefined = at; step !== undefined && step !== start; step = cameFrom.get(step)) path.splice(1, 0, step);
        return `import cycle: ${[...path, start].join(' → ')}`;
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, at);
        queue.push(next);
      }
    }
  }
  return `import cycle: ${[...component].join(', ')}`;
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
  test('src/ keeps the folder table: allowed folders only, vscode only in the VS Code layer', async () => {
    const { FOLDERS, EDITOR_LAYER, EDGES_NEEDING_A_REASON } = await architecture();
    const files = sourceFiles(path.join(REPO, 'src'));
    assert.ok(files.size > 100, `read ${files.size} files`);
    assert.ok(files.has('extension.ts') && files.has('protocol/connection.ts'));
    assert.deepEqual(folderViolations(files, FOLDERS, EDITOR_LAYER), []);
    assert.deepEqual(unexplainedEdges(FOLDERS, EDGES_NEEDING_A_REASON), []);
  });

  test('no two files of src/ import each other, directly or round a loop (type-only imports too)', () => {
    assert.deepEqual(fileCycles(sourceFiles(path.join(REPO, 'src'))), []);
  });

  test("docs/architecture.md's folder table is what scripts/architecture.mjs writes (run it after changing FOLDERS or a README)", async () => {
    const { roomsTable, withRoomsTable } = await architecture();
    const doc = fs.readFileSync(path.join(REPO, 'docs', 'architecture.md'), 'utf8');
    assert.equal(withRoomsTable(doc, roomsTable()), doc);
  });

  test('the checks find a disallowed import, vscode below the VS Code layer, an unused or upward edge, an unexplained edge, and a file loop', () => {
    const rows: FolderRow[] = [
      { folder: 'protocol', layer: 0, imports: [] },
      { folder: 'client', layer: 1, imports: ['protocol', 'registry'] },
      { folder: 'registry', layer: 2, imports: ['protocol', 'client'] },
      { folder: 'extension', layer: 3, imports: ['client'] },
    ];
    const files = new Map([
      ['protocol/a.ts', "import { b } from '../registry/b';"],
      ['registry/b.ts', "import type { a } from '../protocol/a';\n// import { x } from '../client/c' is only a comment\nexport const y = 1;"],
      ['client/c.ts', "import * as vscode from 'vscode';\nimport { d } from './d.js';"],
      ['client/d.ts', "export type { c } from './c';"],
      ['extension.ts', "import * as vscode from 'vscode';\nimport { c } from './client/c';"],
    ]);
    const problems = folderViolations(files, rows, 'extension');
    const has = (text: string) => assert.ok(problems.includes(text), `${text}\nnot in:\n${problems.join('\n')}`);
    has('protocol/a.ts (protocol) imports registry/b (registry): FOLDERS does not let protocol import registry');
    has('client/c.ts imports vscode outside the VS Code layer');
    has('FOLDERS: client (layer 1) may import registry (layer 2), which is not below it');
    has('FOLDERS: registry may import client, but no file does (drop the edge)');
    assert.ok(!problems.some((p) => p.startsWith('extension.ts')), 'extension.ts may import vscode and client');
    assert.deepEqual(unexplainedEdges([{ folder: 'config', layer: 2, imports: ['client'] }], [['config', 'client']]), ['config → client is allowed without a why']);
    assert.deepEqual(unexplainedEdges([{ folder: 'config', layer: 2, imports: ['client'], why: { client: 'because' } }], [['config', 'client']]), []);
    assert.deepEqual(fileCycles(files), ['import cycle: client/c.ts → client/d.ts → client/c.ts', 'import cycle: protocol/a.ts → registry/b.ts → protocol/a.ts']);
  });
});
