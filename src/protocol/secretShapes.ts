// What looks like a secret, for the one redaction (redaction.ts) and the config layer that
// decides what to hide: `${…}` variable references as configuration files write them, header names
// that carry credentials, and values long enough to be a secret.

/** A `${…}` occurrence in a string. */
export interface VariableReference {
  /** The text between the braces. */
  readonly name: string;
  /** Offset of `$` in the string. */
  readonly start: number;
  /** Offset after `}`. */
  readonly end: number;
}

/** A `${…}` variable reference; global, so use it with `matchAll` or `replace`. */
export const VARIABLE_REFERENCE = /\$\{([^}]*)\}/g;

/** Every `${…}` in `text`, in order. */
export function findVariables(text: string): VariableReference[] {
  const out: VariableReference[] = [];
  for (const m of text.matchAll(VARIABLE_REFERENCE)) out.push({ name: m[1], start: m.index!, end: m.index! + m[0].length });
  return out;
}

/** Header names whose values are credentials whatever they contain. */
const CREDENTIAL_HEADER = /^(authorization|proxy-authorization|cookie)$|api[-_]?key|token|secret|password/i;

/** True when a header's value must never be shown: a credential name, or a value taken from an input. */
export function isSecretHeader(name: string, configValue: string): boolean {
  return CREDENTIAL_HEADER.test(name) || findVariables(configValue).some((v) => v.name.startsWith('input:'));
}

/** Shortest value from the environment, envFile or env that is redacted (an input's value always is). */
export const MIN_ENV_SECRET_LENGTH = 8;

/**
 * False for settings that cannot be secrets and would, hidden, wreck every log and trace line:
 * `DEBUG=true`, `LOG_LEVEL=info`, `PORT=8080` (short values, numbers and booleans).
 */
export function mayBeSecret(value: string): boolean {
  return value.length >= MIN_ENV_SECRET_LENGTH && !/^(?:true|false|null|-?\d+(?:\.\d+)?)$/i.test(value);
}
