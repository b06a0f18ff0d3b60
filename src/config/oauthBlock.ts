// The `"oauth"` block of a remote server entry: the client registered with the server's
// authorization server and the grant that gets its tokens — the browser sign-in
// (`authorization_code`, the default) or one of the authorization extensions that need no browser:
// `client_credentials` (a client secret or a private key), `enterprise_managed` (an enterprise
// identity provider's ID token exchanged for an identity assertion), `workload_identity` (a token
// the platform gives the workload). Secrets are never literals: a client secret, key or token is a
// variable (`${input:…}` with `password: true`, `${env:…}`), and a key or token may be a file path.
import type { Node } from 'jsonc-parser';
import { child, describe } from './jsonNodes';
import { EnterpriseIdpConfig, OAUTH_GRANTS, OAuthClientConfig, OAuthGrantName } from './types';

/** What the entry reader lends this one: where problems go, and its property reading. */
export interface OAuthBlockReader {
  /** `server "name": "oauth"`, the start of messages. */
  readonly label: string;
  fail(node: Node, path: string, message: string): void;
  properties(node: Node, path: string): Map<string, { readonly key: Node; readonly value: Node }>;
  warnUnknownKeys(props: Map<string, { readonly key: Node; readonly value: Node }>, known: string[], path: string): void;
}

const OAUTH_KEYS = ['clientId', 'clientSecret', 'scopes', 'callbackPort', 'grant', 'privateKey', 'privateKeyFile', 'signingAlgorithm', 'workloadToken', 'workloadTokenFile', 'idp', 'idToken', 'idTokenFile', 'dpop'];
const IDP_KEYS = ['issuer', 'tokenEndpoint', 'clientId', 'clientSecret'];
const DPOP_MODES = ['auto', 'off', 'required'] as const;

/** A variable reference and nothing else: `${input:x}`, `${env:X}`. */
const VARIABLE = /^\$\{[^}]+\}$/;

/** The secret fields of a block as written (variables), with their keys under `"oauth"`: the parser checks each `${input:…}` is a password input. */
export function secretOAuthFields(oauth: OAuthClientConfig): { keys: string[]; value: string }[] {
  const fields: { keys: string[]; value: string | undefined }[] = [
    { keys: ['clientSecret'], value: oauth.clientSecret },
    { keys: ['privateKey'], value: oauth.privateKey },
    { keys: ['workloadToken'], value: oauth.workloadToken },
    { keys: ['idToken'], value: oauth.idToken },
    { keys: ['idp', 'clientSecret'], value: oauth.idp?.clientSecret },
  ];
  return fields.filter((f): f is { keys: string[]; value: string } => f.value !== undefined);
}

