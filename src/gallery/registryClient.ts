// A client of an MCP Registry (the official one at registry.modelcontextprotocol.io, or any
// registry serving the same API, such as a company's private one behind a bearer token).
// Reads only; every answer is validated before use, and every failure is a RegistryError whose
// `reason` says what went wrong (callers read the field, never the message). No `vscode` here:
// the CLI and the editor share it.
import { ServerDetail, ServerListEnvelope, ServerResponse, firstIssue } from './serverJson';
import { remoteUrlProblem } from './installSafety';
import { limitedFetch } from '../auth/limitedFetch';
import { parseBearerChallenge } from '../auth/discovery';
import type { AuthProvider } from '../auth';

export const OFFICIAL_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';

/** Why a registry request failed. */
export type RegistryFailure =
  /** Offline, DNS, refused, timed out, a 5xx, or an answer that is not the registry's JSON (an HTML page). */
  | 'unreachable'
  /** 401/403: the registry wants a (different) token. */
  | 'unauthorized'
  /** 404: no such server or version. */
  | 'not-found'
  /** The registry answered JSON that breaks the published shapes (the entry is named). */
  | 'invalid'
  /** The registry URL itself is refused (not https, credentials in it). */
  | 'bad-url';

export class RegistryError extends Error {
  override readonly name = 'RegistryError';
  constructor(
    readonly reason: RegistryFailure,
    message: string,
    /** 'unauthorized' only: the 401 names OAuth protected-resource metadata (RFC 9728), so a sign-in can get a token. */
    readonly signIn = false,
  ) {
    super(message);
  }
}

export interface RegistryClientOptions {
  /** The registry's base URL (the part before `/v0.1`). */
  readonly baseUrl: string;
  /** The bearer token for a private registry, asked for at each request; undefined sends none. */
  readonly token?: () => PromiseLike<string | undefined> | string | undefined;
  /**
   * A private registry behind OAuth: the sign-in of a remote MCP server (the same OAuthSession),
   * asked for the Authorization when `token` gives none, and told of a 401/403 (it refreshes, or
   * finds a token another window stored): `retry` sends the request once more.
   */
  readonly auth?: AuthProvider;
  /** Injected for tests; the global fetch otherwise. */
  readonly fetch?: typeof fetch;
  /** Per-request timeout (ms). */
  readonly timeoutMs?: number;
}

export interface SearchQuery {
  readonly search?: string;
  readonly limit?: number;
  readonly cursor?: string;
  /** RFC 3339: only entries updated since. */
  readonly updatedSince?: string;
}

/** A page of search results; entries that break the shapes are left out and named in `invalid`. */
export interface SearchPage {
  readonly servers: ServerResponse[];
  readonly nextCursor?: string;
  readonly invalid: { readonly index: number; readonly name?: string; readonly problem: string }[];
}

