// How this client authenticates at a token endpoint with a client secret (RFC 6749 §2.3.1), for
// the authorization code flow and for the grants that need no browser.
import type { AuthorizationServer, ClientAuth, OAuthModule } from './oauth';

/**
 * `client_secret_basic` (RFC 6749 §2.3.1): id and secret form-urlencoded, joined by a colon, in
 * base64. The encoding is the WHATWG application/x-www-form-urlencoded serializer (that of
 * URLSearchParams), which leaves `*-._` as they are; oauth4webapi's ClientSecretBasic escapes
 * those too, and servers that do not decode (the conformance suite's among them) then see
 * `pre%2Dregistered` for `pre-registered`. Both decode alike where servers do decode.
 */
export function secretBasic(clientSecret: string): ClientAuth {
  const encode = (value: string) => new URLSearchParams([['', value]]).toString().slice(1);
  return (_as, client, _body, headers) => {
    headers.set('authorization', `Basic ${Buffer.from(`${encode(client.client_id)}:${encode(clientSecret)}`).toString('base64')}`);
  };
}

/** For a client with a secret: basic unless the server lists only post (RFC 8414 default is basic). */
export function secretMethod(as: AuthorizationServer): 'client_secret_basic' | 'client_secret_post' {
  const supported = as.token_endpoint_auth_methods_supported;
  return supported && !supported.includes('client_secret_basic') && supported.includes('client_secret_post') ? 'client_secret_post' : 'client_secret_basic';
}

/** The ClientAuth for a secret by the method `secretMethod` chose for `as`. */
export function secretAuth(oauth: OAuthModule, as: AuthorizationServer, clientSecret: string): { auth: ClientAuth; method: 'client_secret_basic' | 'client_secret_post' } {
  const method = secretMethod(as);
  return { auth: method === 'client_secret_post' ? oauth.ClientSecretPost(clientSecret) : secretBasic(clientSecret), method };
}
