// The Content-Security-Policy of an MCP App's view, and what the webview page around it must allow.
//
// The view runs in a sandboxed iframe (`allow-scripts`, no `allow-same-origin`: an opaque origin)
// whose document is the app's HTML given as `srcdoc`. A srcdoc document inherits the CSP of the
// page that holds it, so two policies apply to the app at once: the page's own (strict: nonce
// scripts) and the one built here from the resource's `_meta.ui.csp` (injected as the document's
// first element). Both must allow a thing for the app to do it. So the page adds exactly what the
// app may do and nothing else: the SHA-256 of each of the app's inline scripts (and event-handler
// attributes), its declared domains per directive, inline styles. Whatever this file fails to
// find in the app's HTML stays blocked: every mistake here fails closed.
import { createHash } from 'node:crypto';

/** The domains an app declares (`_meta.ui.csp`), each already checked to be a plain origin. */
export interface AppCsp {
  /** fetch/XHR/WebSocket (`connect-src`). */
  readonly connectDomains: readonly string[];
  /** Scripts, styles, images, fonts, media. */
  readonly resourceDomains: readonly string[];
  /** Nested iframes (`frame-src`). */
  readonly frameDomains: readonly string[];
  /** `<base href>` (`base-uri`). */
  readonly baseUriDomains: readonly string[];
}

export const NO_DOMAINS: AppCsp = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };

const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const MAX_DOMAINS = 32;

/**
 * A CSP source an app may name: `https://host[:port][/path]` or `wss://…`, a leading `*.` on the
 * host allowed; `http:`/`ws:` only for loopback hosts. No keywords ('unsafe-eval', 'self'), no
 * bare `*`, no schemes alone (`data:`, `blob:`), nothing that could end the directive.
 */
const SOURCE = /^(https|wss|http|ws):\/\/(\*\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)*)(:\d{1,5})?(\/[A-Za-z0-9._~\-/]*)?$/;
const LOOPBACK = new Set(['localhost', '127.0.0.1']);

/** Why a declared source is refused, or undefined when it is a source we pass on. */
export function refuseSource(source: string): string | undefined {
  if (source.length > 300) return 'longer than 300 characters';
  const m = SOURCE.exec(source);
  if (!m) return 'not an http(s) or ws(s) origin';
  const [, scheme, wildcard, host] = m;
  if ((scheme === 'http' || scheme === 'ws') && (wildcard || !LOOPBACK.has(host))) return `${scheme}: only for localhost`;
  if (!host.includes('.') && !LOOPBACK.has(host)) return 'not a domain name';
  return undefined;
}

/**
 * Reads `_meta.ui.csp` (as the server sent it) into an AppCsp: every source checked with
 * `refuseSource`, the refused ones listed (for the log) and left out.
 */
export function readAppCsp(raw: unknown): { readonly csp: AppCsp; readonly refused: readonly string[] } {
  if (raw === undefined || raw === null) return { csp: NO_DOMAINS, refused: [] };
  if (typeof raw !== 'object' || Array.isArray(raw)) return { csp: NO_DOMAINS, refused: ['csp: not an object'] };
  const refused: string[] = [];
  const out: Record<(typeof CSP_KEYS)[number], string[]> = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };
  for (const key of CSP_KEYS) {
    const list = (raw as Record<string, unknown>)[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      refused.push(`${key}: not a list`);
      continue;
    }
    for (const item of list.slice(0, MAX_DOMAINS)) {
      const why = typeof item === 'string' ? refuseSource(item) : 'not a string';
      if (why) refused.push(`${key}: ${JSON.stringify(item).slice(0, 120)} (${why})`);
      else if (!out[key].includes(item as string)) out[key].push(item as string);
    }
    if (list.length > MAX_DOMAINS) refused.push(`${key}: only the first ${MAX_DOMAINS} entries are used`);
  }
  return { csp: out, refused };
}

const list = (sources: readonly string[], fallback: string): string => (sources.length ? sources.join(' ') : fallback);

/**
 * The policy injected into the app's document: the specification's restrictive default, widened
 * only by the declared domains. `form-action` and `object-src` are closed as well.
 */
