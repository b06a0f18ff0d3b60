// End-to-end: Skills (the `io.modelcontextprotocol/skills` extension) in a real VS Code
// (code-server), with the skills fixture on the official SDK 1.x (test/fixtures/servers/skills.mjs
// over stdio, workspace `workspaces/skills`; it writes "READ <uri>" to stderr for every read, which
// "MCP: skills" logs). The server's Skills group lists its skills by name and description, and
// drawing it reads no file; opening a skill loads and verifies SKILL.md and shows it rendered,
// its relative link followed to another verified file; a skill whose SKILL.md does not match its
// digest is refused with a message, and nothing of it is shown.
// Screenshots: test-results/screenshots/skills-*.png. The tests share one launch, in order.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { defaultVsixPath, launch, poll, repoRoot, step as runStep, type Workbench } from './harness';
import { allowServers, childrenOf, waitForTree } from './treeRows';

const WORKSPACE = join(repoRoot, 'test', 'e2e', 'workspaces', 'skills');
const CHANNEL = 'MCP: skills';
const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;

describe('Skills in a real VS Code', () => {
  let wb: Workbench;
  const step = (name: string, fn: () => Promise<void>) => runStep(wb, `skills-failed-${name}`, fn, async () => wb.page.keyboard.press('Escape'));
  /** The files the server was asked for, from its stderr lines in the channel. */
  const reads = async () => [...(await wb.outputChannelText(CHANNEL)).matchAll(/stderr: READ (\S+)/g)].map((m) => m[1]);
  /** The text of the frame (a Markdown preview) that shows `text`, once one does. */
  async function frameShowing(text: string): Promise<string> {
    let found = '';
    await poll(
      async () => {
        for (const frame of wb.page.frames()) {
          const body = await frame.evaluate(() => document.body?.innerText ?? '').catch(() => '');
          if (body.includes(text)) found = body;
        }
        return found !== '';
      },
      { timeoutMs: 20_000, what: `a preview showing "${text}"` },
    );
    return found;
  }

  before(async () => {
    wb = await launch({ workspace: WORKSPACE, vsix: VSIX, timeoutMs: 150_000 });
    await wb.openView('MCP Host');
    await wb.waitForTreeItem('skills', { timeoutMs: 30_000 });
    await allowServers(wb, 1);
  });
  after(async () => wb?.close());

  test('the Skills group lists every page of skills with their descriptions, and reads no file', () =>
    step('tree', async () => {
      await wb.waitForTreeItem('Skills', { timeoutMs: 30_000 });
      await wb.expandTreeItem('Skills');
      const items = await waitForTree(wb, 'the skills of all three pages', (rows) => ['pdf-processing', 'refunds', 'oversized'].every((l) => rows.some((r) => r.label === l)));
      const skills = childrenOf(items, 'Skills');
      assert.deepEqual(
        skills.map((r) => r.label),
        ['pdf-processing', 'refunds', 'bad-digest', 'wrong-size', 'frontmatter-mismatch', 'oversized'],
      );
      assert.equal(skills[0].description, 'Extract, fill, and assemble PDF documents');
      await wb.expandTreeItem('pdf-processing');
      await wb.waitForTreeItem('references/FORMS.md');
      await wb.screenshot('skills-tree');
      assert.deepEqual(await reads(), []);
    }));

  test('opening a skill shows its verified SKILL.md rendered; its relative link opens the file it names', () =>
    step('open', async () => {
      await wb.clickTreeItem('pdf-processing');
      const preview = await frameShowing('PDF processing');
      assert.match(preview, /Fill forms as the forms guide says/);
      await poll(async () => (await reads()).includes('skill://pdf-processing/SKILL.md'), { timeoutMs: 10_000, what: 'the read of SKILL.md' });
      await wb.screenshot('skills-preview');
      assert.deepEqual(await reads(), ['skill://pdf-processing/SKILL.md']);
      await wb.clickTreeItem('references/FORMS.md');
      await frameShowing('Every field has a name and a value.');
      await poll(async () => (await reads()).length === 2, { timeoutMs: 10_000, what: 'the read of FORMS.md' });
      assert.deepEqual(await reads(), ['skill://pdf-processing/SKILL.md', 'skill://pdf-processing/references/FORMS.md']);
    }));

  test('a skill whose SKILL.md does not match its digest is refused with a message, nothing of it shown', () =>
    step('refused', async () => {
      await wb.clickTreeItem('bad-digest');
      let toasts: string[] = [];
      await poll(async () => (toasts = await wb.notifications()).some((t) => t.includes('bad-digest was not opened')), { timeoutMs: 15_000, what: 'the refusal' });
      const refusal = toasts.find((t) => t.includes('bad-digest was not opened'))!;
      assert.match(refusal, /its content has digest sha256:[0-9a-f]{64}, its listing says sha256:[0-9a-f]{64}/);
      await wb.screenshot('skills-refused');
      assert.doesNotMatch(await wb.outputChannelText(CHANNEL), /SECRET-UNVERIFIED-BODY/);
      for (const frame of wb.page.frames()) assert.doesNotMatch(await frame.evaluate(() => document.body?.innerText ?? '').catch(() => ''), /SECRET-UNVERIFIED-BODY/);
    }));
});
