// The one redaction of MCP Host, and the command line as it is shown. No `vscode` import: the
// registry, Server Details, the tree and the output channels all redact through `Redactor`.
import { realpathSync } from 'node:fs';
import { findVariables, isSecretHeader, mayBeSecret } from './secretShapes';

/** What replaces a secret in log text. */
export const REDACTED = '••••';

/** Secrets shorter than this are not redacted: replacing every "a" would make logs unreadable. */
export const MIN_REDACTED_LENGTH = 4;

/**
 * Removes secrets from text that is logged or shown: every value it was told about, in each form
 * MCP Host itself may print it in (raw, JSON-escaped as in frames, shell-quoted as in
 * {@link formatCommandLine}, URL-encoded as in a URL), and the credentials of Authorization headers.
 */
export class Redactor {
  /** Every form of every secret, longest first, so a secret containing another is replaced whole. */
  private forms: string[] = [];

  constructor(values: Iterable<string> = []) {
    this.add(...values);
  }

  /** Adds values to hide; values shorter than MIN_REDACTED_LENGTH are ignored. */
  add(...values: readonly string[]): void {
    const before = this.forms.length;
    for (const value of values) {
      if (value.length < MIN_REDACTED_LENGTH) continue;
      for (const form of shownForms(value)) if (!this.forms.includes(form)) this.forms.push(form);
    }
    if (this.forms.length !== before) this.forms.sort((a, b) => b.length - a.length);
  }

  /** Forgets every value (after "Clear Stored Inputs"). */
  clear(): void {
    this.forms = [];
  }

  /** How many forms are hidden (each value adds one to four). */
  get size(): number {
    return this.forms.length;
  }

  redact(text: string): string {
    let out = text;
    for (const form of this.forms) {
      if (out.includes(form)) out = out.split(form).join(REDACTED);
    }
    return redactKnownShapes(out);
  }
}

/** Removes secrets from a text before it leaves MCP Host (a Redactor's `redact`, or the URL and Authorization rules alone). */
export type Redact = (text: string) => string;

/** The redaction without known values: URL credentials and Authorization headers only. */
export const redactKnownShapes: Redact = (text) => redactUrlCredentials(redactAuthorization(text));

/**
 * A JSON value (an error's `data`) with `redact` applied to its text: the same value when nothing
 * changed, undefined when the redacted text is no longer JSON (left out rather than leaked).
 */
export function redactJson<T>(value: T, redact: Redact): T | undefined {
  if (value === undefined) return value;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return undefined;
  }
  if (text === undefined) return value;
  const redacted = redact(text);
  if (redacted === text) return value;
  try {
    return JSON.parse(redacted) as T;
  } catch {
    return undefined;
  }
}

/** A JSON-RPC error object as it may leave MCP Host: `redact` applied to its message and data. */
export function redactWireError<E extends { readonly message: string; readonly data?: unknown }>(error: E, redact: Redact): E {
  const { data, ...rest } = error;
  const kept = redactJson(data, redact);
  return { ...rest, message: redact(error.message), ...(kept !== undefined ? { data: kept } : {}) } as E;
}