/** Reads and checks the block; undefined (reported) when it cannot be used. */
export function readOAuthBlock(reader: OAuthBlockReader, node: Node, path: string): OAuthClientConfig | undefined {
  const { label } = reader;
  const fail = (n: Node, p: string, message: string) => reader.fail(n, p, message);
  if (node.type !== 'object') {
    fail(node, path, `${label} must be an object, found ${describe(node)}`);
    return undefined;
  }
  const props = reader.properties(node, path);
  reader.warnUnknownKeys(props, OAUTH_KEYS, path);
  let ok = true;
  const problem = (n: Node, p: string, message: string) => {
    ok = false;
    fail(n, p, message);
  };
  const text = (key: string, what: string): string | undefined => {
    const prop = props.get(key);
    if (!prop) return undefined;
    if (prop.value.type !== 'string' || prop.value.value.trim() === '') return problem(prop.value, child(path, key), `${label}.${key} must be ${what}, found ${describe(prop.value)}`), undefined;
    return prop.value.value.trim();
  };
  const grantText = text('grant', `one of ${OAUTH_GRANTS.join(', ')}`);
  const grant = grantText === undefined ? 'authorization_code' : (OAUTH_GRANTS as readonly string[]).includes(grantText) ? (grantText as OAuthGrantName) : undefined;
  if (grantText !== undefined && grant === undefined) problem(props.get('grant')!.value, child(path, 'grant'), `${label}.grant must be one of ${OAUTH_GRANTS.join(', ')}, found ${JSON.stringify(grantText)}`);

  const clientId = text('clientId', 'a non-empty string');
  if (!props.has('clientId') && grant !== 'workload_identity') problem(node, path, `${label} needs "clientId" (the client registered with the authorization server)`);
  const clientSecret = secretVariable(props, path, label, 'clientSecret', 'client-secret', problem);
  const privateKey = secretVariable(props, path, label, 'privateKey', 'client-key', problem);
  const privateKeyFile = filePath(props, path, label, 'privateKeyFile', problem);
  const signingAlgorithm = text('signingAlgorithm', 'a JWS algorithm such as "ES256"');
  const workloadToken = secretVariable(props, path, label, 'workloadToken', 'workload-token', problem);
  const workloadTokenFile = filePath(props, path, label, 'workloadTokenFile', problem);
  const idToken = secretVariable(props, path, label, 'idToken', 'id-token', problem);
  const idTokenFile = filePath(props, path, label, 'idTokenFile', problem);
  const dpopText = text('dpop', `one of ${DPOP_MODES.join(', ')}`);
  const dpop = DPOP_MODES.find((m) => m === dpopText);
  if (dpopText !== undefined && !dpop) problem(props.get('dpop')!.value, child(path, 'dpop'), `${label}.dpop must be one of ${DPOP_MODES.join(', ')}, found ${JSON.stringify(dpopText)}`);
  const idpProp = props.get('idp');
  const idp = idpProp ? readIdp(reader, idpProp.value, child(path, 'idp'), problem) : undefined;

  const block: BlockContext = { props, node, path, label, problem };
  checkGrantFields(block, grant);
  const scopes = readScopes(block);
  const callbackPort = readCallbackPort(block);
  if (!ok || grant === undefined || (clientId === undefined && grant !== 'workload_identity')) return undefined;
  return {
    clientId: clientId ?? '',
    ...(clientSecret !== undefined ? { clientSecret } : {}),
    ...(scopes ? { scopes } : {}),
    ...(callbackPort !== undefined ? { callbackPort } : {}),
    ...(grant !== 'authorization_code' || grantText !== undefined ? { grant } : {}),
    ...(privateKey !== undefined ? { privateKey } : {}),
    ...(privateKeyFile !== undefined ? { privateKeyFile } : {}),
    ...(signingAlgorithm !== undefined ? { signingAlgorithm } : {}),
    ...(workloadToken !== undefined ? { workloadToken } : {}),
    ...(workloadTokenFile !== undefined ? { workloadTokenFile } : {}),
    ...(idp ? { idp } : {}),
    ...(idToken !== undefined ? { idToken } : {}),
    ...(idTokenFile !== undefined ? { idTokenFile } : {}),
    ...(dpop ? { dpop } : {}),
  };
}

type Problem = (n: Node, p: string, message: string) => void;
type Props = Map<string, { readonly key: Node; readonly value: Node }>;

/** One block being read: its properties, where it is, and where its problems go. */
interface BlockContext {
  readonly props: Props;
  readonly node: Node;
  readonly path: string;
  readonly label: string;
  readonly problem: Problem;
}

/** What each grant needs, and what it does not use: a problem for each field missing, given twice, or of another grant. */
function checkGrantFields({ props, node, path, label, problem }: BlockContext, grant: OAuthGrantName | undefined): void {
  const given = (key: string) => props.has(key);
  const unused = (keys: string[], why: string) => {
    for (const key of keys.filter(given)) problem(props.get(key)!.value, child(path, key), `${label}.${key} ${why}`);
  };
  const oneOf = (keys: [string, string], what: string) => {
    const count = keys.filter(given).length;
    if (count === 0) problem(node, path, `${label}: the ${grant} grant needs ${what} ("${keys[0]}" as a variable, or "${keys[1]}")`);
    if (count === 2) problem(props.get(keys[1])!.value, child(path, keys[1]), `${label}: give ${what} once, as "${keys[0]}" or as "${keys[1]}"`);
  };
  switch (grant) {
    case 'authorization_code':
      unused(['privateKey', 'privateKeyFile', 'signingAlgorithm', 'workloadToken', 'workloadTokenFile', 'idp', 'idToken', 'idTokenFile'], 'belongs to another grant: set "grant" too');
      break;
    case 'client_credentials': {
      const count = ['clientSecret', 'privateKey', 'privateKeyFile'].filter(given).length;
      if (count !== 1) problem(node, path, `${label}: the client_credentials grant needs exactly one of "clientSecret", "privateKey" (a variable) and "privateKeyFile"`);
      unused(['workloadToken', 'workloadTokenFile', 'idp', 'idToken', 'idTokenFile', 'callbackPort'], 'is not used by the client_credentials grant');
      break;
    }
    case 'workload_identity':
      oneOf(['workloadToken', 'workloadTokenFile'], 'the workload token');
      unused(['privateKey', 'privateKeyFile', 'signingAlgorithm', 'idp', 'idToken', 'idTokenFile', 'callbackPort'], 'is not used by the workload_identity grant');
      break;
    case 'enterprise_managed':
      if (!given('idp')) problem(node, path, `${label}: the enterprise_managed grant needs "idp" (the identity provider's issuer, tokenEndpoint and clientId)`);
      // Neither: MCP Host signs the user in to the identity provider itself (OpenID Connect, in the browser).
      if (given('idToken') && given('idTokenFile')) problem(props.get('idTokenFile')!.value, child(path, 'idTokenFile'), `${label}: give the identity provider's ID token once, as "idToken" or as "idTokenFile"`);
      unused(['privateKey', 'privateKeyFile', 'signingAlgorithm', 'workloadToken', 'workloadTokenFile', 'callbackPort'], 'is not used by the enterprise_managed grant');
      break;
    case undefined:
      // An unknown grant, reported above: what it would need is unknown too.
      break;
  }
}

