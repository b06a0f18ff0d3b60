// The headers of a request sent with a sign-in: the provider's `Authorization` and DPoP proof in
// place of any the configuration carries. Kept apart from the channel so its request path stays
// readable; the check it caches runs once per headers object, not once per request.

/** Headers objects known to carry neither `authorization` nor `dpop` (a transport reuses one for its POSTs). */
const unauthorized = new WeakSet<object>();
/**
 * `headers` with the sign-in's `authorization` and `dpop` in place of any it carries; the same
 * object when there is nothing to change (no token yet, the usual remote server): no copy per request.
 */
export function authorizedHeaders(headers: Readonly<Record<string, string>>, value: string | undefined, proof: string | undefined): Readonly<Record<string, string>> {
  if (value === undefined && unauthorized.has(headers)) return headers;
  const out: Record<string, string> = {};
  let removed = false;
  for (const key in headers) {
    const name = key.toLowerCase();
    if (name === 'authorization' || name === 'dpop') removed = true;
    else out[key] = headers[key];
  }
  if (value === undefined && !removed) return unauthorized.add(headers), headers;
  if (value !== undefined) out.authorization = value;
  if (proof !== undefined) out.dpop = proof;
  return out;
}
