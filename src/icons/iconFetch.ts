// Fetching one https icon: the host's address is resolved and checked before the connection is
// made (the checked address is the one connected to, so a DNS answer cannot change between the
// check and the connection), no redirect is followed, the body is counted as it streams and the
// connection is cut at the byte cap, and the whole fetch has a deadline. The bytes are then read
// as an image (imageHeader.ts) by the caller.
import { lookup as dnsLookup } from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { bareMimeType } from './imageHeader';
import { MAX_ICON_BYTES, type TestOnlyAllowance, isPublicAddress } from './iconSource';

export const ICON_FETCH_TIMEOUT_MS = 5000;

export type IconFetchResult = { readonly kind: 'fetched'; readonly bytes: Buffer; readonly contentType: string } | { readonly kind: 'refused'; readonly reason: string };

export interface IconFetchOptions {
  readonly maxBytes?: number;
  readonly timeoutMs?: number;
  /** Tests only; the product never sets it (see TestOnlyAllowance). */
  readonly testOnlyAllowance?: TestOnlyAllowance;
}

/** A lookup that answers only with addresses `accept` allows; the connection never sees another. */
function checkedLookup(accept: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const list = addresses as unknown as { address: string; family: number }[];
      const refused = list.find((a) => !accept(a.address));
      // One refused answer refuses the host: a name that resolves to both a public and a private address is not trusted.
      if (refused || list.length === 0) return callback(Object.assign(new Error(`${hostname} resolves to ${refused?.address ?? 'nothing'}, which is this machine or a private network`), { code: 'EICONADDRESS' }), '', 4);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}

/** Fetches `url` under the rules above; never throws. */
export function fetchIcon(url: URL, options: IconFetchOptions = {}): Promise<IconFetchResult> {
  const maxBytes = options.maxBytes ?? MAX_ICON_BYTES;
  const allowance = options.testOnlyAllowance;
  const plain = url.protocol === 'http:';
  if (url.protocol !== 'https:' && !(plain && allowance?.plainHttp)) return Promise.resolve({ kind: 'refused', reason: `${url.protocol} icons are not fetched` });
  const accept = allowance?.address ?? isPublicAddress;
  // A literal address is connected to without a lookup: check it here.
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && !accept(literal)) return Promise.resolve({ kind: 'refused', reason: `${literal} is this machine or a private network` });
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: IconFetchResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    const get = plain ? http.get : https.get;
    const request = get(url, { lookup: checkedLookup(accept), headers: { accept: 'image/png, image/jpeg, image/gif, image/webp' }, agent: false }, (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400) return done({ kind: 'refused', reason: `the server answered ${status} (a redirect): icons are not fetched through redirects` });
      if (status !== 200) return done({ kind: 'refused', reason: `the server answered ${status}` });
      const contentType = bareMimeType(String(response.headers['content-type'] ?? ''));
      if (Number(response.headers['content-length']) > maxBytes) return done({ kind: 'refused', reason: `larger than ${maxBytes / 1024} KiB (Content-Length)` });
      const chunks: Buffer[] = [];
      let total = 0;
      response.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > maxBytes) return done({ kind: 'refused', reason: `larger than ${maxBytes / 1024} KiB; the download was cut there` });
        chunks.push(chunk);
      });
      response.on('end', () => done({ kind: 'fetched', bytes: Buffer.concat(chunks), contentType }));
      response.on('error', (error) => done({ kind: 'refused', reason: error.message }));
    });
    request.on('error', (error) => done({ kind: 'refused', reason: error.message }));
    const timer = setTimeout(() => done({ kind: 'refused', reason: `no answer within ${(options.timeoutMs ?? ICON_FETCH_TIMEOUT_MS) / 1000} s` }), options.timeoutMs ?? ICON_FETCH_TIMEOUT_MS);
    timer.unref();
  });
}
