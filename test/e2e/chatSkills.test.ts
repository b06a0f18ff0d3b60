// Skills in @mcp in a real VS Code (code-server, no Copilot), with the scripted tool-calling model
// (fixtures/lm-tool-provider, the only model) and the skills fixture on the official SDK 1.x
// (test/fixtures/servers/skills.mjs over stdio; "READ <uri>" on its stderr for every read, which
// "MCP: skills" logs). The model is told the skills (it logs the ids it got), asks load_skill for
// pdf-processing (it ships code, so it asks whatever the server), the approval shows in the
// response, Allow once loads the verified SKILL.md and the model logs what it received;
// bad-digest, approved too, reaches the model as the refusal alone; `/tools` lists the skills.
// Order-dependent: the tests share one launch and one scripted model's log.
// Screenshots: test-results/screenshots/chatskills-*.png.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { MODEL_CHANNEL, chatDriver, toolModelVsix } from './chatDriver';
import { defaultVsixPath, launch, repoRoot, type Workbench } from './harness';
import { allowServers, waitForTree } from './treeRows';

const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;
const CHANNEL = 'MCP: skills';

describe('Skills in @mcp in a real VS Code', { skip: existsSync(VSIX) ? false : `${VSIX} is missing` }, () => {
  let wb: Workbench;
  const scratch = mkdtempSync(join(tmpdir(), 'mcp-host-chatskills-e2e-'));
  const workspace = join(scratch, 'ws');
  const { waitForToolModel, chatShot, ask, response, clickButton } = chatDriver(() => wb);
  /** The files the server was asked for, from its stderr lines in the channel. */
  const reads = async () => [...(await wb.outputChannelText(CHANNEL, { reveal: false })).matchAll(/stderr: READ (\S+)/g)].map((m) => m[1]);

  async function step(name: string, fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (error) {
      await wb.screenshot(`chatskills-${name}-failed`).catch(() => undefined);
      throw error;
    }
  }

  before(async () => {
    mkdirSync(join(workspace, '.vscode'), { recursive: true });
    writeFileSync(join(workspace, '.vscode', 'mcp.json'), JSON.stringify({ servers: { skills: { command: 'node', args: [join(repoRoot, 'test', 'fixtures', 'servers', 'skills.mjs')] } } }));
    wb = await launch({ workspace, vsix: VSIX, extensions: [toolModelVsix()], timeoutMs: 150_000, settings: { 'chat.disableAIFeatures': false, 'chat.mcp.autostart': 'never' } });
    await waitForToolModel();
    await wb.openView('MCP Host');
    await wb.waitForTreeItem('skills', { timeoutMs: 30_000 });
    await allowServers(wb, 1);
    await waitForTree(wb, 'the skills server to start', (rows) => rows.some((r) => r.label === 'Skills'), 90_000);
  });

  after(async () => {
    rmSync(scratch, { recursive: true, force: true });
    if (!wb) return;
    await wb.close();
    assert.deepEqual(wb.leftoverProcesses(), [], 'nothing of the launch outlives it');
  });

  test('the model is told the skills, asks to load one, the approval shows; Allow once: its verified SKILL.md reaches the model', { timeout: 240_000 }, async () => {
    await step('load', async () => {
      await wb.outputChannelText('MCP Host', { contains: /Language models listed \([^)]*\): .*mcp-host-tool-test\/mcp-host-tool-model/, timeoutMs: 60_000, reveal: false });
      await ask('call load_skill with skills:pdf-processing');
      const asked = await response(/offers the skill pdf-processing[\s\S]*ships code[\s\S]*scripts\/extract\.py/, 90_000);
      assert.match(asked, /the model asks to load it/);
      // Told, not read: the model got the ids with the request; nothing was read before the approval.
      const log = await wb.outputChannelText(MODEL_CHANNEL, { reveal: false });
      const listed = [...log.matchAll(/skills listed: (.*)/g)].at(-1)?.[1].split(', ') ?? [];
      assert.ok(listed.includes('skills:pdf-processing') && listed.includes('skills:bad-digest'), listed.join(','));
      assert.ok([...log.matchAll(/offered: (.*)/g)].at(-1)?.[1].split(', ').includes('load_skill'), 'load_skill is offered');
      assert.deepEqual(await reads(), []);
      await wb.screenshot('chatskills-approval');
      await chatShot('chatskills-approval-panel');
      await clickButton('Allow once');
      // The scripted model answers with the tool result it received: the skill's text, tagged with its server.
      const answer = await response(/Tool result: Skill skills:pdf-processing from the MCP server "skills", verified/, 90_000);
      assert.match(answer, /load_skill skills:pdf-processing: loaded \(verified\)/);
      const got = [...(await wb.outputChannelText(MODEL_CHANNEL, { reveal: false })).matchAll(/results: (.*)/g)].at(-1)?.[1] ?? '';
      assert.match(got, /<skill-file skill=\\"skills:pdf-processing\\" server=\\"skills\\" path=\\"SKILL\.md\\">\\n---\\nname: pdf-processing/);
      assert.match(got, /Fill forms as \[the forms guide\]\(references\/FORMS\.md\) says/);
      assert.deepEqual(await reads(), ['skill://pdf-processing/SKILL.md']);
      await wb.screenshot('chatskills-loaded');
    });
  });

  test('a skill whose digest does not match reaches the model as the refusal alone', { timeout: 180_000 }, async () => {
    await step('refused', async () => {
      await ask('call load_skill with skills:bad-digest');
      await response(/offers the skill bad-digest/, 90_000);
      await clickButton('Allow once');
      // The whole refusal, as the model got it (the answer is read once it is drawn to its end).
      const answer = await response(/Tool result: The skill skills:bad-digest was not loaded: [\s\S]*digest sha256:[0-9a-f]{64}[\s\S]*Nothing of it was used/, 90_000);
      const got = [...(await wb.outputChannelText(MODEL_CHANNEL, { reveal: false })).matchAll(/results: (.*)/g)].at(-1)?.[1] ?? '';
      assert.match(got, /^"The skill skills:bad-digest was not loaded/);
      await wb.screenshot('chatskills-refused');
      for (const text of [answer, await wb.outputChannelText(MODEL_CHANNEL, { reveal: false }), await wb.outputChannelText(CHANNEL, { reveal: false })]) assert.doesNotMatch(text, /SECRET-UNVERIFIED-BODY/);
    });
  });

  test('/tools lists the skills the model is told of, and which ask for themselves', { timeout: 120_000 }, async () => {
    await step('tools', async () => {
      await ask('/tools');
      const listing = await response(/skill\(s\) listed to the model[\s\S]*skills:oversized/, 60_000);
      assert.match(listing, /skills:pdf-processing — Extract, fill, and assemble PDF documents \(asks for itself: ships code\)/);
      assert.match(listing, /skills:acme\/billing\/refunds — .*\(asks for itself: allowed-tools\)/);
      await wb.screenshot('chatskills-tools');
    });
  });
});
