import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

// scripts/test.mjs builds dist/ before the tests run.
const DIST = join(__dirname, '..', '..', '..', 'dist');

/** The source files in dist/extension.js (what activation reads), from its index source map (esbuild.mjs). */
function activationSources(): Set<string> {
  const map = JSON.parse(readFileSync(join(DIST, 'extension.js.map'), 'utf8')) as { sections: { map: { sources: string[] } }[] };
  return new Set(map.sections.flatMap((s) => s.map.sources.map((f) => f.replace(/^(\.\.\/)+/, ''))));
}

/** Parts loaded on first use (lazy chunks), with what loads them. */
const LAZY_PARTS: Record<string, string> = {
  'src/serverRequests/sampling.ts': "a server's first sampling request",
  'src/serverRequests/elicitation.ts': "a server's first elicitation request",
  'src/forms/model.ts': "an elicitation's form",
  'src/forms/fieldChecks.ts': "an elicitation's form",
  'src/extension/serverRequests/prompter.ts': 'the first sampling or elicitation dialog',
  'src/auth/session.ts': "a remote server's first request",
  'src/auth/flow.ts': "a remote server's first request",
  'src/auth/grants/': "a remote server's first request",
  'src/gallery/': 'Browse MCP Registry…',
  'src/extension/gallery/': 'Browse MCP Registry…',
};

test('activation reads neither sampling and elicitation, the OAuth flow nor the registry gallery; they are chunks of their own', () => {
  assert.ok(existsSync(join(DIST, 'extension.js.map')), 'dist/ is built');
  const sources = [...activationSources()];
  assert.ok(sources.includes('src/extension.ts') && sources.some((f) => f.startsWith('src/client/')), 'the map lists what extension.js holds');
  const eager = Object.entries(LAZY_PARTS).filter(([part]) => sources.some((f) => f.startsWith(part))).map(([part, loadedBy]) => `${part} (needed only by ${loadedBy})`);
  assert.deepEqual(eager, [], 'in dist/extension.js');
});
