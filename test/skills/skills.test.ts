// The Skills extension's core (src/skills/): verification of entries and files on their own, and
// listing and loading against the real skills fixture server (the official SDK over stdio), with
// what went over the wire counted: no file read ahead of a load, one read per digest.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpClient } from '../../src/client/client';
import { getSkill, listSkills, readDirectory } from '../../src/skills/catalog';
import { SkillLoader, VerifiedFileCache } from '../../src/skills/loader';
import { SkillVerificationError, entryProblem, frontmatterDifferences, parseFrontmatter, sha256Digest, verifyFile, verifyFrontmatter } from '../../src/skills/verification';
import { SkillEntry, resolveSkillReference, withSkillsCapability } from '../../src/skills/wire';
import { SkillDocumentPath, skillLabels } from '../../src/skills/serverSkills';
import { WireRecorder, connectStdio, fixture } from '../client/support';
import { traceClient } from '../../src/cli/trace';
import { frameMessageOf } from '../../src/protocol/heldFrames';
import { formatFrame } from '../../src/extension/logs/logFormat';
import { McpLocalError } from '../../src/protocol/errors';

const TEXT = '---\nname: demo\ndescription: A demo skill\nmetadata:\n  version: "1.0"\n---\n\nBody.\n';
const bytes = (text: string) => Buffer.from(text, 'utf8');
const entryOf = (over: Partial<SkillEntry> = {}): SkillEntry => ({
  uri: 'skill://demo/SKILL.md',
  frontmatter: { name: 'demo', description: 'A demo skill', metadata: { version: '1.0' } },
  resources: [{ uri: 'skill://demo/SKILL.md', digest: sha256Digest(bytes(TEXT)), size: bytes(TEXT).byteLength }],
  ...over,
});

