// The fetch every authorization request goes through: an answer is read whole before anything
// parses it, so a hostile or broken server (metadata, registration, token endpoint) could make
// the host hold an unbounded body. Answers longer than the limit are refused instead.

/** The most an authorization answer may hold. Metadata, a registration or a token is a few KiB. */
export const MAX_AUTH_ANSWER_BYTES = 1024 * 1024;

/** Statuses whose Response may not have a body. */
const NO_BODY = new Set([101, 204, 205, 304]);

/** `fetchFn` with each answer read up to `maxBytes`; a longer one rejects, naming the limit. */
export function limitedFetch(fetchFn: typeof fetch, maxBytes = MAX_AUTH_ANSWER_BYTES): typeof fetch {
  return async (input, init) => {
    const response = await fetchFn(input, init);
    if (!response.body || NO_BODY.has(response.status)) return response;
    const limit = maxBytes % 1048576 === 0 ? `${maxBytes / 1048576} MiB` : `${Math.ceil(maxBytes / 1024)} KiB`;
    // The caller names the endpoint.
    const tooLarge = () => new Error(`the answer is larger than ${limit}; refused`);
    if (Number(response.headers.get('content-length')) > maxBytes) {
      await response.body.cancel().catch(() => undefined);
      throw tooLarge();
    }
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
    // The body is decoded now: its length and encoding headers no longer describe it.
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(Buffer.concat(chunks), { status: response.status, statusText: response.statusText, headers });
  };
}
