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