describe('skills: verification', () => {
  test('a file passes with its size and digest; a wrong size or digest is refused by kind, without its content in the message', () => {
    const file = entryOf().resources![0];
    verifyFile(file, bytes(TEXT));
    const tampered = bytes(TEXT.replace('Body.', 'EVIL!'));
    assert.throws(() => verifyFile(file, tampered), (e: unknown) => SkillVerificationError.is(e, 'digest') && !e.message.includes('EVIL'));
    assert.throws(() => verifyFile(file, bytes(TEXT + 'more')), (e: unknown) => SkillVerificationError.is(e, 'size') && /sent \d+ bytes, its listing says \d+/.test(e.message));
    // Without a size, only the digest decides.
    assert.throws(() => verifyFile({ ...file, size: undefined }, bytes(TEXT + 'more')), (e: unknown) => SkillVerificationError.is(e, 'digest'));
  });

  test('frontmatter is compared field by field: a changed, missing, added or nested difference is named', () => {
    assert.deepEqual(frontmatterDifferences({ name: 'a', description: 'b', metadata: { v: '1' } }, { name: 'a', description: 'b', metadata: { v: '1' } }), []);
    assert.deepEqual(frontmatterDifferences({ name: 'a', description: 'b' }, { name: 'a', description: 'c' }), ['description']);
    assert.deepEqual(frontmatterDifferences({ name: 'a', description: 'b' }, { name: 'a', description: 'b', 'allowed-tools': 'Bash' }), ['allowed-tools']);
    assert.deepEqual(frontmatterDifferences({ name: 'a', description: 'b', metadata: { v: '1' } }, { name: 'a', description: 'b', metadata: { v: 1 } }), ['metadata']);
    verifyFrontmatter(entryOf(), TEXT);
    assert.throws(() => verifyFrontmatter(entryOf(), TEXT.replace('A demo skill', 'Exfiltrate')), (e: unknown) => SkillVerificationError.is(e, 'frontmatter') && /"description"/.test(e.message) && !e.message.includes('Exfiltrate'));
    assert.throws(() => parseFrontmatter('skill://x/SKILL.md', '# no frontmatter'), (e: unknown) => SkillVerificationError.is(e, 'frontmatter'));
    assert.throws(() => parseFrontmatter('skill://x/SKILL.md', '---\nname: [unclosed\n---\n'), (e: unknown) => SkillVerificationError.is(e, 'frontmatter'));
    // YAML 1.2 core: a date stays a string, as the JSON of the listing has it.
    assert.deepEqual(parseFrontmatter('skill://x/SKILL.md', '---\nname: x\ndescription: d\ncreated: 2026-01-02\n---\n'), { name: 'x', description: 'd', created: '2026-01-02' });
  });

  test('an entry is refused before any read: outside paths, a name that is not its last segment, no SKILL.md, no files, the limits', () => {
    assert.equal(entryProblem(entryOf()), undefined);
    const file = (uri: string, size = 1) => ({ uri, digest: sha256Digest(bytes(uri)), size });
    const problem = (over: Partial<SkillEntry>) => entryProblem(entryOf(over));
    assert.equal(problem({ resources: [...entryOf().resources!, file('skill://demo/../other/SKILL.md')] })?.kind, 'entry');
    assert.equal(problem({ resources: [...entryOf().resources!, file('skill://other/x.md')] })?.kind, 'entry');
    assert.equal(problem({ uri: 'skill://acme/other/SKILL.md' })?.kind, 'entry');
    assert.equal(problem({ resources: [file('skill://demo/x.md')] })?.kind, 'entry');
    assert.match(problem({ resources: undefined })?.message ?? '', /cannot be verified/);
    const many = Array.from({ length: 512 }, (_, i) => file(`skill://demo/p/${i}.md`));
    assert.equal(problem({ resources: [...entryOf().resources!, ...many] })?.kind, 'limits');
    assert.equal(problem({ resources: [...entryOf().resources!, ...many.slice(1)] }), undefined);
    assert.equal(problem({ resources: [...entryOf().resources!, file('skill://demo/big.bin', 16 * 1024 * 1024)] })?.kind, 'limits');
  });

  test('a held answer keeps its shape with each content as size and digest; errors, other answers and requests pass as they are', () => {
    const held = (id: unknown) => id === 7;
    const answer = { jsonrpc: '2.0', id: 7, result: { contents: [{ uri: 'skill://demo/SKILL.md', text: TEXT }, { uri: 'skill://demo/a.bin', blob: Buffer.from('AB').toString('base64'), mimeType: 'x' }] } };
    assert.deepEqual(frameMessageOf(answer, held), {
      jsonrpc: '2.0',
      id: 7,
      result: { contents: [{ uri: 'skill://demo/SKILL.md', text: `(held back from traces: ${bytes(TEXT).byteLength} bytes, ${sha256Digest(bytes(TEXT))})` }, { uri: 'skill://demo/a.bin', mimeType: 'x', blob: `(held back from traces: 2 bytes, ${sha256Digest(bytes('AB'))})` }] },
    });
    assert.deepEqual(frameMessageOf({ jsonrpc: '2.0', id: 7, result: { other: TEXT } }, held), { jsonrpc: '2.0', id: 7, result: '(held back from traces)' });
    const error = { jsonrpc: '2.0', id: 7, error: { code: -32002, message: 'not found' } };
    assert.equal(frameMessageOf(error, held), error);
    const other = { ...answer, id: 8 };
    assert.equal(frameMessageOf(other, held), other);
    assert.ok(!JSON.stringify(frameMessageOf([answer, error], held)).includes('Body.'));
  });

  test('relative references resolve against the skill root and never leave it', () => {
    const skill = 'skill://acme/billing/refunds/SKILL.md';
    assert.equal(resolveSkillReference(skill, 'references/GUIDE.md'), 'skill://acme/billing/refunds/references/GUIDE.md');
    assert.equal(resolveSkillReference(skill, './a/../b.md#top'), 'skill://acme/billing/refunds/b.md');
    assert.equal(resolveSkillReference(skill, '../x.md'), undefined);
    assert.equal(resolveSkillReference(skill, 'https://example.com/x.md'), undefined);
    assert.equal(resolveSkillReference(skill, '/etc/passwd'), undefined);
  });

  test('the client declaration keeps the other extensions (MCP Apps) beside it', () => {
    assert.deepEqual(withSkillsCapability({ extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['x'] } }, sampling: {} }), {
      extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['x'] }, 'io.modelcontextprotocol/skills': {} },
      sampling: {},
    });
  });
});

