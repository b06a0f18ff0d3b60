// The rooms of src/ and the imports allowed between them, in one place: test/architecture.test.ts
// checks every import of src/ against FOLDERS, and this script writes the folder table of
// docs/architecture.md from FOLDERS and each folder's README.md (its first paragraph says what
// the folder holds).
//   node scripts/architecture.mjs           write the table into docs/architecture.md
//   node scripts/architecture.mjs --check   exit 1 when docs/architecture.md differs from what it would write
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const architectureDocPath = join(repoRoot, 'docs', 'architecture.md');

/**
 * Each folder of src/ (`extension` is src/extension/ and src/extension.ts), its layer (bottom 0 to
 * top) and the folders it may import. A folder imports only lower layers, so the folders never
 * import each other round a loop; `why` explains an edge that looks like it should not be there.
 * The test fails on an import the table does not allow, and on an edge the table allows that no
 * file uses (so the table stays what the code does).
 */
export const FOLDERS = [
  { folder: 'protocol', layer: 0, imports: [] },
  { folder: 'content', layer: 0.5, imports: ['protocol'] },
  { folder: 'client', layer: 1, imports: ['protocol'] },
  { folder: 'schema', layer: 1, imports: ['protocol'] },
  {
    folder: 'config',
    layer: 2,
    imports: ['protocol', 'client'],
    why: { client: 'an entry\'s "protocolVersion" is read in the client\'s words for versions and eras (client/era.ts ProtocolPreference)' },
  },
  { folder: 'forms', layer: 2, imports: ['protocol', 'schema'] },
  { folder: 'skills', layer: 2, imports: ['protocol', 'client'] },
  { folder: 'sandbox', layer: 2.5, imports: ['config'] },
  {
    folder: 'transport',
    layer: 3,
    imports: ['protocol', 'config', 'sandbox'],
    why: { config: 'a transport starts what the configuration resolved (ResolvedServer, SandboxConfig) in the environment rules of config/environment.ts' },
  },
  { folder: 'auth', layer: 4, imports: ['protocol', 'config', 'transport'] },
  { folder: 'registry', layer: 4, imports: ['protocol', 'client', 'config'] },
  { folder: 'icons', layer: 4, imports: [] },
  { folder: 'usecases', layer: 5, imports: ['protocol', 'content', 'client', 'schema', 'config', 'forms', 'transport', 'auth', 'registry'] },
  { folder: 'gallery', layer: 5, imports: ['protocol', 'config', 'auth'] },
  { folder: 'apps', layer: 5.5, imports: ['protocol', 'content', 'client', 'usecases'] },
  { folder: 'timeline', layer: 5.5, imports: ['protocol', 'client', 'usecases'] },
  { folder: 'serverRequests', layer: 6, imports: ['protocol', 'content', 'client', 'schema', 'forms'] },
  { folder: 'chat', layer: 6, imports: ['protocol', 'content', 'client', 'config', 'skills', 'usecases', 'apps'] },
  { folder: 'gateway', layer: 6, imports: ['protocol', 'client'] },
  {
    folder: 'cli',
    layer: 7,
    imports: ['protocol', 'content', 'client', 'schema', 'config', 'forms', 'skills', 'sandbox', 'transport', 'auth', 'registry', 'usecases', 'gallery', 'chat', 'gateway'],
  },
  {
    folder: 'extension',
    layer: 7,
    imports: ['protocol', 'content', 'client', 'schema', 'config', 'forms', 'skills', 'sandbox', 'transport', 'auth', 'registry', 'icons', 'usecases', 'gallery', 'apps', 'timeline', 'serverRequests', 'chat', 'gateway'],
  },
];

/** Folder edges that need a `why` in FOLDERS to be allowed at all: the review found them unmeant. */
export const EDGES_NEEDING_A_REASON = [
  ['config', 'client'],
  ['transport', 'config'],
  ['serverRequests', 'usecases'],
];

/** The only folder whose files may import `vscode`. */
export const EDITOR_LAYER = 'extension';

/** The first paragraph of `dir`'s README.md, on one line. */
function holds(dir) {
  const file = join(dir, 'README.md');
  if (!existsSync(file)) throw new Error(`${file} is missing: each folder of src/ opens with a README line saying what it holds`);
  return readFileSync(file, 'utf8').trim().split(/\n\s*\n/)[0].replace(/\s*\n\s*/g, ' ');
}

const cell = (text) => text.replace(/\|/g, '\\|');

/** The generated part of docs/architecture.md: the folders from the top layer down, then the editor's rooms. */
export function roomsTable(srcDir = join(repoRoot, 'src')) {
  const byLayer = [...FOLDERS].sort((a, b) => b.layer - a.layer || a.folder.localeCompare(b.folder));
  const lines = [
    '| Folder | Layer | Holds | May import |',
    '| --- | --- | --- | --- |',
    ...byLayer.map((f) => {
      const imports = f.imports.map((to) => (f.why?.[to] ? `${to} (${f.why[to]})` : to)).join(', ') || 'nothing';
      const name = f.folder === 'extension' ? '`src/extension/`, `src/extension.ts`' : `\`src/${f.folder}/\``;
      return `| ${name} | ${f.layer} | ${cell(holds(join(srcDir, f.folder)))} | ${cell(imports)}${f.folder === EDITOR_LAYER ? '; and `vscode`' : ''} |`;
    }),
  ];
  const rooms = readdirSync(join(srcDir, 'extension'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  lines.push('', 'The rooms of the VS Code layer (each may import `vscode` and any folder of src/ that `extension` may):', '', '| Room | Holds |', '| --- | --- |');
  for (const room of rooms) lines.push(`| \`src/extension/${room}/\` | ${cell(holds(join(srcDir, 'extension', room)))} |`);
  return lines.join('\n');
}

const BEGIN = '<!-- rooms:begin — generated by scripts/architecture.mjs from its FOLDERS and each folder\'s README.md; run `node scripts/architecture.mjs` after changing either -->';
const END = '<!-- rooms:end -->';

/** `doc` (docs/architecture.md's text) with its generated table replaced by `table`. */
export function withRoomsTable(doc, table) {
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/architecture.md has no ${BEGIN} … ${END} block`);
  return `${doc.slice(0, start)}${BEGIN}\n${table}\n${doc.slice(end)}`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const doc = readFileSync(architectureDocPath, 'utf8');
  const next = withRoomsTable(doc, roomsTable());
  if (process.argv.includes('--check')) {
    if (next !== doc) {
      console.error('docs/architecture.md is stale: run node scripts/architecture.mjs');
      process.exit(1);
    }
  } else writeFileSync(architectureDocPath, next);
}
