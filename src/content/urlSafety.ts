// What the user should know about a URL before agreeing to open it (URL-mode elicitation and the
// -32042 "URL elicitation required" error). The URL is parsed, never fetched. The result splits
// the URL into segments so the UI can highlight the domain the browser will really go to, and
// lists warnings: not https, punycode (xn--) or look-alike letters in the host, a bare IP address
// (also one written as a number, in octal or hex: 0x7f.1 is 127.0.0.1).
// Blocked outright: schemes other than http and https, and an authority that parsers read
// differently. VS Code's URI decodes escapes in the userinfo (https://evil.example%2F@good.example/
// opens evil.example) and reads a backslash as part of the host where a browser reads a slash, so
// a URL with anything before an "@", a "%", a backslash, a space or an invisible character in its
// authority is refused: the host assessed is the host that opens.
import { domainToUnicode } from 'node:url';

export type UrlWarningKind = 'not-https' | 'punycode' | 'homograph' | 'mixed-script' | 'ip-address' | 'unusual-port';

export interface UrlWarning {
  readonly kind: UrlWarningKind;
  readonly text: string;
}

/** One piece of the URL as shown; `domain` is what to highlight. */
export interface UrlSegment {
  readonly role: 'scheme' | 'subdomain' | 'domain' | 'port' | 'path';
  readonly text: string;
}

export type UrlAssessment =
  | {
      readonly kind: 'openable';
      /** The URL exactly as the server sent it. */
      readonly raw: string;
      /** What is opened, exactly: the parsed, normalised URL (host in punycode). */
      readonly href: string;
      readonly scheme: 'http' | 'https';
      /** The host in ASCII (punycode) form. */
      readonly host: string;
      /** The host as Unicode, when it differs from `host` (an IDN). */
      readonly unicodeHost?: string;
      /** The registrable domain, approximately (last two labels, three under co.uk and the like). */
      readonly domain: string;
      readonly segments: readonly UrlSegment[];
      readonly warnings: readonly UrlWarning[];
    }
  | { readonly kind: 'blocked'; readonly raw: string; readonly reason: string };

/** Second-level labels under which the registrable domain has three labels (a short list, not the PSL). */
const SECOND_LEVEL = new Set(['co', 'com', 'net', 'org', 'gov', 'edu', 'ac', 'or', 'ne', 'go', 'gob', 'nic', 'ltd', 'plc', 'mil']);

/** Cyrillic and Greek letters that look like Latin ones: a host using them imitates another. */
const LOOKALIKES = /[аеорсухіјѕԁһӏԛԝаАВЕКМНОРСТХЅІЈԜαβεικνορτυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ]/u;

const MAX_URL_LENGTH = 8192;