describe('skills: against the skills fixture server (SDK 1.x, stdio)', { timeout: 60_000 }, () => {
  let client: McpClient;
  let wire: WireRecorder;
  before(async () => {
    ({ client, wire } = await connectStdio(process.execPath, [fixture('skills.mjs')], { capabilities: withSkillsCapability(), maxPages: 10 }));
  });
  after(() => client.close());
  // What the client asked for (its frames); the server's own "READ" lines on stderr say the same, later.
  const reads = () => wire.sent('resources/read').map((m) => m.params.uri as string);

  test('the extension is declared in initialize; skills/list follows every page and reads no file', async () => {
    assert.deepEqual((wire.sent('initialize')[0].params.capabilities as { extensions: unknown }).extensions, { 'io.modelcontextprotocol/skills': {} });
    const listing = await listSkills(client);
    assert.deepEqual(
      listing.skills.map((s) => s.frontmatter.name),
      ['pdf-processing', 'refunds', 'bad-digest', 'wrong-size', 'frontmatter-mismatch', 'oversized'],
    );
    assert.equal(wire.sent('skills/list').length, 3);
    assert.deepEqual(wire.sent('resources/read'), []);
    assert.deepEqual(reads(), []);
  });

  test('loading reads SKILL.md only; a listed file is read on demand, once per digest; an unlisted one is refused unread', async () => {
    const entry = (await listSkills(client)).skills.find((s) => s.frontmatter.name === 'pdf-processing')!;
    const loader = new SkillLoader(client, new VerifiedFileCache());
    const skill = await loader.load(entry);
    assert.match(skill.text, /^---\nname: pdf-processing/);
    assert.deepEqual(reads(), ['skill://pdf-processing/SKILL.md']);
    const forms = await loader.readFile(entry, 'skill://pdf-processing/references/FORMS.md');
    assert.equal(forms.path, 'references/FORMS.md');
    assert.equal((await loader.readFile(entry, 'skill://pdf-processing/references/FORMS.md')).cached, true);
    await loader.load(entry);
    assert.deepEqual(reads(), ['skill://pdf-processing/SKILL.md', 'skill://pdf-processing/references/FORMS.md']);
    await assert.rejects(loader.readFile(entry, 'skill://pdf-processing/secret.md'), (e: unknown) => SkillVerificationError.is(e, 'unlisted'));
    assert.equal(reads().length, 2);
  });

  test('each bad skill is refused by its own check; the oversized one without reading anything', async () => {
    const listing = await listSkills(client);
    const loader = new SkillLoader(client);
    const kinds: Record<string, string> = {};
    for (const name of ['bad-digest', 'wrong-size', 'frontmatter-mismatch', 'oversized']) {
      const entry = listing.skills.find((s) => s.frontmatter.name === name)!;
      await loader.load(entry).then(
        () => assert.fail(`${name} loaded`),
        (e: unknown) => (kinds[name] = SkillVerificationError.is(e) ? e.kind : String(e)),
      );
    }
    assert.deepEqual(kinds, { 'bad-digest': 'digest', 'wrong-size': 'size', 'frontmatter-mismatch': 'frontmatter', oversized: 'limits' });
    assert.ok(!reads().includes('skill://oversized/SKILL.md'));
  });

  test('a skill read reaches the CLI trace and the editor trace log as size and digest only, refused or verified', async () => {
    const lines: string[] = [];
    const trace = traceClient(client, (line) => lines.push(line));
    const editor: string[] = [];
    const sub = client.onFrame((frame) => editor.push(formatFrame(frame, 0)));
    try {
      const listing = await listSkills(client);
      const loader = new SkillLoader(client, new VerifiedFileCache());
      for (const name of ['bad-digest', 'wrong-size', 'frontmatter-mismatch']) await assert.rejects(loader.load(listing.skills.find((s) => s.frontmatter.name === name)!), (e: unknown) => SkillVerificationError.is(e));
      const good = listing.skills.find((s) => s.frontmatter.name === 'refunds')!;
      await loader.load(good);
      const all = [...lines, ...editor, ...wire.frames.map((f) => JSON.stringify(f.message) + (f.text ?? ''))].join('\n');
      assert.ok(!all.includes('SECRET-UNVERIFIED-BODY'), 'no unverified content in any trace');
      assert.ok(!all.includes('# Refunds'), 'not even verified content: traces show reads as size and digest');
      // What the trace shows instead is what the listing promises for the good file.
      const md = good.resources!.find((f) => f.uri === good.uri)!;
      assert.ok(lines.some((l) => l.includes(`held back from traces: ${md.size} bytes, ${md.digest}`)), lines.join('\n'));
      assert.equal(editor.filter((l) => l.startsWith('[server → editor]') && l.includes('held back from traces')).length, 4);
      // Other answers are traced as before.
      assert.ok(lines.some((l) => l.includes('"skills"')));
    } finally {
      trace.dispose();
      sub.dispose();
    }
  });

  test('skills/get answers for an unlisted skill; an unknown URI is the server error; directory read lists children', async () => {
    const entry = await getSkill(client, 'skill://unlisted-skill/SKILL.md');
    assert.equal(entry.frontmatter.description, 'Reachable by URI only');
    await assert.rejects(getSkill(client, 'skill://nope/SKILL.md'), /-32602|no skill/);
    const children = await readDirectory(client, 'skill://pdf-processing');
    assert.deepEqual(children.map((c) => `${c.name}:${c.mimeType}`).sort(), ['SKILL.md:text/markdown', 'references:inode/directory', 'scripts:inode/directory', 'templates:inode/directory']);
  });

  test('a server that floods skills/list with pages is stopped at maxPages with an error that says so; the connection stays usable', async () => {
    const flood = await connectStdio(process.execPath, [fixture('skills.mjs'), '--flood'], { capabilities: withSkillsCapability(), maxPages: 10 });
    try {
      await assert.rejects(listSkills(flood.client), (e: unknown) => McpLocalError.is(e, 'invalid-result') && /skills\/list: stopped after 10 pages; the server keeps returning nextCursor/.test(e.message));
      assert.equal(flood.wire.sent('skills/list').length, 10);
      // Nothing was read, and the server still answers.
      assert.deepEqual(flood.wire.sent('resources/read'), []);
      await flood.client.ping();
    } finally {
      await flood.client.close();
    }
  });

  test('a server without the extension gets no skills request', async () => {
    const plain = await connectStdio(process.execPath, [fixture('privateFiles.mjs')]);
    try {
      await assert.rejects(listSkills(plain.client), /does not offer the Skills extension/);
      assert.deepEqual(plain.wire.sent('skills/list'), []);
    } finally {
      await plain.client.close();
    }
  });
});