export function appContentSecurityPolicy(csp: AppCsp): string {
  const res = csp.resourceDomains.join(' ');
  const withRes = (base: string) => (res ? `${base} ${res}` : base);
  return [
    "default-src 'none'",
    withRes("script-src 'self' 'unsafe-inline'"),
    withRes("style-src 'self' 'unsafe-inline'"),
    withRes("img-src 'self' data:"),
    withRes("font-src 'self'"),
    withRes("media-src 'self' data:"),
    `connect-src ${list(csp.connectDomains, "'none'")}`,
    `frame-src ${list(csp.frameDomains, "'none'")}`,
    "object-src 'none'",
    `base-uri ${list(csp.baseUriDomains, "'self'")}`,
    "form-action 'none'",
  ].join('; ');
}

/** Line endings as the HTML parser reads them: a script's hash is taken over what the browser sees. */
function normalizeNewlines(html: string): string {
  return html.replace(/\r\n?/g, '\n');
}

/**
 * The app's HTML with its policy as the document's very first element (after the doctype, so
 * nothing in the app can run before it applies). Line endings normalised as the parser would.
 */
export function injectAppCsp(html: string, policy: string): string {
  const text = normalizeNewlines(html).replace(/^\uFEFF/, '');
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/"/g, '&quot;')}">`;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(text);
  return doctype ? `${doctype[0]}${meta}${text.slice(doctype[0].length)}` : `${meta}${text}`;
}

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', nbsp: '\u00a0' };
/** Character references in an attribute value, decoded as the parser would for the common ones. */
function decodeAttribute(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

/** The inline code of an app's HTML: each inline `<script>`'s text and each `on…` attribute's value. */
export function inlineCode(html: string): { readonly scripts: readonly string[]; readonly handlers: readonly string[] } {
  const text = normalizeNewlines(html);
  const scripts: string[] = [];
  for (const m of text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\bsrc\s*=/i.test(m[1])) continue;
    scripts.push(m[2]);
  }
  const handlers: string[] = [];
  for (const tag of text.matchAll(/<[a-z][^\s/>]*(\s[^>]*)>/gi)) {
    for (const a of tag[1].matchAll(/\son[a-z]+\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/gi)) {
      handlers.push(decodeAttribute(a[1] ?? a[2] ?? a[3] ?? ''));
    }
  }
  return { scripts, handlers };
}

/** Directive → the sources a page must add to its own policy to hold an app's view. */
export type PageCspAdditions = Readonly<Record<string, readonly string[]>>;

/**
 * What the webview page around the view adds to its strict policy (see the file comment): the
 * hashes of the app's inline code, its resource, connect, frame and base domains, inline styles.
 * The page's own scripts still need its nonce; nothing here lets other script run in the page.
 */
export function pageCspAdditions(html: string, csp: AppCsp): PageCspAdditions {
  const code = inlineCode(html);
  const hashes = [...new Set([...code.scripts, ...code.handlers].map(sha256))];
  return {
    'script-src': [...(code.handlers.length ? ["'unsafe-hashes'"] : []), ...hashes, ...csp.resourceDomains],
    'style-src': ["'unsafe-inline'", ...csp.resourceDomains],
    'img-src': csp.resourceDomains,
    'font-src': csp.resourceDomains,
    'media-src': csp.resourceDomains,
    'connect-src': csp.connectDomains,
    'frame-src': csp.frameDomains,
    'base-uri': csp.baseUriDomains,
  };
}

/**
 * A policy (`directive source…; …`) with `additions` merged in: sources appended to the directive,
 * a directive that was `'none'` replaced, a missing one added (only when it gains sources).
 */
export function mergeCsp(policy: string, additions: PageCspAdditions | undefined): string {
  if (!additions) return policy;
  const directives = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name, sources);
  }
  for (const [name, extra] of Object.entries(additions)) {
    if (extra.length === 0) continue;
    const current = (directives.get(name) ?? []).filter((s) => s !== "'none'");
    directives.set(name, [...current, ...extra.filter((s) => !current.includes(s))]);
  }
  return [...directives].map(([name, sources]) => [name, ...sources].join(' ')).join('; ');
}
