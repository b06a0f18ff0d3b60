// From a server's `icons` to an image safe to draw: the candidate for the theme (iconChoice.ts),
// its source judged (iconSource.ts), fetched when it is https (iconFetch.ts), its bytes read as an
// image whose magic bytes match what it claims and whose pixel size is capped (imageHeader.ts).
// The output is a `data:` URI of those bytes plus a file of them (a tree row needs a file), or
// nothing. Results, refusals included, are kept in memory by the source's hash, so a hostile icon
// is judged once and never asked for twice; accepted images are also kept on disk (IconDiskCache).
// Callers pass only icons of a server the user allowed to run and that has started: this module
// cannot tell, so the promise is the caller's (ServerIcons in the VS Code layer checks it).
import { createHash } from 'node:crypto';
import { type Icon, type ThemeKind, iconCandidates } from './iconChoice';
import { type IconFetchOptions, fetchIcon } from './iconFetch';
import { type IconOrigins, classifyIconSource } from './iconSource';
import { type IconImageType, bareMimeType, readImageHeader } from './imageHeader';
import type { IconDiskCache } from './iconDiskCache';

/** An icon that may be drawn. */
export interface ShownIcon {
  readonly type: IconImageType;
  /** `data:<type>;base64,…` of the checked bytes. */
  readonly dataUri: string;
  /** The same bytes in the disk cache, when there is one. */
  readonly file?: string;
}

export type IconOutcome = { readonly kind: 'shown'; readonly icon: ShownIcon } | { readonly kind: 'refused'; readonly reason: string };

/** The key an icon's outcome is kept under: the hash of its source (a URL or a whole data: URI). */
export function iconKey(src: string): string {
  return createHash('sha256').update(src).digest('hex');
}

/** Bytes that claim to be `declared` (a data: URI's type, a Content-Type, the icon's mimeType) checked as an image. */
export function checkIconBytes(bytes: Buffer, declared: readonly string[]): { kind: 'image'; type: IconImageType } | { kind: 'refused'; reason: string } {
  const header = readImageHeader(bytes);
  if (header.kind === 'refused') return header;
  const claims = declared.map(bareMimeType).filter((t) => t !== '' && t !== 'application/octet-stream');
  const wrong = claims.find((t) => t !== header.type);
  if (wrong) return { kind: 'refused', reason: `it claims to be ${wrong} but its bytes are ${header.type}` };
  return { kind: 'image', type: header.type };
}

export interface IconResolverOptions {
  readonly disk?: IconDiskCache;
  readonly fetch?: IconFetchOptions;
  /** Reports each refusal once (the server's log). */
  readonly onRefused?: (src: string, reason: string) => void;
}

export class IconResolver {
  private readonly outcomes = new Map<string, IconOutcome>();
  private readonly pending = new Map<string, Promise<IconOutcome>>();

  constructor(private readonly options: IconResolverOptions = {}) {}

  /** The icon already known for `icons` under `theme`, without starting anything; undefined when not yet judged. */
  peek(icons: readonly Icon[], theme: ThemeKind): ShownIcon | null | undefined {
    for (const icon of iconCandidates(icons, theme)) {
      const outcome = this.outcomes.get(iconKey(icon.src));
      if (!outcome) return undefined;
      if (outcome.kind === 'shown') return outcome.icon;
    }
    return null;
  }

  /** The first candidate for `theme` that passes every check, or undefined. */
  async resolve(icons: readonly Icon[], theme: ThemeKind, origins: IconOrigins): Promise<ShownIcon | undefined> {
    for (const icon of iconCandidates(icons, theme)) {
      const outcome = await this.outcome(icon, origins);
      if (outcome.kind === 'shown') return outcome.icon;
    }
    return undefined;
  }

  private outcome(icon: Icon, origins: IconOrigins): Promise<IconOutcome> {
    const key = iconKey(icon.src);
    const known = this.outcomes.get(key);
    if (known) return Promise.resolve(known);
    let running = this.pending.get(key);
    if (!running) {
      running = this.judge(icon, key, origins).then((outcome) => {
        this.outcomes.set(key, outcome);
        this.pending.delete(key);
        if (outcome.kind === 'refused') this.options.onRefused?.(icon.src, outcome.reason);
        return outcome;
      });
      this.pending.set(key, running);
    }
    return running;
  }

  private async judge(icon: Icon, key: string, origins: IconOrigins): Promise<IconOutcome> {
    const source = classifyIconSource(icon.src, origins, this.options.fetch?.testOnlyAllowance);
    if (source.kind === 'refused') return source;
    const cached = source.kind === 'https' ? await this.options.disk?.read(key) : undefined;
    let bytes: Buffer;
    let declared: string[];
    if (cached) {
      bytes = cached;
      declared = [];
    } else if (source.kind === 'data') {
      bytes = source.bytes;
      declared = [source.type, icon.mimeType ?? ''];
    } else {
      const fetched = await fetchIcon(source.url, this.options.fetch);
      if (fetched.kind === 'refused') return fetched;
      bytes = fetched.bytes;
      declared = [fetched.contentType, icon.mimeType ?? ''];
    }
    const checked = checkIconBytes(bytes, declared);
    if (checked.kind === 'refused') return checked;
    const file = await this.options.disk?.write(key, checked.type, bytes);
    return { kind: 'shown', icon: { type: checked.type, dataUri: `data:${checked.type};base64,${bytes.toString('base64')}`, ...(file ? { file } : {}) } };
  }
}