const API = 'v0.1';
/** Larger answers are refused: a registry page is a few hundred KB at most. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

export class RegistryClient {
  private readonly base: string;

  constructor(private readonly options: RegistryClientOptions) {
    const problem = remoteUrlProblem(options.baseUrl);
    if (problem) throw new RegistryError('bad-url', `registry URL ${safeUrl(options.baseUrl)}: ${problem}`);
    this.base = options.baseUrl.replace(/\/+$/, '');
  }

  /** One page of `/v0.1/servers`, latest versions only. */
  async search(query: SearchQuery, signal?: AbortSignal): Promise<SearchPage> {
    const params = new URLSearchParams({ version: 'latest' });
    if (query.search) params.set('search', query.search);
    if (query.limit) params.set('limit', String(query.limit));
    if (query.cursor) params.set('cursor', query.cursor);
    if (query.updatedSince) params.set('updated_since', query.updatedSince);
    const body = await this.get(`/${API}/servers?${params}`, signal);
    const envelope = ServerListEnvelope.safeParse(body);
    if (!envelope.success) throw new RegistryError('invalid', `the registry's server list is malformed (${firstIssue(envelope.error)})`);
    const servers: ServerResponse[] = [];
    const invalid: SearchPage['invalid'][number][] = [];
    envelope.data.servers.forEach((raw, index) => {
      const parsed = ServerResponse.safeParse(raw);
      if (parsed.success) servers.push(parsed.data);
      else invalid.push({ index, ...optionalName(raw), problem: firstIssue(parsed.error) });
    });
    const next = envelope.data.metadata?.nextCursor;
    return { servers, invalid, ...(next ? { nextCursor: next } : {}) };
  }

  /** The latest version of `name`, or the given `version`. Throws 'invalid' naming the entry when it breaks the shapes. */
  async server(name: string, version = 'latest', signal?: AbortSignal): Promise<ServerResponse> {
    const body = await this.get(`/${API}/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`, signal);
    const parsed = ServerResponse.safeParse(body);
    if (!parsed.success) throw new RegistryError('invalid', `registry entry "${name}"${version === 'latest' ? '' : ` version ${version}`} is malformed: ${firstIssue(parsed.error)}`);
    if (parsed.data.server.name !== name) throw new RegistryError('invalid', `registry entry "${name}" came back named "${parsed.data.server.name}"`);
    return parsed.data;
  }

  private async get(path: string, signal?: AbortSignal): Promise<unknown> {
    const url = this.base + path;
    const where = `registry ${safeUrl(this.base)}`;
    // Once more after a challenge the auth answered `retry`; twice when the first try carried
    // nothing (the stored token it then finds may be expired in turn, and is refreshed).
    let retries = 1;
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { accept: 'application/json' };
      const token = await this.options.token?.();
      const authorization = token ? `Bearer ${token}` : await this.options.auth?.authorization();
      if (authorization) headers.authorization = authorization;
      else if (attempt === 0) retries = 2;
      const response = await this.send(url, headers, signal);
      if (response.status !== 401 && response.status !== 403) return this.read(response, url, path);
      await response.body?.cancel();
      const wwwAuthenticate = response.headers.get('www-authenticate') ?? undefined;
      const auth = token ? undefined : this.options.auth;
      const challenge = { status: response.status, url: safeUrl(this.base), ...(wwwAuthenticate ? { wwwAuthenticate } : {}), ...(authorization ? { refused: authorization } : {}) } as const;
      if (attempt < retries && auth && (await auth.onChallenge(challenge)) === 'retry') continue;
      const signIn = response.status === 401 && parseBearerChallenge(wwwAuthenticate).resourceMetadata !== undefined;
      const why = authorization ? (token ? 'the token was refused' : 'the signed-in token was refused') : signIn ? 'it needs a sign-in (a private registry behind OAuth)' : 'it needs a token (a private registry)';
      throw new RegistryError('unauthorized', `${where} answered ${response.status}: ${why}`, signIn);
    }
  }

  private async send(url: string, headers: Record<string, string>, signal: AbortSignal | undefined): Promise<Response> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 15_000);
    try {
      return await (this.options.fetch ?? fetch)(url, { headers, signal: signal ? AbortSignal.any([signal, timeout]) : timeout, redirect: 'follow' });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new RegistryError('unreachable', `registry not reachable at ${safeUrl(this.base)}: ${networkCause(error, timeout.aborted)}`);
    }
  }

  private async read(response: Response, url: string, path: string): Promise<unknown> {
    const where = `registry ${safeUrl(this.base)}`;
    if (response.status === 404) {
      await response.body?.cancel();
      throw new RegistryError('not-found', `${where}: not found (${path.split('?')[0]})`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new RegistryError('unreachable', `registry not reachable at ${safeUrl(this.base)}: HTTP ${response.status}`);
    }
    let text: string;
    try {
      // The answer is read whole, up to the cap, before anything parses it.
      text = await (await limitedFetch(async () => response, MAX_ANSWER_BYTES)(url)).text();
    } catch (error) {
      throw new RegistryError('invalid', `${where}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const type = response.headers.get('content-type') ?? '';
    if (!/json/i.test(type) || /^\s*</.test(text)) {
      throw new RegistryError('unreachable', `registry not reachable at ${safeUrl(this.base)}: it answered ${type.split(';')[0] || 'an unknown type'}, not the registry's JSON (is the URL right?)`);
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new RegistryError('invalid', `${where} answered malformed JSON`);
    }
  }
}

/** Pages through search results until `max` entries or the last page. */
export async function searchAll(client: RegistryClient, query: SearchQuery, max: number, signal?: AbortSignal): Promise<SearchPage> {
  const servers: ServerResponse[] = [];
  const invalid: SearchPage['invalid'][number][] = [];
  let cursor = query.cursor;
  for (;;) {
    const page = await client.search({ ...query, ...(cursor ? { cursor } : {}) }, signal);
    servers.push(...page.servers);
    invalid.push(...page.invalid);
    if (!page.nextCursor || servers.length >= max || page.nextCursor === cursor) return { servers: servers.slice(0, max), invalid, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    cursor = page.nextCursor;
  }
}

/** A URL for messages: without credentials, query or fragment. */
export function safeUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
  } catch {
    return 'an unparsable URL';
  }
}

function optionalName(raw: unknown): { name?: string } {
  const server = typeof raw === 'object' && raw !== null ? (raw as { server?: unknown }).server : undefined;
  const name = typeof server === 'object' && server !== null ? (server as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? { name: name.slice(0, 200) } : {};
}

function networkCause(error: unknown, timedOut: boolean): string {
  if (timedOut) return 'no answer in time';
  const cause = (error as { cause?: { code?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name does not resolve (offline?)';
    case 'ECONNREFUSED':
      return 'the connection was refused';
    case 'ECONNRESET':
      return 'the connection was reset';
    default:
      return code ? `network error ${code}` : 'network error';
  }
}

export type { ServerDetail, ServerResponse };
