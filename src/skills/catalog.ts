// The Skills extension's requests: `skills/list` (every page, bounded like every list by the
// client's maxPages, each entry checked on its own), `skills/get` (one entry by its SKILL.md URI)
// and `resources/directory/read` (a directory's children, only where the server declares
// `directoryRead`). None is sent to a server that does not declare the extension. Listing reads
// no file of any skill: files are read only when a skill is loaded (loader.ts).
import { McpClient, cacheHintOf, shorterHint } from '../client/client';
import type { CacheHint, Resource, SkippedListItem } from '../client/schemas';
import type { RequestOptions } from '../protocol/connection';
import { McpLocalError } from '../protocol/errors';
import { formatZodIssues } from '../protocol/messages';
import { SkillEntry, skillSchemas, skillsOffer } from './wire';

/** The skills a server lists, as far as they are well formed. */
export interface SkillListing {
  readonly skills: readonly SkillEntry[];
  /** Entries left out as malformed (named with their problem), the rest kept. */
  readonly skipped: readonly SkippedListItem[];
  /** How long the listing may be reused (2026-07-28 `ttlMs`/`cacheScope`; the shortest of its pages; `{}`: stale at once). */
  readonly cacheHint: CacheHint;
}

type SkillsClient = Pick<McpClient, 'serverCapabilities' | 'serverInfo' | 'methodRequest' | 'maxPages'>;

function requireSkills(client: SkillsClient, method: string): void {
  if (!skillsOffer(client)) {
    throw new McpLocalError('capability', `${method}: ${client.serverInfo?.name ?? 'the server'} does not offer the Skills extension (io.modelcontextprotocol/skills), so the request was not sent`, { capability: 'extensions.io.modelcontextprotocol/skills' });
  }
}

/** One entry, checked: the entry, or why it is malformed. */
function checkEntry(raw: unknown, path: string): { entry: SkillEntry } | { problem: string } {
  const parsed = skillSchemas().entry.safeParse(raw);
  return parsed.success ? { entry: parsed.data } : { problem: formatZodIssues(parsed.error, path, raw) };
}

/** `skills/list`, every page: follows `nextCursor` at most `client.maxPages` times and never the same cursor twice. */
export async function listSkills(client: SkillsClient, options: RequestOptions = {}): Promise<SkillListing> {
  requireSkills(client, 'skills/list');
  const skills: SkillEntry[] = [];
  const skipped: SkippedListItem[] = [];
  const seen = new Set<string>();
  let cacheHint: CacheHint = {};
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    if (page >= client.maxPages) throw new McpLocalError('invalid-result', `skills/list: stopped after ${client.maxPages} pages; the server keeps returning nextCursor`, { items: skills.length });
    const result = await client.methodRequest('skills/list', cursor === undefined ? {} : { cursor }, skillSchemas().listPage, options);
    cacheHint = page === 0 ? cacheHintOf(result) : shorterHint(cacheHint, cacheHintOf(result));
    for (const raw of result.skills) {
      const index = skills.length + skipped.length;
      const checked = checkEntry(raw, `skills[${index}]`);
      if ('entry' in checked) skills.push(checked.entry);
      else skipped.push({ index, ...(typeof (raw as { uri?: unknown })?.uri === 'string' ? { name: (raw as { uri: string }).uri.slice(0, 200) } : {}), problem: checked.problem });
    }
    cursor = result.nextCursor;
    if (cursor === undefined) return { skills, skipped, cacheHint };
    if (seen.has(cursor)) throw new McpLocalError('invalid-result', `skills/list: the server returned nextCursor ${JSON.stringify(cursor)} twice; stopped to avoid a loop`, { items: skills.length });
    seen.add(cursor);
  }
}

/** `skills/get`: the server's current entry for the skill whose SKILL.md is `uri` (an unknown URI is the server's -32602). */
export async function getSkill(client: SkillsClient, uri: string, options: RequestOptions = {}): Promise<SkillEntry> {
  requireSkills(client, 'skills/get');
  const result = await client.methodRequest('skills/get', { uri }, skillSchemas().getResult, options);
  const checked = checkEntry(result.skill, 'skill');
  if ('problem' in checked) throw new McpLocalError('invalid-result', `skills/get ${uri}: ${checked.problem}`);
  if (checked.entry.uri !== uri) throw new McpLocalError('invalid-result', `skills/get ${uri}: the server answered with the entry of ${checked.entry.uri}`);
  return checked.entry;
}

/** `resources/directory/read`, every page: the direct children of the directory `uri` (files, and subdirectories as `inode/directory`). */
export async function readDirectory(client: SkillsClient, uri: string, options: RequestOptions = {}): Promise<Resource[]> {
  requireSkills(client, 'resources/directory/read');
  if (!skillsOffer(client)?.directoryRead) throw new McpLocalError('capability', `resources/directory/read: ${client.serverInfo?.name ?? 'the server'} does not declare directoryRead, so the request was not sent`, { capability: 'directoryRead' });
  const children: Resource[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < client.maxPages; page++) {
    const result = await client.methodRequest('resources/directory/read', cursor === undefined ? { uri } : { uri, cursor }, skillSchemas().directoryPage, options);
    children.push(...result.resources.map((r) => ({ ...r, name: r.name ?? r.uri.slice(r.uri.lastIndexOf('/') + 1) }) as Resource));
    cursor = result.nextCursor;
    if (cursor === undefined) return children;
    if (seen.has(cursor)) break;
    seen.add(cursor);
  }
  throw new McpLocalError('invalid-result', `resources/directory/read ${uri}: stopped; the server keeps returning nextCursor`, { items: children.length });
}
