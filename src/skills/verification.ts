// How a host checks what a server says a skill is against what it serves (SEP-2640, "Integrity
// and verification"): each file read against its entry's `size` and `digest`, SKILL.md's YAML
// frontmatter field by field against the entry's, the entry against the extension's limits. A
// failure is a SkillVerificationError whose message names the file and what differed, never the
// content: unverified bytes go nowhere, not into an error, a log or a model's input.
import { createHash } from 'node:crypto';
import { formatBytes } from '../protocol/text';
import type { ReadResourceResult } from '../client/schemas';
import { MAX_SKILL_BYTES, MAX_SKILL_FILES, SkillEntry, SkillFile, pathInSkill } from './wire';

/** Why a skill (or one of its files) was refused. */
export type SkillRefusalKind = 'entry' | 'limits' | 'unlisted' | 'size' | 'digest' | 'frontmatter' | 'content';

/** A skill or file that failed verification: nothing of it was used. */
export class SkillVerificationError extends Error {
  override readonly name = 'SkillVerificationError';
  constructor(
    readonly kind: SkillRefusalKind,
    /** The file (or skill) the refusal is about. */
    readonly uri: string,
    message: string,
  ) {
    super(message);
  }
  static is(error: unknown, kind?: SkillRefusalKind): error is SkillVerificationError {
    return error instanceof SkillVerificationError && (kind === undefined || error.kind === kind);
  }
}

