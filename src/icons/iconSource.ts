// Where an icon may come from. Accepted: a `data:` URI of a raster image (base64), and an `https:`
// URL on the server's own origin (an HTTP server's) or on an origin the user declared. Refused:
// http:, file: and every other scheme, credentials in the URL, and any host that is or resolves to
// this machine or a private network (the address is checked again when the connection is made,
// iconFetch.ts). A server's icon is its own decoration, not a way to make the host reach inside
// the network.
import { BlockList, isIP } from 'node:net';
import { bareMimeType, isIconImageType, type IconImageType } from './imageHeader';

/** The most bytes an icon may have. */
export const MAX_ICON_BYTES = 256 * 1024;

export type IconSource =
  | { readonly kind: 'data'; readonly type: IconImageType; readonly bytes: Buffer }
  | { readonly kind: 'https'; readonly url: URL }  // (http only under a test's allowance)
  | { readonly kind: 'refused'; readonly reason: string };

/** Where icons of one server may come from. */
export interface IconOrigins {
  /** The origin of the server's own URL, when it is an https server. */
  readonly serverOrigin?: string;
  /** Origins the user declared (`mcpHost.icons.allowedOrigins`). */
  readonly allowed: readonly string[];
}

/**
 * Tests only; the product never sets it. Lets plain http through and replaces the public-address
 * rule, so the fetch rules can be tested against a real server on 127.0.0.1 without certificates.
 */
export interface TestOnlyAllowance {
  readonly plainHttp: boolean;
  readonly address: (address: string) => boolean;
}

/** The origin of an https URL (`https://host[:port]`), or undefined for anything else. */
export function httpsOrigin(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/** What `src` is, and whether it may be used, without fetching anything. */
export function classifyIconSource(src: string, origins: IconOrigins, testOnlyAllowance?: TestOnlyAllowance): IconSource {
  if (/^data:/i.test(src)) return dataSource(src);
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return { kind: 'refused', reason: 'not a URL' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && testOnlyAllowance?.plainHttp)) return { kind: 'refused', reason: `${url.protocol} icons are not fetched (only data: and https:)` };
  if (url.username || url.password) return { kind: 'refused', reason: 'a URL with credentials in it' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !(testOnlyAllowance?.address ?? isPublicAddress)(host)) return { kind: 'refused', reason: `${host} is this machine or a private network` };
  if (!testOnlyAllowance && (host === 'localhost' || host.endsWith('.localhost'))) return { kind: 'refused', reason: `${host} is this machine` };
  const allowed = [origins.serverOrigin, ...origins.allowed].filter((o): o is string => o !== undefined).map(normalOrigin);
  if (!allowed.includes(url.origin)) return { kind: 'refused', reason: `${url.origin} is neither the server's own origin nor one declared in mcpHost.icons.allowedOrigins` };
  return { kind: 'https', url };
}

function normalOrigin(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    return origin;
  }
}

/** A `data:image/<raster>;base64,…` URI decoded, its size capped before it is decoded. */
function dataSource(src: string): IconSource {
  const m = /^data:([^;,]*)((?:;[^;,]*)*),/i.exec(src);
  if (!m) return { kind: 'refused', reason: 'a data: URI that does not parse' };
  const type = bareMimeType(m[1]);
  if (type === 'image/svg+xml') return { kind: 'refused', reason: 'SVG is not shown (it can carry script)' };
  if (!isIconImageType(type)) return { kind: 'refused', reason: `${type || 'no type'} is not a PNG, JPEG, GIF or WebP image` };
  if (!/;base64$/i.test(m[2])) return { kind: 'refused', reason: 'a data: URI that is not base64' };
  const encoded = src.slice(m[0].length);
  if (encoded.length > Math.ceil((MAX_ICON_BYTES * 4) / 3) + 4) return { kind: 'refused', reason: `larger than ${MAX_ICON_BYTES / 1024} KiB` };
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) return { kind: 'refused', reason: 'a data: URI with characters outside base64' };
  return { kind: 'data', type, bytes: Buffer.from(encoded, 'base64') };
}

/** Loopback, private, link-local, shared, multicast and reserved ranges: no icon is fetched from them. */
const NOT_PUBLIC = (() => {
  const list = new BlockList();
  for (const [net, prefix] of [
    ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
    ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
  ] as const) list.addSubnet(net, prefix, 'ipv4');
  for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32], ['64:ff9b::', 96], ['100::', 64]] as const) list.addSubnet(net, prefix, 'ipv6');
  return list;
})();

/** True for an address on the public internet (an IPv4-mapped IPv6 address is judged as its IPv4). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !NOT_PUBLIC.check(address, 'ipv4');
  if (family !== 6) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]);
  if (/^::ffff:/i.test(address)) return false;
  return !NOT_PUBLIC.check(address, 'ipv6');
}
