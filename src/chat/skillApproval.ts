// When loading a skill the model asks for needs the user's approval, and what the user approved.
// A skill is instructions a server gives the model; one that declares `allowed-tools`, ships code
// (scripts the instructions may tell the model to run), or sits inside another skill (a nested
// skill: approving its parent does not approve it) asks explicitly, for that skill alone: no
// trusted server or read-only setting skips it. Approval is tied to the skill's file list: the
// digest of its files' digests and its frontmatter, kept per server identity as tool pins are,
// so a skill whose files changed since the user approved it asks again and shows what changed.
import { canonicalJson, fingerprintOf } from '../config/fingerprint';
import { revealInvisible } from '../content/invisibleText';
import { SkillEntry, pathInSkill, skillRoot } from '../skills/wire';
import type { ApprovalNeed, ApprovalSettings, SessionGrants } from './approval';

/** A skill the model may load: its entry, and the server it came from. */
export interface OfferedSkill {
  /** What the model names it by: `<server>:<path of the skill>` (`skills:acme/billing/refunds`). */
  readonly id: string;
  readonly serverId: string;
  readonly serverName: string;
  readonly entry: SkillEntry;
  /** The skill that holds this one, when it is nested (its SKILL.md lies under another listed skill's root). */
  readonly nestedIn?: string;
}

/** What makes a skill ask explicitly, per skill. */
export interface SkillRisks {
  /** The frontmatter's `allowed-tools`, as text. */
  readonly allowedTools?: string;
  /** Files of the skill that are code (scripts), by their path in the skill. */
  readonly code: readonly string[];
  readonly nestedIn?: string;
}

const CODE_FILE = /(^|\/)scripts\/|\.(py|sh|bash|zsh|fish|js|mjs|cjs|ts|rb|pl|php|lua|ps1|psm1|bat|cmd|exe|jar|wasm)$/i;

export function skillRisks(skill: OfferedSkill): SkillRisks {
  const declared = skill.entry.frontmatter['allowed-tools'];
  const code = (skill.entry.resources ?? []).map((f) => pathInSkill(skill.entry.uri, f.uri)).filter((p): p is string => p !== undefined && CODE_FILE.test(p));
  return { ...(declared !== undefined ? { allowedTools: typeof declared === 'string' ? declared : canonicalJson(declared) } : {}), code, ...(skill.nestedIn ? { nestedIn: skill.nestedIn } : {}) };
}

function isRisky(risks: SkillRisks): boolean {
  return risks.allowedTools !== undefined || risks.code.length > 0 || risks.nestedIn !== undefined;
}

/** The digest of a skill's file list (each file's digest and size) and its frontmatter: what an approval holds to. */
export function skillFilesDigest(entry: SkillEntry): string {
  const files = (entry.resources ?? []).map((f) => [f.uri, f.digest, f.size ?? null]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  return fingerprintOf(entry.uri, entry.frontmatter, files);
}

/** The skill's file list as approved: path → digest, for a diff when it changes. */
export interface SkillPin {
  readonly digest: string;
  readonly files: Readonly<Record<string, string>>;
  readonly frontmatter: unknown;
  readonly approvedAt: number;
}

/** Pins by server identity (as tool pins), then SKILL.md URI. */
export type SkillPinStore = Record<string, Record<string, SkillPin>>;

function filesOf(entry: SkillEntry): Record<string, string> {
  return Object.fromEntries((entry.resources ?? []).map((f) => [pathInSkill(entry.uri, f.uri) ?? f.uri, f.digest]));
}

export function withSkillPin(store: SkillPinStore, identity: string, entry: SkillEntry, now: number): SkillPinStore {
  const pin: SkillPin = { digest: skillFilesDigest(entry), files: filesOf(entry), frontmatter: entry.frontmatter, approvedAt: now };
  return { ...store, [identity]: { ...(store[identity] ?? {}), [entry.uri]: pin } };
}

/** What changed in the skill since `pin` was approved, a line each; empty when nothing did (or it has no pin). */
export function skillChanges(pin: SkillPin | undefined, entry: SkillEntry): string[] {
  if (!pin || pin.digest === skillFilesDigest(entry)) return [];
  const now = filesOf(entry);
  const lines: string[] = [];
  if (canonicalJson(pin.frontmatter) !== canonicalJson(entry.frontmatter)) lines.push('frontmatter changed');
  for (const [path, digest] of Object.entries(now)) {
    if (!(path in pin.files)) lines.push(`added ${path}`);
    else if (pin.files[path] !== digest) lines.push(`changed ${path}`);
  }
  for (const path of Object.keys(pin.files)) if (!(path in now)) lines.push(`removed ${path}`);
  return lines.length ? lines : ['its file list changed'];
}

/** The session grant's key: per skill and per file list, so a changed skill is not covered by it. */
export function skillGrantKey(skill: OfferedSkill): string {
  return `skill:${skill.entry.uri}#${skillFilesDigest(skill.entry)}`;
}

/** Whether loading `skill` asks first, and why. */
export function skillApprovalNeed(skill: OfferedSkill, risks: SkillRisks, settings: ApprovalSettings, grants: SessionGrants, changes: readonly string[], writtenByApp?: string): ApprovalNeed {
  if (changes.length) return { ask: true, reason: 'The skill changed since you approved it.' };
  if (writtenByApp !== undefined) return { ask: true, reason: `This request was written by ${writtenByApp}, not by you: every skill it loads asks.` };
  if (grants.has(skill.serverId, skillGrantKey(skill))) return { ask: false, reason: 'allowed for this session' };
  if (isRisky(risks)) return { ask: true, reason: 'This skill can make the model act (it declares tools or ships code, or sits inside another skill): it asks for itself, whatever the server.' };
  if (settings.serverTrusted && settings.autoApproveReadOnly) return { ask: false, reason: 'instructions of a trusted server' };
  return { ask: true, reason: 'A language model asks to load this skill (its instructions then go to the model).' };
}

/** The skill's root as the model and the user see it (`acme/billing/refunds`). */
export function skillPath(entry: SkillEntry): string {
  return skillRoot(entry.uri).replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
}

/** The approval text shown in chat: server, skill, what it declares, and what changed. */
export function describeSkillApproval(skill: OfferedSkill, risks: SkillRisks, reason: string, changes: readonly string[]): string {
  const lines = [`**${revealInvisible(skill.serverName)}** offers the skill **${revealInvisible(skill.entry.frontmatter.name)}** (\`${revealInvisible(skillPath(skill.entry))}\`) and the model asks to load it. ${reason}`, '', `> ${revealInvisible(skill.entry.frontmatter.description.replace(/\s+/g, ' ').trim())}`];
  if (risks.allowedTools !== undefined) lines.push('', `It declares **allowed-tools**: \`${revealInvisible(risks.allowedTools)}\``);
  if (risks.code.length) lines.push('', `It ships code: ${risks.code.map((p) => `\`${revealInvisible(p)}\``).join(', ')}`);
  if (risks.nestedIn) lines.push('', `It is nested in the skill \`${revealInvisible(risks.nestedIn)}\`: approving that one does not approve this one.`);
  if (changes.length) lines.push('', 'Changed since you approved it:', '```diff', ...changes.map((c) => `! ${c}`), '```');
  return lines.join('\n');
}