function scriptsOf(label: string): Set<string> {
  const scripts = new Set<string>();
  for (const ch of label) {
    if (/[\p{Script=Latin}]/u.test(ch)) scripts.add('Latin');
    else if (/[\p{Script=Cyrillic}]/u.test(ch)) scripts.add('Cyrillic');
    else if (/[\p{Script=Greek}]/u.test(ch)) scripts.add('Greek');
    else if (/[\p{L}]/u.test(ch)) scripts.add('other');
  }
  return scripts;
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

function isIpHost(host: string): boolean {
  return host.startsWith('[') || IPV4.test(host);
}

/**
 * The authority as written, read the way VS Code's URI reads it (up to the first / ? or #: a
 * browser stops earlier, at a backslash, so this is the longer of the two readings); undefined
 * when the URL does not start with `http(s)://` and a host.
 */
function writtenAuthority(raw: string): string | undefined {
  return /^https?:\/\/([^/?#]+)/i.exec(raw)?.[1];
}

/** The host as written: the authority without its port (the authority has no userinfo by then). */
function writtenHost(authority: string): string {
  return authority.startsWith('[') ? authority.slice(0, authority.indexOf(']') + 1) : authority.replace(/:\d*$/, '');
}

/** Characters in an authority that parsers disagree on or that hide: userinfo, escapes, backslashes, spaces, invisible marks. */
const AMBIGUOUS_AUTHORITY = /[@%\\\s\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/u;

function isLoopback(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === '[::1]';
}

/** The registrable domain of an ASCII host, approximately. */
export function registrableDomain(host: string): string {
  if (isIpHost(host)) return host;
  const labels = host.replace(/\.$/, '').split('.');
  if (labels.length <= 2) return labels.join('.');
  const take = labels.length >= 3 && labels[labels.length - 1].length === 2 && SECOND_LEVEL.has(labels[labels.length - 2]) ? 3 : 2;
  return labels.slice(-take).join('.');
}

/** Parses and judges a URL a server wants the user to open. */
export function assessUrl(raw: string): UrlAssessment {
  if (typeof raw !== 'string' || raw.trim() === '') return { kind: 'blocked', raw: String(raw), reason: 'the URL is empty' };
  if (raw.length > MAX_URL_LENGTH) return { kind: 'blocked', raw: raw.slice(0, 200), reason: `the URL is longer than ${MAX_URL_LENGTH} characters` };
  if (/[\u0000-\u001f\u007f]/.test(raw)) return { kind: 'blocked', raw, reason: 'the URL contains control characters' };
  const trimmed = raw.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { kind: 'blocked', raw, reason: 'it is not a valid absolute URL' };
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return { kind: 'blocked', raw, reason: `only http and https URLs are opened, not "${scheme}:"` };
  const host = url.hostname.toLowerCase();
  if (host === '') return { kind: 'blocked', raw, reason: 'the URL has no host' };
  const authority = writtenAuthority(trimmed);
  if (authority === undefined) return { kind: 'blocked', raw, reason: `it does not start with "${scheme}://" and a host` };
  if (authority.includes('@')) return { kind: 'blocked', raw, reason: `it has a user name or other text before "@" in the address (the site would be ${host}, not what is written before "@")` };
  if (AMBIGUOUS_AUTHORITY.test(authority)) return { kind: 'blocked', raw, reason: 'its host part contains escapes (%), backslashes, spaces or invisible characters, which VS Code and browsers read differently' };

  const warnings: UrlWarning[] = [];
  const unicode = isIpHost(host) ? host : domainToUnicode(host);
  const unicodeHost = unicode && unicode !== host ? unicode : undefined;
  const domain = registrableDomain(host);

  if (scheme === 'http') {
    warnings.push({
      kind: 'not-https',
      text: isLoopback(host) ? 'The link uses http (not encrypted), to a local address on this machine.' : 'The link uses http: the connection is not encrypted, and what you enter can be read or changed on the way.',
    });
  }
  if (host.split('.').some((label) => label.startsWith('xn--'))) {
    warnings.push({ kind: 'punycode', text: `The domain is an internationalised name in punycode (xn--)${unicodeHost ? `, shown as "${unicodeHost}"` : ''}. Such names can imitate a familiar domain.` });
  }
  if (unicodeHost) {
    const labels = unicodeHost.split('.');
    if (labels.some((l) => scriptsOf(l).size > 1)) {
      warnings.push({ kind: 'mixed-script', text: 'A part of the domain mixes letters of different alphabets, a common trick to imitate a known domain.' });
    }
    if (labels.some((l) => LOOKALIKES.test(l))) {
      warnings.push({ kind: 'homograph', text: 'The domain contains Cyrillic or Greek letters that look like Latin ones: it may not be the site it looks like.' });
    }
  }
  const hostAsWritten = writtenHost(authority).toLowerCase().replace(/\.$/, '');
  if (IPV4.test(host) && hostAsWritten !== host) {
    // 0x7f.1, 2130706433, 0177.0.0.1, 127.1: the browser goes to the dotted address, whatever the text suggests.
    warnings.push({ kind: 'ip-address', text: `The link goes to the IP address ${host}, written as "${hostAsWritten}" (a number, octal or hex form) to disguise it.` });
  } else if (isIpHost(host) && !isLoopback(host)) {
    warnings.push({ kind: 'ip-address', text: 'The link goes to a bare IP address, not a domain name.' });
  }
  if (url.port !== '' && !isLoopback(host)) warnings.push({ kind: 'unusual-port', text: `The link uses the unusual port ${url.port}.` });

  const segments: UrlSegment[] = [{ role: 'scheme', text: `${scheme}://` }];
  // A fully qualified host ends in a dot (www.example.com.): the dot stays with the domain.
  const dot = host.endsWith('.') && !isIpHost(host) ? '.' : '';
  const sub = host.slice(0, host.length - dot.length - domain.length);
  if (sub) segments.push({ role: 'subdomain', text: sub });
  segments.push({ role: 'domain', text: domain + dot });
  if (url.port !== '') segments.push({ role: 'port', text: `:${url.port}` });
  const rest = `${url.pathname}${url.search}${url.hash}`;
  if (rest !== '' && rest !== '/') segments.push({ role: 'path', text: rest });
  else if (url.href.endsWith('/')) segments.push({ role: 'path', text: '/' });

  return { kind: 'openable', raw, href: url.href, scheme, host, ...(unicodeHost ? { unicodeHost } : {}), domain, segments, warnings };
}