/** `sha256:<hex>` of `bytes`, the extension's digest form. */
export function sha256Digest(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/**
 * What is wrong with an entry before anything of it is read: its URI, its name, its file list
 * (complete, within the skill, each once), the limits (512 files, 16 MiB by the sizes it gives).
 * Undefined when it may be loaded.
 */
export function entryProblem(entry: SkillEntry): SkillVerificationError | undefined {
  const refuse = (kind: SkillRefusalKind, why: string) => new SkillVerificationError(kind, entry.uri, `skill ${entry.uri}: ${why}`);
  if (!/\/SKILL\.md$/.test(entry.uri)) return refuse('entry', 'its uri does not name a SKILL.md');
  const segments = entry.uri.replace(/\/SKILL\.md$/, '').split('/');
  if (segments[segments.length - 1] !== entry.frontmatter.name) return refuse('entry', `its path ends in ${JSON.stringify(segments[segments.length - 1])}, not in its name ${JSON.stringify(entry.frontmatter.name)}`);
  const files = entry.resources;
  if (!files) return refuse('entry', 'the server lists no files with digests for it (a generated skill), so it cannot be verified; MCP Host does not load unverifiable skills');
  if (files.length > MAX_SKILL_FILES) return refuse('limits', `it has ${files.length} files, more than the ${MAX_SKILL_FILES} a skill may have`);
  const seen = new Set<string>();
  for (const file of files) {
    if (seen.has(file.uri)) return refuse('entry', `it lists ${file.uri} twice`);
    seen.add(file.uri);
    const path = file.uri === entry.uri ? 'SKILL.md' : pathInSkill(entry.uri, file.uri);
    if (path === undefined || path.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) return refuse('entry', `it lists ${file.uri}, which is outside the skill`);
  }
  if (!seen.has(entry.uri)) return refuse('entry', 'its file list does not include its SKILL.md');
  const declared = files.reduce((sum, f) => sum + (f.size ?? 0), 0);
  if (declared > MAX_SKILL_BYTES) return refuse('limits', `its files come to ${formatBytes(declared)}, more than the ${formatBytes(MAX_SKILL_BYTES)} a skill may have`);
  return undefined;
}

/** The listed file for `uri`, or a refusal: a file not in the entry's list is a change to the skill. */
export function listedFile(entry: SkillEntry, uri: string): SkillFile {
  const file = entry.resources?.find((f) => f.uri === uri);
  if (!file) throw new SkillVerificationError('unlisted', uri, `${uri} is not one of the files the server lists for skill ${entry.frontmatter.name}; refused (an unlisted file counts as a changed skill)`);
  return file;
}

/** The bytes of a `resources/read` result for `uri`: its text as UTF-8, or its blob decoded. */
export function contentBytes(result: ReadResourceResult, uri: string): Uint8Array {
  const content = result.contents.find((c) => c.uri === uri) ?? (result.contents.length === 1 ? result.contents[0] : undefined);
  if (!content) throw new SkillVerificationError('content', uri, `${uri}: the server answered with ${result.contents.length} contents and none for this URI`);
  const { text, blob } = content as { text?: unknown; blob?: unknown };
  if (typeof text === 'string') return Buffer.from(text, 'utf8');
  if (typeof blob !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(blob) || blob.length % 4 !== 0) throw new SkillVerificationError('content', uri, `${uri}: the server's contents are neither text nor a base64 blob`);
  return Buffer.from(blob, 'base64');
}

/**
 * Checks bytes read for `file` against its entry: the length first (a wrong size fails whether or
 * not the digest is computed), then the digest. Throws a refusal naming both values.
 */
export function verifyFile(file: SkillFile, bytes: Uint8Array): void {
  if (file.size !== undefined && bytes.byteLength !== file.size) {
    throw new SkillVerificationError('size', file.uri, `${file.uri}: the server sent ${bytes.byteLength} bytes, its listing says ${file.size}; refused (not what the listing promised)`);
  }
  const digest = sha256Digest(bytes);
  if (digest !== file.digest) throw new SkillVerificationError('digest', file.uri, `${file.uri}: its content has digest ${digest}, its listing says ${file.digest}; refused (changed, tampered with, or stale: list the skills again)`);
}

type YamlParser = typeof import('./lazyChunks/yaml');
let yamlParser: YamlParser | undefined;
/** Required on first use, not imported: the YAML parser loads with the first skill read, not at activation. */
function yaml(): YamlParser {
  return (yamlParser ??= require('./lazyChunks/yaml') as YamlParser);
}

/** The YAML frontmatter at the start of a SKILL.md, as a JSON object; throws a refusal when there is none or it does not parse. */
export function parseFrontmatter(uri: string, text: string): Record<string, unknown> {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) throw new SkillVerificationError('frontmatter', uri, `${uri}: it does not begin with YAML frontmatter between --- lines`);
  let parsed: unknown;
  try {
    // The core schema: no dates or other types JSON does not have; aliases bounded.
    parsed = yaml().parse(match[1], { schema: 'core', maxAliasCount: 50, uniqueKeys: true });
  } catch (error) {
    throw new SkillVerificationError('frontmatter', uri, `${uri}: its frontmatter is not valid YAML (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new SkillVerificationError('frontmatter', uri, `${uri}: its frontmatter is not a mapping of fields`);
  return parsed as Record<string, unknown>;
}

/** The fields in which the entry's frontmatter and the file's differ (present in one only, or with other values). */
export function frontmatterDifferences(listed: Record<string, unknown>, file: Record<string, unknown>): string[] {
  const fields = [...new Set([...Object.keys(listed), ...Object.keys(file)])];
  return fields.filter((field) => !(field in listed) || !(field in file) || !sameJson(listed[field], file[field]));
}

/** Checks a verified SKILL.md's frontmatter against the entry's, field by field; throws a refusal naming the fields that differ. */
export function verifyFrontmatter(entry: SkillEntry, text: string): void {
  const differences = frontmatterDifferences(entry.frontmatter, parseFrontmatter(entry.uri, text));
  if (differences.length) {
    throw new SkillVerificationError('frontmatter', entry.uri, `${entry.uri}: its frontmatter differs from the listing in ${differences.map((f) => JSON.stringify(f)).join(', ')}; refused (what you approve from the listing must be what is loaded)`);
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => sameJson(x, (b as unknown[])[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
