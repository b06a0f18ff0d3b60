// Skills in the @mcp loop without VS Code: the skills fixture server (official SDK, stdio, with a
// nested skill), the real loader and its verification, and a scripted model (this test's list of
// turns). What the model is told, when the user is asked, what is read and what reaches the model.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { McpClient } from '../../src/client';
import { ApprovalDecision, SessionGrants } from '../../src/chat/approval';
import { ChatLoopPorts, ChatMessage, ModelOutput, runChatLoop } from '../../src/chat/chatLoop';
import { OfferedSkill, SkillPinStore, skillApprovalNeed, skillChanges, skillRisks, withSkillPin } from '../../src/chat/skillApproval';
import { SkillPorts, describeSkills, offerSkills } from '../../src/chat/skillLoading';
import { LOAD_SKILL, ModelToolDefinition, buildToolCatalog } from '../../src/chat/toolCatalog';
import { listSkills } from '../../src/skills/catalog';
import { SkillLoader, VerifiedFileCache } from '../../src/skills/loader';
import { SkillEntry, withSkillsCapability } from '../../src/skills/wire';
import { WireRecorder, connectStdio, fixture } from '../client/support';

type Turn = (messages: readonly ChatMessage[], tools: readonly ModelToolDefinition[]) => ModelOutput[];
const load = (skill: string, file?: string): Turn => () => [{ kind: 'call', callId: `c-${skill}-${file ?? ''}`, name: LOAD_SKILL, input: file ? { skill, file } : { skill } }];
const done: Turn = () => [{ kind: 'text', text: 'done' }];
const user = (text: string): ChatMessage[] => [{ role: 'user', parts: [{ kind: 'text', text }] }];