/** The ways `value` can appear in what MCP Host prints. */
function shownForms(value: string): Set<string> {
  const json = (s: string) => JSON.stringify(s).slice(1, -1);
  const shell = value.replace(/'/g, `'\\''`);
  return new Set([value, json(value), shell, json(shell), encodeURIComponent(value)]);
}

// `Authorization: Bearer x`, `"authorization":"Basic x"`, `Proxy-Authorization=x`: keep the scheme, hide the credentials.
const AUTHORIZATION = /(authorization\\?["']?\s*[:=]\s*\\?["']?)(?:(bearer|basic|digest|token)\s+)?([^\s"'\\,}]+)/gi;

/** Hides the credentials of Authorization headers in `text`. */
export function redactAuthorization(text: string): string {
  if (!/authorization/i.test(text)) return text;
  return text.replace(AUTHORIZATION, (_m, prefix: string, scheme: string | undefined) => `${prefix}${scheme ? `${scheme} ` : ''}${REDACTED}`);
}

/** Query parameters whose value is a credential (`?api_key=…`, `&access_token=…`, `&sig=…`). */
const SECRET_QUERY_PARAMETER = /^(?:.*(?:api[-_]?key|token|secret|password|passwd|pwd|credential|auth)|key|sig|signature|code|session)$/i;

/** True when a URL query parameter of this name carries a credential. */
export function isSecretQueryParameter(name: string): boolean {
  return SECRET_QUERY_PARAMETER.test(name);
}

// An http(s) or ws(s) URL in running text, up to whitespace, a quote or a closing bracket.
const URL_IN_TEXT = /\b(?:https?|wss?):\/\/[^\s"'<>`\\)\]}]+/gi;

/** Hides the userinfo and secret query parameter values of every URL in `text` (see {@link maskUrlCredentials}). */
export function redactUrlCredentials(text: string): string {
  if (!text.includes('://')) return text;
  return text.replace(URL_IN_TEXT, (url) => maskUrlCredentials(url));
}

/**
 * A URL safe to show: the userinfo (`user:password@`) becomes `••••@` and the value of each
 * secret-looking query parameter (see {@link isSecretQueryParameter}) becomes `••••`; variable
 * references (`${input:…}`, `${env:…}`) stay as written. Done on the text, not through `URL`, so
 * the URL is shown exactly as written otherwise (and one with unresolved variables still works).
 */
export function maskUrlCredentials(url: string): string {
  const m = /^([a-z][\w+.-]*:\/\/)([^/?#]*)(.*)$/is.exec(url);
  if (!m) return url;
  const [, scheme, authority, tail] = m;
  const at = authority.lastIndexOf('@');
  const host = at < 0 ? authority : `${maskLiterals(authority.slice(0, at), ':')}@${authority.slice(at + 1)}`;
  const query = /^([^?#]*\?)([^#]*)(.*)$/s.exec(tail);
  if (!query) return scheme + host + tail;
  const params = query[2].split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq < 0) return pair;
    const name = pair.slice(0, eq);
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      // shown as written
    }
    return isSecretQueryParameter(decoded) ? `${name}=${maskLiterals(pair.slice(eq + 1))}` : pair;
  });
  return `${scheme}${host}${query[1]}${params.join('&')}${query[3]}`;
}

/**
 * `text` with every literal run masked and every variable reference kept (`${env:A}••••`);
 * `separator` stays visible between runs (`••••:${env:PASS}` for a URL's user and password).
 */
export function maskLiterals(text: string, separator?: string): string {
  return mapLiterals(text, (run) => (separator ? run.split(separator).map(maskLiteral).join(separator) : maskLiteral(run)));
}

/**
 * An `env` value as written, safe to show: variable references stay, and a literal run that may
 * be a secret (8 characters or more, not a number or boolean: the redactor's rule for env values)
 * becomes `••••`. `"${workspaceFolder}/src"` and `"info"` are shown as they are.
 */
export function maskEnvValue(value: string): string {
  return mapLiterals(value, (run) => (mayBeSecret(run.trim()) ? REDACTED : run));
}

/** `text` with each run between variable references replaced by `map(run)`; the references stay. */
function mapLiterals(text: string, map: (run: string) => string): string {
  let out = '';
  let last = 0;
  for (const ref of findVariables(text)) {
    if (ref.start > last) out += map(text.slice(last, ref.start));
    out += text.slice(ref.start, ref.end);
    last = ref.end;
  }
  if (last < text.length) out += map(text.slice(last));
  return out;
}

/** A command line for display, POSIX-quoted where needed so it reads the way it runs. Redact the result before showing it. */
export function formatCommandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map(quoteArg).join(' ');
}

