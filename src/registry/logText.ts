import { findVariables, isSecretHeader } from '../config/variables';

/** What replaces a secret in log text. */
export const REDACTED = '••••';

/** Secrets shorter than this are not redacted: replacing every "a" would make logs unreadable. */
export const MIN_REDACTED_LENGTH = 4;

/**
 * Replaces every occurrence of each secret in `text` with `••••`. Longer secrets first, so a
 * secret containing another is replaced whole.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of [...secrets].filter((s) => s.length >= MIN_REDACTED_LENGTH).sort((a, b) => b.length - a.length)) {
    out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** A command line for display, POSIX-quoted where needed so it reads the way it runs. */
export function formatCommandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map(quoteArg).join(' ');
}

function quoteArg(arg: string): string {
  if (arg !== '' && /^[\w@%+=:,./~-]+$/.test(arg)) return arg;
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
  let out = '';
  let last = 0;
  for (const ref of findVariables(rest)) {
    if (ref.start > last) out += maskLiteral(rest.slice(last, ref.start));
    out += rest.slice(ref.start, ref.end);
    last = ref.end;
  }
  if (last < rest.length) out += maskLiteral(rest.slice(last));
  return (scheme ? scheme[0] : '') + out;
}

function maskLiteral(text: string): string {
  return text.trim() === '' ? text : REDACTED;
}

/** The transport of a remote server in words: the one in use when known, else what the config asks for. */
export function transportLabel(configured: 'http' | 'sse', inUse?: 'streamable-http' | 'sse'): string {
  if (inUse) return inUse === 'sse' ? 'HTTP+SSE' : 'Streamable HTTP';
  return configured === 'sse' ? 'HTTP+SSE' : 'HTTP';
}
