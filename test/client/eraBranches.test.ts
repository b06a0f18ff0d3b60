// One codec per protocol era: no code outside the era codecs (src/client/eras/) and the
// negotiation (client/era.ts, eraProbe.ts, negotiation.ts) branches on the era or on a protocol
// version. Callers ask the client's codec (`client.eraCodec`, `client.taskOffer()`) instead. A
// few files may read versions for reasons the table below gives; a new one needs a reason there.
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { suite, test } from 'node:test';

const root = join(__dirname, '..', '..', '..');
const src = join(root, 'src');

/** Where the era may be branched on, and why. */
const ALLOWED: Readonly<Record<string, string>> = {
  'client/eras/': 'the era codecs themselves',
  'client/era.ts': 'the negotiation: preferences, plans and the probe verdict',
  'client/eraProbe.ts': 'the negotiation: the stdio probe wait',
  'client/negotiation.ts': 'the negotiation: the handshake that picks the codec',
  'client/schemas.ts': 'defines the versions, the eras and their predicates',
  'protocol/transport.ts': 'defines the modern-version predicate the HTTP transport switches on',
  'transport/streamableHttp.ts': "the HTTP wire's headers and sessions follow the version the negotiation sets (setProtocolVersion): a transport cannot import the client",
  'registry/eraStore.ts': "the negotiation's memory: a stored era is checked before it is believed",
  'gateway/eraBridge.ts': 'the gateway is a 2025-11-25 server to its clients: it answers their initialize with a version it speaks',
  'gateway/httpGateway.ts': 'the gateway is a 2025-11-25 server to its clients: it refuses an MCP-Protocol-Version it does not speak',
};

/** The shapes of an era branch: comparing an era to a name, an era or version predicate, a version literal compared. */
const ERA_BRANCHES: readonly RegExp[] = [
  /\bera\s*[!=]==?\s*['"](modern|legacy)['"]/,
  /['"](modern|legacy)['"]\s*[!=]==?\s*[\w.?]*\bera\b/,
  /\b(isModernVersion|isModernProtocolVersion|isSupportedVersion|FIRST_MODERN_PROTOCOL_VERSION|MODERN_PROTOCOL_VERSIONS|atLeast)\b/,
  /[!=<>]=?=?\s*['"]20\d\d-\d\d-\d\d['"]/,
  /['"]20\d\d-\d\d-\d\d['"]\s*[!=<>]=?=?/,
];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** The code of a line, without a trailing `//` comment and outside block comments (comments may name versions). */
function codeLines(text: string): { line: number; code: string }[] {
  const lines: { line: number; code: string }[] = [];
  let inBlock = false;
  text.split('\n').forEach((raw, i) => {
    let code = raw;
    if (inBlock) {
      const end = code.indexOf('*/');
      if (end < 0) return;
      code = code.slice(end + 2);
      inBlock = false;
    }
    const trimmed = code.trim();
    if (trimmed.startsWith('//') || trimmed.startsWith('*')) return;
    if (trimmed.startsWith('/*')) {
      if (!trimmed.includes('*/')) inBlock = true;
      return;
    }
    lines.push({ line: i + 1, code: code.replace(/\s\/\/\s.*$/, '') });
  });
  return lines;
}

/** The era branches of one file's text, as `line: code`. */
export function eraBranches(text: string): string[] {
  return codeLines(text)
    .filter(({ code }) => ERA_BRANCHES.some((re) => re.test(code)))
    .map(({ line, code }) => `${line}: ${code.trim()}`);
}

function allowed(path: string): boolean {
  return Object.keys(ALLOWED).some((prefix) => (prefix.endsWith('/') ? path.startsWith(prefix) : path === prefix));
}

suite('architecture: one codec per protocol era', () => {
  test('the matcher finds the branches it is meant to find, and not comments', () => {
    assert.deepEqual(eraBranches("if (client.era === 'modern') x();"), ["1: if (client.era === 'modern') x();"]);
    assert.equal(eraBranches("const probes = 'legacy' !== this.era ? 1 : 0;").length, 1);
    assert.equal(eraBranches('if (isModernProtocolVersion(v)) y();').length, 1);
    assert.equal(eraBranches("if (version >= '2026-07-28') z();").length, 1);
    assert.deepEqual(eraBranches("// the 2026-07-28 era === 'modern'\n/**\n * era === 'legacy'\n */\nconst a = 1;"), []);
  });

  test("no era branch outside the era codecs and the negotiation", () => {
    const found: string[] = [];
    for (const file of sourceFiles(src)) {
      const path = relative(src, file).split(sep).join('/');
      if (allowed(path)) continue;
      for (const branch of eraBranches(readFileSync(file, 'utf8'))) found.push(`src/${path}:${branch}`);
    }
    assert.deepEqual(found, [], `era branches outside src/client/eras/ and the negotiation: ask the client's codec (client.eraCodec, client.taskOffer()) instead:\n${found.join('\n')}`);
  });

  test('every allowed file exists (a moved file must take its reason with it)', () => {
    const paths = new Set(sourceFiles(src).map((f) => relative(src, f).split(sep).join('/')));
    for (const prefix of Object.keys(ALLOWED)) assert.ok([...paths].some((p) => (prefix.endsWith('/') ? p.startsWith(prefix) : p === prefix)), `${prefix} is allowed but does not exist`);
  });

  test('the codecs are the only modules that send the era-specific requests of a ready session', () => {
    const eraOnly = /['"](logging\/setLevel|resources\/subscribe|resources\/unsubscribe|notifications\/roots\/list_changed)['"]/;
    const client = readFileSync(join(src, 'client', 'client.ts'), 'utf8');
    const sent = codeLines(client).filter(({ code }) => eraOnly.test(code) && /request\(|notify\(/.test(code));
    assert.deepEqual(sent, [], 'McpClient sends these through its codec');
  });
});