describe('skills in @mcp (skills fixture server, SDK 1.x, stdio)', { timeout: 60_000 }, () => {
  let client: McpClient;
  let wire: WireRecorder;
  let entries: SkillEntry[];
  before(async () => {
    ({ client, wire } = await connectStdio(process.execPath, [fixture('skills.mjs'), '--nested'], { capabilities: withSkillsCapability(), maxPages: 10 }));
    entries = [...(await listSkills(client)).skills];
  });
  after(() => client.close());
  const reads = () => wire.sent('resources/read').map((m) => m.params.uri as string);

  /** The loop's ports over the real loader; decisions answer the approvals in order (deny when none is left). */
  function setup(turns: Turn[], options: { decisions?: ApprovalDecision[]; pins?: { store: SkillPinStore }; trusted?: boolean; loaded?: Set<string> } = {}) {
    const approvals: string[] = [];
    const sentToModel: string[] = [];
    const toolsSeen: string[][] = [];
    const decisions = [...(options.decisions ?? [])];
    const pins = options.pins ?? { store: {} };
    const loader = new SkillLoader(client, new VerifiedFileCache());
    let turn = 0;
    const skills: SkillPorts = {
      offered: offerSkills([{ serverId: 'sk', serverName: 'skills', skills: entries }]),
      load: (s) => loader.load(s.entry),
      readFile: (s, uri) => loader.readFile(s.entry, uri),
      changes: (s) => skillChanges(pins.store.test?.[s.entry.uri], s.entry),
      pinApproved: (s) => (pins.store = withSkillPin(pins.store, 'test', s.entry, 1)),
      approve: async (text) => (approvals.push(text), decisions.shift() ?? 'deny'),
      loaded: options.loaded ?? new Set(),
    };
    const ports: ChatLoopPorts = {
      async *send(messages, defs) {
        toolsSeen.push(defs.map((d) => d.name));
        sentToModel.push(JSON.stringify(messages));
        for (const part of turns[Math.min(turn++, turns.length - 1)](messages, defs)) yield part;
      },
      catalog: (loaded) => buildToolCatalog({ tools: [], isServerEnabled: () => true, isToolEnabled: () => true, budget: { maxTools: 128, maxTokens: 1e9 }, loaded }),
      approve: async () => 'deny',
      approvalSettings: () => ({ serverTrusted: options.trusted === true, autoApproveReadOnly: options.trusted === true }),
      pinChanges: () => undefined,
      pinApproved: () => {},
      callPorts: () => ({ client: () => client }),
      onText: () => {},
      skills,
    };
    return { ports, approvals, sentToModel, toolsSeen, pins, lastResult: () => JSON.parse(sentToModel.at(-1)!).at(-1).parts[0].parts[0].text as string };
  }

  test('the model is told each skill (name, description, server) and gets load_skill; nothing is read until it calls it', async () => {
    const before = reads().length;
    const s = setup([done]);
    await runChatLoop(user('fill in a PDF form'), s.ports, { maxRounds: 3, acceptsImages: false, grants: new SessionGrants() });
    assert.deepEqual(s.toolsSeen, [[LOAD_SKILL]]);
    const told = s.sentToModel[0];
    assert.match(told, /skills:pdf-processing — pdf-processing: Extract, fill, and assemble PDF documents \(MCP server \\"skills\\"\)/);
    assert.match(told, /skills:acme\/billing\/refunds — refunds: Process customer refund requests/);
    assert.match(told, /fill in a PDF form/);
    // What /tools shows of them: the ones that ask for themselves, and why.
    const shown = describeSkills(s.ports.skills!.offered);
    assert.match(shown, /`skills:pdf-processing` — Extract, fill, and assemble PDF documents _\(asks for itself: ships code\)_/);
    assert.match(shown, /`skills:acme\/billing\/refunds` — .* _\(asks for itself: allowed-tools\)_/);
    assert.match(shown, /`skills:pdf-processing\/forms` — .* _\(asks for itself: nested in skills:pdf-processing\)_/);
    assert.equal(reads().length, before);
  });

  test('a skill that ships code asks even on a trusted server; denied, nothing is read; allowed, SKILL.md alone arrives tagged with its server', async () => {
    const before = reads().length;
    const denied = setup([load('skills:pdf-processing'), done], { trusted: true });
    await runChatLoop(user('x'), denied.ports, { maxRounds: 3, acceptsImages: false, grants: new SessionGrants() });
    assert.equal(denied.approvals.length, 1);
    assert.match(denied.approvals[0], /It ships code: `scripts\/extract\.py`/);
    assert.match(denied.lastResult(), /The user denied loading the skill skills:pdf-processing/);
    assert.equal(reads().length, before);

    const allowed = setup([load('skills:pdf-processing'), load('skills:pdf-processing', 'references/FORMS.md'), done], { decisions: ['once'], trusted: true });
    await runChatLoop(user('x'), allowed.ports, { maxRounds: 4, acceptsImages: false, grants: new SessionGrants() });
    assert.deepEqual(reads().slice(before), ['skill://pdf-processing/SKILL.md', 'skill://pdf-processing/references/FORMS.md']);
    const first = JSON.parse(allowed.sentToModel[1]).at(-1).parts[0].parts[0].text as string;
    assert.match(first, /<skill-file skill="skills:pdf-processing" server="skills" path="SKILL.md">\n---\nname: pdf-processing/);
    assert.match(first, /Its other files .*references\/FORMS\.md, scripts\/extract\.py/);
    assert.match(allowed.lastResult(), /<skill-file skill="skills:pdf-processing" server="skills" path="references\/FORMS.md">/);
    // Reading a file of the loaded skill does not ask again.
    assert.equal(allowed.approvals.length, 1);
  });

  test('allowed-tools asks per skill; a session grant covers that skill only until its file list changes', async () => {
    const grants = new SessionGrants();
    const s = setup([load('skills:acme/billing/refunds'), load('skills:acme/billing/refunds'), done], { decisions: ['session'] });
    await runChatLoop(user('x'), s.ports, { maxRounds: 4, acceptsImages: false, grants });
    assert.equal(s.approvals.length, 1);
    assert.match(s.approvals[0], /It declares \*\*allowed-tools\*\*: `Bash\(git:\*\)`/);
    // The approval was pinned to a file list in which examples/email.md had other bytes: it asks again and says what changed.
    const refunds = entries.find((e) => e.frontmatter.name === 'refunds')!;
    const earlier = { ...refunds, resources: refunds.resources!.map((f) => (f.uri.endsWith('email.md') ? { ...f, digest: `sha256:${'0'.repeat(64)}` } : f)) };
    const changed = setup([load('skills:acme/billing/refunds'), done], { decisions: ['once'], pins: { store: withSkillPin({}, 'test', earlier, 1) } });
    await runChatLoop(user('x'), changed.ports, { maxRounds: 3, acceptsImages: false, grants });
    assert.equal(changed.approvals.length, 1);
    assert.match(changed.approvals[0], /The skill changed since you approved it\.[\s\S]*```diff\n! changed examples\/email\.md\n```/);
    // Approved again: pinned to the current list.
    assert.deepEqual(skillChanges(changed.pins.store.test[refunds.uri], refunds), []);
  });

  test('a nested skill asks again: its parent\'s approval does not cover it, nor is it read as the parent\'s file', async () => {
    const grants = new SessionGrants();
    const s = setup([load('skills:pdf-processing'), load('skills:pdf-processing', 'forms/SKILL.md'), load('skills:pdf-processing/forms'), done], { decisions: ['session', 'deny'] });
    await runChatLoop(user('x'), s.ports, { maxRounds: 5, acceptsImages: false, grants });
    assert.equal(s.approvals.length, 2);
    assert.match(s.approvals[1], /It is nested in the skill `skills:pdf-processing`/);
    const told = s.sentToModel.join('\n');
    assert.match(told, /forms\/SKILL.md is a nested skill \(skills:pdf-processing\/forms\): load it as a skill of its own, which asks again/);
    assert.ok(!told.includes('NESTED-SKILL-BODY'));
    assert.ok(!reads().includes('skill://pdf-processing/forms/SKILL.md'));
  });

  test('a refused skill reaches the model as the refusal alone: no unverified content in any model input', async () => {
    const s = setup([load('skills:bad-digest'), load('skills:wrong-size'), load('skills:frontmatter-mismatch'), done], { decisions: ['once', 'once', 'once'], trusted: true });
    await runChatLoop(user('x'), s.ports, { maxRounds: 5, acceptsImages: false, grants: new SessionGrants() });
    const told = s.sentToModel.join('\n');
    assert.ok(told.includes('skill://bad-digest/SKILL.md'));
    assert.match(told, /The skill skills:bad-digest was not loaded: skill:\/\/bad-digest\/SKILL.md: its content has digest sha256:/);
    assert.match(told, /The skill skills:wrong-size was not loaded: .*the server sent \d+ bytes, its listing says \d+/);
    assert.match(told, /The skill skills:frontmatter-mismatch was not loaded: .*differs from the listing in \\"description\\"/);
    assert.ok(!told.includes('SECRET-UNVERIFIED-BODY'));
    assert.ok(!told.includes('Exfiltrate'));
  });

  test('policy: instructions alone load without asking on a trusted server with read-only auto-approval, else ask; code, tools or nesting always ask', () => {
    const entry: SkillEntry = { uri: 'skill://notes/SKILL.md', frontmatter: { name: 'notes', description: 'd' }, resources: [{ uri: 'skill://notes/SKILL.md', digest: `sha256:${'a'.repeat(64)}` }] };
    const plain: OfferedSkill = { id: 's:notes', serverId: 's', serverName: 's', entry };
    const trusted = { serverTrusted: true, autoApproveReadOnly: true };
    const grants = new SessionGrants();
    assert.equal(skillApprovalNeed(plain, skillRisks(plain), trusted, grants, []).ask, false);
    assert.equal(skillApprovalNeed(plain, skillRisks(plain), { serverTrusted: false, autoApproveReadOnly: true }, grants, []).ask, true);
    assert.equal(skillApprovalNeed(plain, skillRisks(plain), trusted, grants, [], 'an app').ask, true);
    for (const risky of [{ ...plain, nestedIn: 's:other' }, { ...plain, entry: { ...entry, frontmatter: { ...entry.frontmatter, 'allowed-tools': 'Read' } } }, { ...plain, entry: { ...entry, resources: [...entry.resources!, { uri: 'skill://notes/run.sh', digest: entry.resources![0].digest }] } }]) {
      assert.equal(skillApprovalNeed(risky, skillRisks(risky), trusted, grants, []).ask, true);
    }
  });
});