/**
 * The command line a person is shown (consent, Server Details, the tree's tooltip): as
 * {@link formatCommandLine}, with absolute paths as {@link displayPath} shows them. Logs keep the exact one.
 */
export function displayCommandLine(command: string, args: readonly string[]): string {
  return formatCommandLine(displayPath(command), maskCredentialArguments(args).map(displayPath));
}

/**
 * Arguments safe to show or write down: the value of a flag named as a credential (`--token X`,
 * `--api-key=X`, `--client-secret X`: the names {@link isSecretQueryParameter} knows) becomes
 * `••••`, variable references kept. What consent, Server Details and recordings show of a command.
 */
export function maskCredentialArguments(args: readonly string[]): string[] {
  const isCredentialFlag = (flag: string) => /^--?[A-Za-z]/.test(flag) && isSecretQueryParameter(flag.replace(/^--?/, ''));
  const out: string[] = [];
  let valueNext = false;
  for (const arg of args) {
    if (valueNext && !arg.startsWith('-')) {
      out.push(maskLiterals(arg));
      valueNext = false;
      continue;
    }
    const eq = arg.indexOf('=');
    if (eq > 0 && isCredentialFlag(arg.slice(0, eq))) out.push(`${arg.slice(0, eq)}=${maskLiterals(arg.slice(eq + 1))}`);
    else out.push(arg);
    valueNext = eq < 0 && isCredentialFlag(arg);
  }
  return out;
}

/**
 * A path as a person reads it: `.` segments and doubled separators dropped, and `..` resolved
 * (`/w/demo/../node_modules/x` is `/w/node_modules/x`) only where that names the same file. After
 * a symbolic link `..` climbs from the link's target, so `/w/link/../x` may run a file outside
 * `/w`: such a path, or one that does not exist, is shown as written. Only absolute POSIX or
 * Windows paths; anything else is returned as is.
 */
export function displayPath(text: string): string {
  const windows = /^[A-Za-z]:[\\/]/.test(text);
  if (!windows && !text.startsWith('/')) return text;
  const sep = windows ? '\\' : '/';
  const [head, ...rest] = text.split(/[\\/]/);
  const out: string[] = [];
  let climbs = false;
  for (const segment of rest) {
    if (segment === '.' || segment === '') continue;
    if (segment === '..') {
      climbs = true;
      out.pop();
    } else out.push(segment);
  }
  const clean = `${head}${sep}${out.join(sep)}`;
  return climbs && !sameFile(text, clean) ? text : clean;
}

/** Both paths exist and name the same file. Checked each time: a workspace can change its links. */
function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync.native(a) === realpathSync.native(b);
  } catch {
    return false;
  }
}

function quoteArg(arg: string): string {
  // `••••` (a masked value) is no shell syntax: quoting it would only hide that it was masked.
  if (arg !== '' && /^[\w@%+=:,./~\u2022-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * A header value as written in the config, safe to show: for a secret header (see
 * `isSecretHeader`) variable references and the auth scheme stay ("Bearer ${input:token}") and
 * every literal credential becomes `••••` ("Bearer ••••"); other headers are shown as they are.
 */
export function maskHeaderValue(name: string, configValue: string): string {
  if (!isSecretHeader(name, configValue)) return configValue;
  const scheme = /^([A-Za-z][\w-]*)(\s+)(?=\S)/.exec(configValue);
  const rest = scheme ? configValue.slice(scheme[0].length) : configValue;
  return (scheme ? scheme[0] : '') + maskLiterals(rest);
}

function maskLiteral(text: string): string {
  return text.trim() === '' ? text : REDACTED;
}

/** The transport of a remote server in words: the one in use when known, else what the config asks for. */
export function transportLabel(configured: 'http' | 'sse', inUse?: 'streamable-http' | 'sse'): string {
  if (inUse) return inUse === 'sse' ? 'HTTP+SSE' : 'Streamable HTTP';
  return configured === 'sse' ? 'HTTP+SSE' : 'HTTP';
}
