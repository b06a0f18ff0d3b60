import type { OAuthModule } from './oauth';
import { errorMessage } from '../protocol/errors';

/** Which step of authorization failed. */
/** `credential-required`: the server wants a credential but offers no sign-in (an API key); `sign-in-limit`: it kept refusing new tokens. */
export type AuthErrorKind = 'discovery' | 'unsupported' | 'registration' | 'redirect' | 'token' | 'refused' | 'step-up-limit' | 'sign-in-limit' | 'credential-required' | 'cancelled';

/** A sign-in that stopped. The message says where and why, and never holds a secret. */
export class AuthError extends Error {
  override readonly name = 'AuthError';
  constructor(
    readonly kind: AuthErrorKind,
    message: string,
  ) {
    super(message);
  }
  static is(e: unknown, kind?: AuthErrorKind): e is AuthError {
    return e instanceof AuthError && (kind === undefined || e.kind === kind);
  }
}

/** Removes every secret string from `text` (defence in depth for messages built from a library's or a server's words). */
export function redact(text: string, secrets: Iterable<string | undefined>): string {
  let out = text;
  for (const secret of secrets) if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out;
}

/** Form parameters that carry a credential (a secret, a signed client assertion, a grant's assertion, a subject token, a code, a verifier, a refresh token). */
const CREDENTIAL_PARAMETERS = ['client_secret', 'client_assertion', 'assertion', 'subject_token', 'code', 'code_verifier', 'refresh_token'];

/**
 * A fetch that adds what each request carries as a credential (the Authorization header, as a
 * server may quote it back, and the credential parameters) to `secrets`, so an error built from
 * the server's words cannot repeat them.
 */
export function noteSentCredentials(inner: typeof fetch, secrets: Set<string | undefined>): typeof fetch {
  return (input, init) => {
    const authorization = new Headers(init?.headers).get('authorization');
    if (authorization) secrets.add(authorization).add(authorization.replace(/^\S+\s+/, ''));
    if (init?.body instanceof URLSearchParams) for (const name of CREDENTIAL_PARAMETERS) secrets.add(init.body.get(name) ?? undefined);
    return inner(input, init);
  };
}

/**
 * Why oauth4webapi refused a response, in words: the server's OAuth error (`error`,
 * `error_description`), a body that is not JSON, or the library's own check.
 */
export function describeOAuthFailure(oauth: OAuthModule, error: unknown, where: string): string {
  if (error instanceof oauth.ResponseBodyError) return `${where} answered HTTP ${error.status} with error ${JSON.stringify(error.error)}${error.error_description ? ` (${error.error_description})` : ''}`;
  if (error instanceof oauth.AuthorizationResponseError) return `the authorization server refused: ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`;
  if (error instanceof oauth.OperationProcessingError) {
    if (error.code === oauth.RESPONSE_IS_NOT_JSON || error.code === oauth.PARSE_ERROR) return `${where} did not answer with JSON${contentTypeOf(error)}`;
    return `${where}: ${error.message}`;
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) return `${where} answered HTTP ${error.status} with a WWW-Authenticate challenge`;
  return `${where}: ${errorMessage(error)}`;
}

function contentTypeOf(error: Error): string {
  const response = (error as { cause?: unknown }).cause;
  if (response instanceof Response) return ` (HTTP ${response.status}, ${response.headers.get('content-type') ?? 'no content type'})`;
  return '';
}
