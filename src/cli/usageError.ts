// The error of a mistake on the command line, apart from the parser so every part of it can throw one.

/** A mistake on the command line; exits with code 2 and a hint to `--help`. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
