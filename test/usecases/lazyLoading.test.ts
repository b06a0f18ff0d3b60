import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

/**
 * Runs `body` in a fresh node process (so nothing this test process loaded counts) and returns
 * what it printed as JSON. `loaded(part)` says whether a file whose path contains `part` was loaded.
 */
function inFreshProcess(body: string): Record<string, boolean> {
  const script = `const loaded = (part) => Object.keys(require.cache).some((f) => f.includes(part));\n${body}`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: __dirname, encoding: 'utf8' })) as Record<string, boolean>;
}

test('ajv and markdown-it load with the first check or render, not with the modules that use them', () => {
  const seen = inFreshProcess(`
    const result = require('../../src/usecases/resultModel');
    const { SchemaValidator } = require('../../src/schema/validator');
    const before = { ajv: loaded('node_modules/ajv/'), markdownIt: loaded('node_modules/markdown-it/') };
    result.toolResultDisplay({ content: [{ type: 'text', text: '# Title\\n\\n[a link](https://example.com)' }], structuredContent: { n: 1 } },
      { type: 'object', properties: { n: { type: 'number' } } }, new SchemaValidator());
    console.log(JSON.stringify({ ajvBefore: before.ajv, markdownItBefore: before.markdownIt, ajvAfter: loaded('node_modules/ajv/') }));
  `);
  assert.deepEqual(seen, { ajvBefore: false, markdownItBefore: false, ajvAfter: true });
  const rendered = inFreshProcess(`
    require('../../src/content/markdown').renderMarkdown('# hi');
    console.log(JSON.stringify({ markdownIt: loaded('node_modules/markdown-it/') }));
  `);
  assert.deepEqual(rendered, { markdownIt: true });
});

test('the YAML parser loads with the first skill frontmatter parsed, not with the skill verification that uses it', () => {
  const seen = inFreshProcess(`
    const { parseFrontmatter } = require('../../src/skills/verification');
    const before = loaded('node_modules/yaml/');
    const fields = parseFrontmatter('skill://a/SKILL.md', '---\\nname: a\\ndescription: b\\n---\\nbody');
    console.log(JSON.stringify({ before, after: loaded('node_modules/yaml/'), name: fields.name }));
  `);
  assert.deepEqual(seen, { before: false, after: true, name: 'a' });
});

test('the wire schemas use the small zod build (classic zod is not loaded)', () => {
  const seen = inFreshProcess(`
    require('../../src/client');
    require('../../src/serverRequests');
    require('../../src/usecases/history');
    require('../../src/usecases/panelMessages');
    console.log(JSON.stringify({ mini: loaded('zod/v4/mini'), classic: loaded('zod/v4/classic') }));
  `);
  assert.deepEqual(seen, { mini: true, classic: false });
});

test('parsing never reads `navigator` (VS Code reports that read as PendingMigrationError)', () => {
  const seen = inFreshProcess(`
    let read = false;
    Object.defineProperty(globalThis, 'navigator', { configurable: true, get() { read = true; throw new Error('PendingMigrationError: navigator is now a global in nodejs'); } });
    const { Message } = require('../../src/protocol/messages');
    const { listItemSchemas, listPageSchema } = require('../../src/client/schemas');
    const page = listPageSchema('tools').safeParse({ tools: [{ name: 'a', inputSchema: { type: 'object' } }] });
    const parsed = page.success && listItemSchemas().tools.safeParse(page.data.tools[0]).success ? page : { success: false };
    const invalid = Message.classify({ jsonrpc: '2.0', id: 1, result: 'not an object' });
    console.log(JSON.stringify({ read, parsed: parsed.success, invalid: invalid.kind === 'invalid' }));
  `);
  assert.deepEqual(seen, { read: false, parsed: true, invalid: true });
});

// scripts/test.mjs builds dist/ before the tests run.
test('the shipped bundles leave oauth4webapi to dist/vendor/oauth.mjs, imported on the first sign-in', () => {
  const dist = `${__dirname}/../../../dist`;
  const chunks = readdirSync(dist).filter((f) => /^chunk-\w+\.js$/.test(f));
  // The extension's import of the chunk may sit in one of its lazily loaded chunks.
  for (const [bundle, files] of [['extension.js', ['extension.js', ...chunks]], ['cli.js', ['cli.js']]] as const) {
    const text = files.map((f) => readFileSync(`${dist}/${f}`, 'utf8')).join('\n');
    assert.match(text, /import\("\.\/vendor\/oauth\.mjs"\)/, `${bundle} imports the chunk`);
    assert.doesNotMatch(text, /oauth4webapi\/v\d/, `${bundle} does not carry oauth4webapi itself`);
  }
  assert.match(readFileSync(`${dist}/vendor/oauth.mjs`, 'utf8'), /oauth4webapi\/v\d/);
});

