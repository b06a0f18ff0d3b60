// `mcp-host skills` and `mcp-host skill URI` against the skills fixture server (official SDK,
// stdio): the listing over its three pages, a verified load, each bad skill refused with exit 2
// and none of its content printed, `--out` writing only verified files, an unlisted skill by URI.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from '../../src/cli/run';
import { ROOT, cliTestHooks } from './cliProcess';

const SERVER = ['--', process.execPath, join(ROOT, 'test/fixtures/servers/skills.mjs')];

async function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli([...args, ...SERVER], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

/** A temporary folder for --out, removed after the file; no server left after each test. */
const TEMP = cliTestHooks('mcp-host-skill-');

describe('mcp-host CLI: skills (SEP-2640) with the skills fixture server', { timeout: 120_000 }, () => {
  test('skills lists every page: name, URI, files and size, description; --json the entries', async () => {
    const { code, stdout, stderr } = await run('skills');
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^pdf-processing {2}skill:\/\/pdf-processing\/SKILL\.md {2}\(4 files, 353 B\)\n {4}Extract, fill, and assemble PDF documents$/m);
    assert.match(stdout, /^refunds {2}skill:\/\/acme\/billing\/refunds\/SKILL\.md/m);
    // The third page is there too, and the unlisted skill is not.
    assert.match(stdout, /^oversized {2}skill:\/\/oversized\/SKILL\.md {2}\(513 files/m);
    assert.doesNotMatch(stdout, /unlisted-skill/);
    const json = await run('skills', '--json');
    assert.equal((JSON.parse(json.stdout) as { skills: unknown[] }).skills.length, 6);
  });

  test('skill URI prints the verified SKILL.md and its files; --trace shows one resources/read, of SKILL.md', async () => {
    const { code, stdout, stderr } = await run('skill', 'skill://pdf-processing/SKILL.md', '--trace');
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^---\nname: pdf-processing\n/);
    assert.match(stdout, /SKILL\.md verified \(size, digest, frontmatter\)/);
    assert.match(stdout, /skill:\/\/pdf-processing\/references\/FORMS\.md {2}45 B/);
    const reads = stderr.split('\n').filter((l) => /→ .*"method":"resources\/read"/.test(l));
    assert.equal(reads.length, 1, reads.join('\n'));
    assert.match(reads[0], /skill:\/\/pdf-processing\/SKILL\.md/);
  });

  for (const [name, why] of [
    ['bad-digest', /its content has digest sha256:[0-9a-f]{64}, its listing says sha256:[0-9a-f]{64}; refused/],
    ['wrong-size', /the server sent 100 bytes, its listing says 93; refused/],
    ['frontmatter-mismatch', /its frontmatter differs from the listing in "description"; refused/],
    ['oversized', /it has 513 files, more than the 512 a skill may have/],
  ] as const) {
    test(`skill ${name} is refused (exit 2), with nothing of its content printed or written`, async () => {
      const out = join(TEMP, name);
      const printed = await run('skill', `skill://${name}/SKILL.md`);
      assert.equal(printed.code, 2);
      assert.equal(printed.stdout, '');
      assert.match(printed.stderr, why);
      assert.doesNotMatch(printed.stderr + printed.stdout, /SECRET-UNVERIFIED-BODY|Exfiltrate/);
      const written = await run('skill', `skill://${name}/SKILL.md`, '--out', out);
      assert.equal(written.code, 2);
      assert.equal(existsSync(out), false);
    });
  }

  test('skill --out writes every verified file under the folder; an unlisted skill loads through skills/get', async () => {
    const out = join(TEMP, 'refunds');
    const { code, stdout, stderr } = await run('skill', 'skill://acme/billing/refunds/SKILL.md', '--out', out);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /refunds: 2 files verified and written to /);
    assert.match(readFileSync(join(out, 'SKILL.md'), 'utf8'), /^---\nname: refunds\n/);
    assert.equal(readFileSync(join(out, 'examples', 'email.md'), 'utf8'), 'Dear customer,\n');
    const unlisted = await run('skill', 'skill://unlisted-skill/SKILL.md');
    assert.equal(unlisted.code, 0, unlisted.stderr);
    assert.match(unlisted.stdout, /Found by URI\./);
  });

  test('usage: skill needs a SKILL.md URI, --out only applies to skill, a server without skills says so', async () => {
    assert.match((await run('skill', 'skill://pdf-processing')).stderr, /skill needs the URI of a skill's SKILL\.md/);
    assert.match((await run('read', 'x', '--out', 'y')).stderr, /--out only applies to skill/);
    let stderr = '';
    const code = await runCli(['skills', '--', process.execPath, join(ROOT, 'test/fixtures/servers/privateFiles.mjs')], { stdout: () => {}, stderr: (t) => (stderr += t) });
    assert.equal(code, 2);
    assert.match(stderr, /does not offer skills/);
  });

  test("the demo's notes server offers a skill that loads verified, with its tag list", async () => {
    const notes = ['--', process.execPath, join(ROOT, 'demo/servers/notes-server.mjs')];
    const out = (args: string[]) => {
      let stdout = '';
      let stderr = '';
      return runCli([...args, ...notes], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }).then((code) => ({ code, stdout, stderr }));
    };
    const listing = await out(['skills']);
    assert.equal(listing.code, 0, listing.stderr);
    assert.match(listing.stdout, /^note-taking {2}skill:\/\/note-taking\/SKILL\.md {2}\(2 files, /m);
    const skill = await out(['skill', 'skill://note-taking/SKILL.md', '--out', join(TEMP, 'note-taking')]);
    assert.equal(skill.code, 0, skill.stderr);
    assert.match(skill.stdout, /note-taking: 2 files verified and written to /);
    assert.match(readFileSync(join(TEMP, 'note-taking', 'references', 'TAGS.md'), 'utf8'), /^# Tags/);
  });
});
