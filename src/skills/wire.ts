// The Skills extension's wire (`io.modelcontextprotocol/skills`, SEP-2640): how a server declares
// it, the shape of a skill entry (`skills/list`, `skills/get`), of `resources/directory/read`, and
// the limits a host holds every skill to. Entries are checked one by one, like every list's items,
// so one malformed skill never hides the others. No `vscode` here: the CLI and the editor share it.
import type { McpClient } from '../client/client';
import type * as z from '../protocol/zod';
import { onDemand } from '../protocol/zodOnDemand';

/** The extension's identifier, a key of `capabilities.extensions` on both sides. */
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';

/** At most this many files in one skill (SKILL.md included), as the extension bounds it. */
export const MAX_SKILL_FILES = 512;
/** At most this many bytes in one skill, all its files together (16 MiB). */
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;

/** `sha256:` and 64 lowercase hex digits: the only digest form the extension defines. */
export const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** The wire's shapes, built on first use (zodOnDemand.ts). */
export const skillSchemas = onDemand((z) => {
  const file = z.looseObject({
    uri: z.string(),
    digest: z.string().check(z.regex(DIGEST_PATTERN, 'must be sha256: and 64 lowercase hex digits')),
    size: z.optional(z.int().check(z.gte(0))),
  });
  const frontmatter = z.looseObject({ name: z.string().check(z.minLength(1)), description: z.string() });
  return {
    file,
    /** One skill as a listing or `skills/get` gives it: its SKILL.md, its verbatim frontmatter, its files. */
    entry: z.looseObject({
      uri: z.string(),
      frontmatter,
      /** Every file of the skill with its digest; absent only for a skill generated on demand (not loadable here). */
      resources: z.optional(z.array(file)),
    }),
    /** A `skills/list` page: the entries are checked one by one after it (see catalog.ts). */
    listPage: z.looseObject({ skills: z.array(z.unknown()), nextCursor: z.optional(z.string()) }),
    getResult: z.looseObject({ skill: z.unknown() }),
    /** A page of `resources/directory/read`: the direct children of a directory resource. */
    directoryPage: z.looseObject({
      resources: z.array(z.looseObject({ uri: z.string(), name: z.optional(z.string()), mimeType: z.optional(z.string()) })),
      nextCursor: z.optional(z.string()),
    }),
  };
});
type SkillSchemas = ReturnType<typeof skillSchemas>;
export type SkillEntry = z.infer<SkillSchemas['entry']>;
export type SkillFile = z.infer<SkillSchemas['file']>;

/** The mimeType of a directory resource. */
export const DIRECTORY_MIME_TYPE = 'inode/directory';

/** What the extension's server declaration offers beyond `skills/list` and `skills/get`. */
export interface SkillsOffer {
  /** The server answers `resources/directory/read`. */
  readonly directoryRead: boolean;
}

/** The server's declaration of the extension, or undefined when it does not offer it. */
export function skillsOffer(client: Pick<McpClient, 'serverCapabilities'>): SkillsOffer | undefined {
  const extensions = (client.serverCapabilities as Record<string, unknown> | undefined)?.extensions;
  if (typeof extensions !== 'object' || extensions === null) return undefined;
  const settings = (extensions as Record<string, unknown>)[SKILLS_EXTENSION_ID];
  if (typeof settings !== 'object' || settings === null) return undefined;
  return { directoryRead: (settings as Record<string, unknown>).directoryRead === true };
}

/**
 * The client's declaration of the extension, `{ extensions: { "io.modelcontextprotocol/skills": {} } }`,
 * merged into `capabilities` (whose own extensions, such as MCP Apps', are kept): the client then
 * declares it in `initialize` (2025-11-25) and in every modern request's `_meta` (2026-07-28).
 */
export function withSkillsCapability(capabilities: Record<string, unknown> = {}): Record<string, unknown> {
  const extensions = typeof capabilities.extensions === 'object' && capabilities.extensions !== null ? (capabilities.extensions as Record<string, unknown>) : {};
  return { ...capabilities, extensions: { ...extensions, [SKILLS_EXTENSION_ID]: {} } };
}

/** The skill's root: the entry's URI without its final `/SKILL.md`. */
export function skillRoot(skillUri: string): string {
  return skillUri.replace(/\/SKILL\.md$/, '');
}

/** The path of `fileUri` under the skill's root (`references/FORMS.md`), or undefined when it is not under it. */
export function pathInSkill(skillUri: string, fileUri: string): string | undefined {
  const root = skillRoot(skillUri) + '/';
  return fileUri.startsWith(root) && fileUri.length > root.length ? fileUri.slice(root.length) : undefined;
}

/**
 * A relative reference in a skill's SKILL.md (`references/GUIDE.md`, `./a/../b.md`) resolved
 * against the skill's root, as a file system path resolves; undefined when it leaves the skill or
 * is not relative (an absolute URI, a fragment, a `/`-rooted path).
 */
export function resolveSkillReference(skillUri: string, reference: string): string | undefined {
  const ref = reference.split('#')[0].split('?')[0];
  if (ref === '' || ref.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(ref)) return undefined;
  const parts: string[] = [];
  for (const segment of ref.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.length ? `${skillRoot(skillUri)}/${parts.join('/')}` : undefined;
}