test('activating the shipped bundle reads neither the panels, the HTTP transports, eventsource-parser, nor the parts loaded on first use (gateway, doctor, dev mode, recorder, saved tests, sign-in listener, @mcp, Find Tool…)', () => {
  const dist = join(__dirname, '..', '..', '..', 'dist');
  assert.ok(existsSync(join(dist, 'bench.js')) && existsSync(join(dist, 'extension.js')), `${dist} has no build: run node esbuild.mjs --drivers`);
  // The benchmark's loader: a fresh process, a stand-in vscode module, require() and activate().
  const out = execFileSync(process.execPath, [join(dist, 'bench.js'), '--load-extension', join(dist, 'extension.js')], { encoding: 'utf8' });
  const { files } = JSON.parse(out.trim().split('\n').pop()!) as { files: string[] };
  assert.ok(files.includes('extension.js'), `activation read ${files.join(', ')}`);
  // Each part is found by a text only it has; it must be in a file of its own that activation did not read.
  const parts = {
    'the tool panel': 'the arguments must be a JSON object',
    'the timeline page': 'Export the selection of',
    'the Streamable HTTP transport': 'Streamable HTTP to ',
    'eventsource-parser': 'Cannot feed parser',
    'the app view opened from @mcp': 'opened from @mcp with the call',
    // Loaded when sharing starts (chatShare.ts), on the first Diagnose, for an entry with `dev`, by
    // Record Session, when a workspace has a test file, on the first sign-in, on the first @mcp request.
    'the gateway': 'this session has a GET stream open already',
    'the connection doctor': 'does not speak TLS',
    'dev mode': 'dev: attaching the debugger',
    'the session recorder': 'recording this server',
    "saved tests' file parser": 'expect.json[',
    "saved tests' Testing view": 'Save which call as a test?',
    'the sign-in redirect listener': 'Sign-in finished. You can close this window',
    "@mcp's request handler": 'Connecting to the MCP servers',
    'the Find Tool pick': 'by name, title or description',
  };
  const chunks = readdirSync(dist).filter((f) => /^chunk-\w+\.js$/.test(f));
  for (const [part, text] of Object.entries(parts)) {
    const holders = ['extension.js', ...chunks].filter((f) => readFileSync(join(dist, f), 'utf8').includes(text));
    assert.ok(holders.length > 0, `no file of dist/ holds ${part}`);
    assert.deepEqual(holders.filter((f) => files.includes(f)), [], `${part} was read at activation`);
  }
  assert.ok(!files.some((f) => f.startsWith('vendor/')), `activation read ${files.join(', ')}`);
});

test('activating the shipped bundle reads one file: the chunks it needs are merged into it, each still one module for the lazy chunks', () => {
  const dist = join(__dirname, '..', '..', '..', 'dist');
  const out = execFileSync(process.execPath, [join(dist, 'bench.js'), '--load-extension', join(dist, 'extension.js')], { encoding: 'utf8' });
  const { files } = JSON.parse(out.trim().split('\n').pop()!) as { files: string[] };
  assert.deepEqual(files, ['extension.js']);
  // A lazy chunk that needs a merged one asks for it where extension.js registered it, never from a file.
  const chunks = readdirSync(dist).filter((f) => /^chunk-\w+\.js$/.test(f));
  const merged = [...readFileSync(join(dist, 'extension.js'), 'utf8').matchAll(/^"(chunk-\w+\.js)":function/gm)].map((m) => m[1]);
  assert.ok(merged.length > 0, 'extension.js holds no merged chunk');
  for (const chunk of chunks) {
    const text = readFileSync(join(dist, chunk), 'utf8');
    for (const name of merged) assert.ok(!text.includes(`require("./${name}")`), `${chunk} requires the merged ${name} from a file`);
  }
});
