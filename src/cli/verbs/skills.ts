// `mcp-host skills` and `mcp-host skill URI`: the Skills extension (SEP-2640) in the terminal.
// `skills` lists what the server offers (name, description, files) and reads no file of any skill;
// `skill URI` loads one — SKILL.md verified against its entry's size, digest and frontmatter —
// and prints it, or with `--out DIR` reads and verifies every file and writes the skill there.
// A refusal prints why (never the refused content) and exits 2; nothing refused is written.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { McpClient } from '../../client/client';
import type { RequestOptions } from '../../protocol/connection';
import { formatBytes } from '../../protocol/text';
import { getSkill, listSkills } from '../../skills/catalog';
import { SkillLoader } from '../../skills/loader';
import { SkillEntry, skillsOffer } from '../../skills/wire';
import { UsageError } from '../arguments';

interface SkillsIo {
  readonly print: (text: string) => void;
  readonly warn: (text: string) => void;
  readonly printJson: (value: unknown) => void;
}

/** The verbs' output on the CLI's: text lines on stdout, warnings as `mcp-host:` lines on stderr. */
export function skillsIo(io: { stdout: (text: string) => void; stderr: (text: string) => void }, printJson: (value: unknown) => void): SkillsIo {
  return { print: (text) => io.stdout(text.endsWith('\n') ? text : text + '\n'), warn: (text) => io.stderr(`mcp-host: ${text}\n`), printJson };
}

function requireOffer(client: McpClient): void {
  if (!skillsOffer(client)) throw new UsageError(`${client.serverInfo?.name ?? 'the server'} does not offer skills (it declares no io.modelcontextprotocol/skills extension)`);
}

/** One skill for people: name, description, where it is, how many files. */
function describeEntry(entry: SkillEntry): string {
  const files = entry.resources;
  const size = files?.every((f) => f.size !== undefined) ? `, ${formatBytes(files.reduce((n, f) => n + (f.size ?? 0), 0))}` : '';
  const count = files ? `${files.length} file${files.length === 1 ? '' : 's'}${size}` : 'files not listed';
  return `${entry.frontmatter.name}  ${entry.uri}  (${count})\n    ${entry.frontmatter.description.replace(/\s+/g, ' ')}`;
}

/** `mcp-host skills`: every page of `skills/list`; malformed entries named on stderr. */
export async function listSkillsCommand(client: McpClient, json: boolean, io: SkillsIo, req: RequestOptions): Promise<void> {
  requireOffer(client);
  const listing = await listSkills(client, req);
  for (const item of listing.skipped) io.warn(`skipped a malformed skill: ${item.problem}${item.name ? ` (${item.name})` : ''}`);
  if (json) io.printJson({ skills: listing.skills, ...(listing.cacheHint.ttlMs !== undefined ? { cacheHint: listing.cacheHint } : {}) });
  else io.print(listing.skills.length ? listing.skills.map(describeEntry).join('\n') : 'The server lists no skills (a server may also serve skills it does not list: mcp-host skill URI).');
}

/** The entry for `uri`: from the listing when it is there, else from `skills/get` (a skill need not be listed). */
async function entryFor(client: McpClient, uri: string, req: RequestOptions): Promise<SkillEntry> {
  const listed = (await listSkills(client, req)).skills.find((s) => s.uri === uri);
  return listed ?? getSkill(client, uri, req);
}

/**
 * `mcp-host skill URI [--out DIR]`: loads and verifies the skill; prints SKILL.md and its file
 * list, or writes every verified file under DIR (which must not hold the skill's files already).
 */
export async function loadSkillCommand(client: McpClient, uri: string, out: string | undefined, json: boolean, io: SkillsIo, req: RequestOptions): Promise<void> {
  requireOffer(client);
  if (!/\/SKILL\.md$/.test(uri)) throw new UsageError(`skill needs the URI of a skill's SKILL.md, such as skill://pdf-processing/SKILL.md (got ${JSON.stringify(uri)})`);
  const entry = await entryFor(client, uri, req);
  const loader = new SkillLoader(client);
  if (out === undefined) {
    const skill = await loader.load(entry, req);
    if (json) io.printJson({ skill: entry, text: skill.text, verified: true });
    else io.print(`${skill.text.replace(/\n?$/, '\n')}\n-- ${entry.frontmatter.name}: SKILL.md verified (size, digest, frontmatter); its files:\n${filesOf(entry)}`);
    return;
  }
  const root = resolve(out);
  const { files } = await loader.readAll(entry, req);
  for (const file of files) {
    const target = resolve(root, ...file.path.split('/'));
    // Paths were checked against the skill's root (entryProblem); this keeps a write inside DIR whatever they hold.
    if (relative(root, target).startsWith('..') || relative(root, target).includes(`..${sep}`)) throw new UsageError(`${file.file.uri}: its path leaves ${root}; nothing more written`);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.bytes, { flag: 'wx' });
  }
  if (json) io.printJson({ skill: entry, out: root, files: files.map((f) => ({ path: f.path, bytes: f.bytes.byteLength, digest: f.file.digest })) });
  else io.print(`${entry.frontmatter.name}: ${files.length} file${files.length === 1 ? '' : 's'} verified and written to ${join(root)}`);
}

function filesOf(entry: SkillEntry): string {
  return (entry.resources ?? []).map((f) => `   ${f.uri}${f.size === undefined ? '' : `  ${formatBytes(f.size)}`}`).join('\n');
}
