// The skills of the running servers, for the editor (the Skills group of the tree, the read-only
// `mcp-skill:` documents, @mcp): each server's listing, reused while its `ttlMs` says it is fresh
// (no hint: listed again each time it is asked for), and one SkillLoader per server over one
// per-digest cache of verified files. Listing reads no file; only a load does.
import type { McpClient } from '../client/client';
import type { RequestOptions } from '../protocol/connection';
import { SkillListing, listSkills } from './catalog';
import { LoadedSkill, SkillLoader, VerifiedFile, VerifiedFileCache } from './loader';
import { SkillEntry, skillsOffer } from './wire';

/** A server's client, as the registry holds it (undefined while it is not running). */
export type SkillsClientOf = (serverId: string) => McpClient | undefined;

interface Listed {
  readonly client: McpClient;
  readonly listing: SkillListing;
  readonly at: number;
}

export class ServerSkills {
  private readonly listings = new Map<string, Listed>();
  private readonly loaders = new WeakMap<McpClient, SkillLoader>();
  private readonly cache = new VerifiedFileCache();

  constructor(
    private readonly clientOf: SkillsClientOf,
    private readonly now: () => number = Date.now,
  ) {}

  /** True when the server runs and declares the Skills extension. */
  offers(serverId: string): boolean {
    const client = this.clientOf(serverId);
    return client !== undefined && skillsOffer(client) !== undefined;
  }

  /** The server's listing: the one held while fresh for this connection, else `skills/list` again. */
  async list(serverId: string, options: RequestOptions = {}): Promise<SkillListing> {
    const client = this.clientOf(serverId);
    if (!client) throw new Error(`${serverId} is not running`);
    const held = this.listings.get(serverId);
    if (held && held.client === client && this.now() - held.at < (held.listing.cacheHint.ttlMs ?? 0)) return held.listing;
    const listing = await listSkills(client, options);
    this.listings.set(serverId, { client, listing, at: this.now() });
    return listing;
  }

  /** The entry of `skillUri` in the listing last fetched for the server (what the user saw), if any. */
  entry(serverId: string, skillUri: string): SkillEntry | undefined {
    const held = this.listings.get(serverId);
    return held && held.client === this.clientOf(serverId) ? held.listing.skills.find((s) => s.uri === skillUri) : undefined;
  }

  /** Drops what is held for the server (a refresh, a restart). */
  forget(serverId: string): void {
    this.listings.delete(serverId);
  }

  /** Loads the skill (SKILL.md read and verified) from its server. */
  load(serverId: string, entry: SkillEntry, options?: RequestOptions): Promise<LoadedSkill> {
    return this.loader(serverId).load(entry, options);
  }

  /** One listed file of the skill, verified. */
  readFile(serverId: string, entry: SkillEntry, uri: string, options?: RequestOptions): Promise<VerifiedFile> {
    return this.loader(serverId).readFile(entry, uri, options);
  }

  private loader(serverId: string): SkillLoader {
    const client = this.clientOf(serverId);
    if (!client) throw new Error(`${serverId} is not running`);
    let loader = this.loaders.get(client);
    if (!loader) this.loaders.set(client, (loader = new SkillLoader(client, this.cache)));
    return loader;
  }
}

/**
 * Names for the rows of one listing: the frontmatter name, and where two skills share it, the
 * name with the path that tells them apart (`refunds (acme/billing)`): none is dropped or preferred.
 */
export function skillLabels(skills: readonly SkillEntry[]): string[] {
  const counts = new Map<string, number>();
  for (const s of skills) counts.set(s.frontmatter.name, (counts.get(s.frontmatter.name) ?? 0) + 1);
  return skills.map((s) => {
    if ((counts.get(s.frontmatter.name) ?? 0) < 2) return s.frontmatter.name;
    const prefix = s.uri.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/SKILL\.md$/, '').split('/').slice(0, -1).join('/');
    return `${s.frontmatter.name} (${prefix || s.uri})`;
  });
}

/**
 * Where a skill's file opens in the editor: `mcp-skill:/<server>/<skill>/<path in the skill>`,
 * server id and SKILL.md URI each as one base64url segment, so a Markdown preview resolves the
 * relative links of SKILL.md (`references/FORMS.md`) to the skill's own files.
 */
export const SkillDocumentPath = {
  scheme: 'mcp-skill',
  of(serverId: string, skillUri: string, pathInSkill: string): string {
    return `/${Buffer.from(serverId).toString('base64url')}/${Buffer.from(skillUri).toString('base64url')}/${pathInSkill}`;
  },
  /** The parts of a path; undefined when it is not one this scheme makes. */
  parse(path: string): { readonly serverId: string; readonly skillUri: string; readonly pathInSkill: string } | undefined {
    const match = /^\/([A-Za-z0-9_-]+)\/([A-Za-z0-9_-]+)(?:\/(.*))?$/.exec(path);
    if (!match) return undefined;
    const skillUri = Buffer.from(match[2], 'base64url').toString();
    if (!skillUri.endsWith('/SKILL.md')) return undefined;
    return { serverId: Buffer.from(match[1], 'base64url').toString(), skillUri, pathInSkill: (match[3] ?? '').replace(/\/+$/, '') };
  },
};