/** `"scopes"`: an array of single scopes (scope-token characters, no spaces); undefined when absent or not an array. */
function readScopes({ props, path, label, problem }: BlockContext): string[] | undefined {
  const scopesProp = props.get('scopes');
  if (!scopesProp) return undefined;
  const v = scopesProp.value;
  const at = child(path, 'scopes');
  if (v.type !== 'array') return problem(v, at, `${label}.scopes must be an array of strings, found ${describe(v)}`), undefined;
  const scopes: string[] = [];
  (v.children ?? []).forEach((s, i) => {
    if (s.type === 'string' && /^[\x21\x23-\x5B\x5D-\x7E]+$/.test(s.value)) scopes.push(s.value);
    else problem(s, `${at}[${i}]`, `${label}.scopes[${i}] must be one scope (no spaces), found ${describe(s)}`);
  });
  return scopes;
}

/** `"callbackPort"`: the loopback redirect's fixed port (1 to 65535), when one is set. */
function readCallbackPort({ props, path, label, problem }: BlockContext): number | undefined {
  const portProp = props.get('callbackPort');
  if (!portProp) return undefined;
  const v = portProp.value;
  if (v.type === 'number' && Number.isInteger(v.value) && v.value >= 1 && v.value <= 65535) return v.value as number;
  return problem(v, child(path, 'callbackPort'), `${label}.callbackPort must be a port number (1 to 65535), found ${describe(v)}`), undefined;
}

/** A secret given as a variable; a literal (a PEM key, a token) is refused, never echoed. */
function secretVariable(props: Props, path: string, label: string, key: string, example: string, problem: Problem): string | undefined {
  const prop = props.get(key);
  if (!prop) return undefined;
  const v = prop.value;
  const at = child(path, key);
  if (v.type !== 'string') return problem(v, at, `${label}.${key} must be a string, found ${describe(v)}`), undefined;
  if (!VARIABLE.test(v.value.trim())) {
    const file = key === 'clientSecret' ? '' : ` or give a file with "${key}File"`;
    return problem(v, at, `${label}.${key} must be a variable such as "\${input:${example}}" (an input with "password": true) or "\${env:NAME}"${file}, not the secret itself`), undefined;
  }
  return v.value.trim();
}

