// Loading a skill the user (or the model, with the user's approval) selected: its SKILL.md read,
// verified against the entry (size, digest, then frontmatter field by field), and its other files
// read only when asked for, each verified the same way and only if the entry lists it. Verified
// bytes are kept per digest, so a file read twice — by the tree, the editor, the model — is
// fetched once. Nothing is read ahead: not on connection, listing or approval.
import type { McpClient } from '../client/client';
import type { RequestOptions } from '../protocol/connection';
import { MAX_SKILL_BYTES, SkillEntry, SkillFile, pathInSkill } from './wire';
import { SkillVerificationError, contentBytes, entryProblem, listedFile, verifyFile, verifyFrontmatter } from './verification';

/** The verified bytes of files by digest: a digest match is the same bytes, whichever skill or server lists them. */
export class VerifiedFileCache {
  private readonly byDigest = new Map<string, Uint8Array>();
  private bytes = 0;

  /** `maxBytes`: beyond it, the oldest entries are dropped (a skill is at most 16 MiB). */
  constructor(private readonly maxBytes = 4 * MAX_SKILL_BYTES) {}

  get(digest: string): Uint8Array | undefined {
    const hit = this.byDigest.get(digest);
    if (hit) {
      // Most recently used last, so eviction takes the oldest.
      this.byDigest.delete(digest);
      this.byDigest.set(digest, hit);
    }
    return hit;
  }

  /** Keeps bytes that were verified against `digest` (only those: callers verify first). */
  set(digest: string, bytes: Uint8Array): void {
    if (this.byDigest.has(digest) || bytes.byteLength > this.maxBytes) return;
    this.byDigest.set(digest, bytes);
    this.bytes += bytes.byteLength;
    for (const [key, value] of this.byDigest) {
      if (this.bytes <= this.maxBytes) break;
      this.byDigest.delete(key);
      this.bytes -= value.byteLength;
    }
  }
}

/** A file of a skill, verified. */
export interface VerifiedFile {
  readonly file: SkillFile;
  /** Its path under the skill's root (`SKILL.md`, `references/FORMS.md`). */
  readonly path: string;
  readonly bytes: Uint8Array;
  /** True when the bytes came from the per-digest cache, not from the server. */
  readonly cached: boolean;
}

/** A loaded skill: its entry and its verified SKILL.md; the other files are read on demand. */
export interface LoadedSkill {
  readonly entry: SkillEntry;
  readonly skillMd: VerifiedFile;
  /** SKILL.md as text. */
  readonly text: string;
}

type ResourceReader = Pick<McpClient, 'readResource'>;

/** Reads and verifies the files of skills of one server. */
export class SkillLoader {
  constructor(
    private readonly client: ResourceReader,
    private readonly cache = new VerifiedFileCache(),
  ) {}

  /**
   * Loads the skill of `entry`: checks the entry (its files, the limits), reads SKILL.md, verifies
   * its size and digest, then its frontmatter against the entry's. Throws SkillVerificationError
   * (nothing of the content in it) when any check fails.
   */
  async load(entry: SkillEntry, options: RequestOptions = {}): Promise<LoadedSkill> {
    const problem = entryProblem(entry);
    if (problem) throw problem;
    const skillMd = await this.readFile(entry, entry.uri, options);
    const text = new TextDecoder('utf-8', { fatal: false }).decode(skillMd.bytes);
    verifyFrontmatter(entry, text);
    return { entry, skillMd, text };
  }

  /** Reads one listed file of the skill, verified (from the cache when its digest was verified before). */
  async readFile(entry: SkillEntry, uri: string, options: RequestOptions = {}): Promise<VerifiedFile> {
    const file = listedFile(entry, uri);
    const path = uri === entry.uri ? 'SKILL.md' : (pathInSkill(entry.uri, uri) ?? uri);
    const hit = this.cache.get(file.digest);
    if (hit) return { file, path, bytes: hit, cached: true };
    // Unverified until verifyFile: traces and logs get its size and digest, never its content.
    const bytes = contentBytes(await this.client.readResource(uri, { ...options, holdAnswerFromFrames: true }), uri);
    verifyFile(file, bytes);
    this.cache.set(file.digest, bytes);
    return { file, path, bytes, cached: false };
  }

  /**
   * Every file of the skill, SKILL.md first, each verified, for a copy on disk (`mcp-host skill
   * --out`): stops at the first refusal, and when the bytes read pass the 16 MiB a skill may have.
   */
  async readAll(entry: SkillEntry, options: RequestOptions = {}): Promise<{ skill: LoadedSkill; files: VerifiedFile[] }> {
    const skill = await this.load(entry, options);
    const files: VerifiedFile[] = [skill.skillMd];
    let total = skill.skillMd.bytes.byteLength;
    for (const file of entry.resources ?? []) {
      if (file.uri === entry.uri) continue;
      const read = await this.readFile(entry, file.uri, options);
      total += read.bytes.byteLength;
      if (total > MAX_SKILL_BYTES) throw new SkillVerificationError('limits', entry.uri, `skill ${entry.uri}: its files come to more than the 16 MiB a skill may have; refused`);
      files.push(read);
    }
    return { skill, files };
  }
}