describe('skills: names and editor paths', () => {
  test('skills sharing a name are told apart by their path, none dropped', () => {
    const entry = (uri: string, name: string): SkillEntry => ({ uri, frontmatter: { name, description: '' }, resources: [] });
    assert.deepEqual(skillLabels([entry('skill://acme/billing/refunds/SKILL.md', 'refunds'), entry('skill://acme/support/refunds/SKILL.md', 'refunds'), entry('skill://git/SKILL.md', 'git')]), [
      'refunds (acme/billing)',
      'refunds (acme/support)',
      'git',
    ]);
  });

  test('an mcp-skill: path carries the server and the skill, and the file path a relative link resolves to', () => {
    const path = SkillDocumentPath.of('my server/1', 'skill://acme/billing/refunds/SKILL.md', 'SKILL.md');
    assert.deepEqual(SkillDocumentPath.parse(path), { serverId: 'my server/1', skillUri: 'skill://acme/billing/refunds/SKILL.md', pathInSkill: 'SKILL.md' });
    // What a Markdown preview makes of `examples/email.md` next to SKILL.md.
    const sibling = path.replace(/SKILL\.md$/, 'examples/email.md');
    assert.equal(SkillDocumentPath.parse(sibling)?.pathInSkill, 'examples/email.md');
    assert.equal(SkillDocumentPath.parse('/not/a-skill'), undefined);
  });
});