/** A file path (read when a token is requested); a key or token pasted in its place is refused. */
function filePath(props: Props, path: string, label: string, key: string, problem: Problem): string | undefined {
  const prop = props.get(key);
  if (!prop) return undefined;
  const v = prop.value;
  const at = child(path, key);
  if (v.type !== 'string' || v.value.trim() === '') return problem(v, at, `${label}.${key} must be the path of a file, found ${v.type === 'string' ? 'an empty string' : describe(v)}`), undefined;
  // A PEM block or a JWT is not a path: said without quoting it.
  if (/-----BEGIN|^ey[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\./.test(v.value.trim()) || /[\r\n]/.test(v.value)) return problem(v, at, `${label}.${key} must be the path of a file, not the key or token itself`), undefined;
  // A relative path would depend on the process's directory, which differs between the editor and a CLI run.
  if (!/^(\/|~\/|\$\{|[A-Za-z]:[\\/]|\\\\)/.test(v.value.trim())) return problem(v, at, `${label}.${key} must be an absolute path (or start with ~/ or a variable such as \${workspaceFolder}), found ${JSON.stringify(v.value)}`), undefined;
  return v.value.trim();
}

function readIdp(reader: OAuthBlockReader, node: Node, path: string, problem: Problem): EnterpriseIdpConfig | undefined {
  const label = `${reader.label}.idp`;
  if (node.type !== 'object') return problem(node, path, `${label} must be an object, found ${describe(node)}`), undefined;
  const props = reader.properties(node, path);
  reader.warnUnknownKeys(props, IDP_KEYS, path);
  const url = (key: string): string | undefined => {
    const prop = props.get(key);
    if (!prop) return problem(node, path, `${label} needs "${key}"`), undefined;
    const v = prop.value;
    if (v.type !== 'string' || !/^https?:\/\/\S+$/.test(v.value.trim())) return problem(v, child(path, key), `${label}.${key} must be an https URL, found ${describe(v)}`), undefined;
    return v.value.trim();
  };
  const issuer = url('issuer');
  const tokenEndpoint = url('tokenEndpoint');
  const idProp = props.get('clientId');
  let clientId: string | undefined;
  if (!idProp) problem(node, path, `${label} needs "clientId" (this client at the identity provider)`);
  else if (idProp.value.type !== 'string' || idProp.value.value.trim() === '') problem(idProp.value, child(path, 'clientId'), `${label}.clientId must be a non-empty string, found ${describe(idProp.value)}`);
  else clientId = idProp.value.value.trim();
  const clientSecret = secretVariable(props, path, label, 'clientSecret', 'idp-client-secret', problem);
  if (issuer === undefined || tokenEndpoint === undefined || clientId === undefined) return undefined;
  return { issuer, tokenEndpoint, clientId, ...(clientSecret !== undefined ? { clientSecret } : {}) };
}

/**
 * The grant of a block in words, one fact a line, for the consent prompt and Server Details:
 * which grant, and where each secret comes from as written (a variable, a file), never a value.
 * Empty for the browser sign-in without DPoP settings.
 */
export function oauthGrantFacts(oauth: OAuthClientConfig): string[] {
  const source = (variable: string | undefined, file: string | undefined) => (variable !== undefined ? variable : `the file ${file ?? '?'}`);
  const lines: string[] = [];
  switch (oauth.grant ?? 'authorization_code') {
    case 'authorization_code':
      break;
    case 'client_credentials':
      lines.push(
        oauth.clientSecret !== undefined
          ? 'Grant: client credentials, no browser (authenticated by the client secret)'
          : `Grant: client credentials, no browser (private_key_jwt: a JWT signed by the private key from ${source(oauth.privateKey, oauth.privateKeyFile)})`,
      );
      break;
    case 'workload_identity':
      lines.push(`Grant: workload identity federation, no browser (JWT bearer with the workload token from ${source(oauth.workloadToken, oauth.workloadTokenFile)})`);
      break;
    case 'enterprise_managed':
      lines.push(
        oauth.idToken === undefined && oauth.idTokenFile === undefined
          ? `Grant: enterprise-managed authorization (you sign in to the identity provider ${oauth.idp?.issuer ?? ''} in the browser, once while its ID token lasts; the ID token is exchanged at ${oauth.idp?.tokenEndpoint ?? 'the identity provider'} for an identity assertion, no consent per server)`
          : `Grant: enterprise-managed authorization, no browser (the ID token from ${source(oauth.idToken, oauth.idTokenFile)} is exchanged at ${oauth.idp?.tokenEndpoint ?? 'the identity provider'} for an identity assertion)`,
      );
      if (oauth.idp?.clientSecret !== undefined) lines.push(`Identity provider client secret: ${oauth.idp.clientSecret}`);
      break;
  }
  if (oauth.dpop && oauth.dpop !== 'auto') lines.push(`DPoP: ${oauth.dpop === 'off' ? 'off (bearer tokens even where the server offers DPoP)' : 'required (tokens bound to a key pair kept with them)'}`);
  return lines;
}
