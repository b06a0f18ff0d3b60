// The string formats checked on the host (the form and ajv use the same checks), each in linear time.

/** String formats the form checks; other formats are shown and passed through unchecked. */
export const CHECKED_FORMATS = ['email', 'uri', 'date', 'date-time', 'uuid'] as const;
export type CheckedFormat = (typeof CHECKED_FORMATS)[number];

/** True for the formats of CHECKED_FORMATS. */
export function isCheckedFormat(format: string | undefined): format is CheckedFormat {
  return (CHECKED_FORMATS as readonly string[]).includes(format ?? '');
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const URI_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

function validDate(y: string, m: string, d: string): boolean {
  const year = Number(y);
  const month = Number(m);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1) return false;
  const days = [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return day <= days[month - 1];
}

/**
 * `local@domain.tld`: one `@`, no whitespace, a dot inside the domain. Written without a regex:
 * the obvious one (`^[^\s@]+@[^\s@]+\.[^\s@]+$`) backtracks quadratically, and servers choose
 * the values checked (50,000 characters took 12 s).
 */
function isEmail(value: string): boolean {
  const at = value.indexOf('@');
  if (at <= 0 || value.includes('@', at + 1) || /\s/.test(value)) return false;
  return value.slice(at + 2, -1).includes('.');
}

/** Checks a string against one of CHECKED_FORMATS; other formats always pass. */
export function checkFormat(format: string, value: string): boolean {
  switch (format) {
    case 'email':
      return isEmail(value);
    case 'uri': {
      if (!URI_SCHEME.test(value) || /\s/.test(value)) return false;
      try {
        new URL(value);
        return true;
      } catch {
        return false;
      }
    }
    case 'date': {
      const m = DATE.exec(value);
      return !!m && validDate(m[1], m[2], m[3]);
    }
    case 'date-time': {
      const m = DATE_TIME.exec(value);
      return !!m && validDate(m[1], m[2], m[3]) && Number(m[4]) < 24 && Number(m[5]) < 60 && Number(m[6]) < 61;
    }
    case 'uuid':
      return UUID.test(value);
    default:
      return true;
  }
}

/** How a format reads in a message: "must be an email address". */
export const FORMAT_HINT: Record<string, string> = {
  email: 'an email address',
  uri: 'an absolute URI (scheme:…)',
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date and time (2025-01-31T12:00:00Z)',
  uuid: 'a UUID',
};

/**
 * Values every pattern that restates a format accepts (common, plain ones) or refuses (plainly not
 * of the format). Schema generators such as zod write a `pattern` beside the `format` (a
 * 100-character regex for an email address) that says the same in a stricter dialect.
 */
const FORMAT_SAMPLES: Readonly<Record<CheckedFormat, { readonly valid: readonly string[]; readonly invalid: readonly string[] }>> = {
  email: { valid: ['user@example.com', 'first.last+tag@mail.example.org'], invalid: ['plain', 'user@', '@example.com', 'a b@example.com', 'user@example'] },
  uri: { valid: ['https://example.com/a?b=c', 'urn:isbn:0451450523'], invalid: ['example.com', 'not a uri'] },
  date: { valid: ['2025-01-31', '2024-02-29'], invalid: ['2025-13-01', '2025-02-30', '20250131', 'today'] },
  'date-time': { valid: ['2025-01-31T12:00:00Z', '2024-02-29T23:59:59.5Z'], invalid: ['2025-01-31', '2025-01-31T25:00:00Z', 'now'] },
  uuid: { valid: ['123e4567-e89b-42d3-a456-426614174000', 'f47ac10b-58cc-4372-a567-0e02b2c3d479'], invalid: ['not-a-uuid', '123e4567e89b42d3a456426614174000'] },
};

/**
 * Whether a pattern (given as its test) says what `format` says: it accepts the format's plain
 * values and refuses plain non-values. Then the format alone is shown and reported (a pattern
 * that narrows the format, such as one domain for an email address, fails the check and stays).
 */
export function patternRestatesFormat(format: string | undefined, test: (value: string) => boolean): boolean {
  if (!isCheckedFormat(format)) return false;
  const samples = FORMAT_SAMPLES[format];
  return samples.valid.every((v) => test(v)) && samples.invalid.every((v) => !test(v));
}
