// RFC 6570 URI Templates, levels 1–4: parsing, expansion, and the variables a template uses (for
// the resource template input flow). There is deliberately no matcher (URI → variables): the
// regex-based one backtracked catastrophically on templates from servers, and nothing used it.

/** A value a variable can take: a string, a list, or an associative array (object or pairs). */
export type TemplateValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[] | Readonly<Record<string, string | number | boolean>>;

export type Operator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

export interface VarSpec {
  readonly name: string;
  /** `{var:3}`: the first 3 characters of a string value. */
  readonly prefix?: number;
  /** `{var*}`: lists and maps expand into one item each. */
  readonly explode: boolean;
}

export type TemplatePart = { readonly kind: 'literal'; readonly text: string } | { readonly kind: 'expression'; readonly operator: Operator; readonly vars: readonly VarSpec[]; readonly raw: string };

export interface ParsedTemplate {
  readonly parts: readonly TemplatePart[];
  /** Problems found while parsing; an expression with a problem is kept as literal text. */
  readonly errors: readonly string[];
}

interface OperatorRules {
  readonly first: string;
  readonly sep: string;
  readonly named: boolean;
  readonly ifEmpty: string;
  /** Reserved characters pass unencoded (`+` and `#`). */
  readonly allowReserved: boolean;
}

const RULES: Record<Operator, OperatorRules> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', allowReserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', allowReserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', allowReserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', allowReserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', allowReserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', allowReserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', allowReserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', allowReserved: false },
};

const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;

/** Parses a template; never throws (problems are listed in `errors`). */
export function parseTemplate(template: string): ParsedTemplate {
  const parts: TemplatePart[] = [];
  const errors: string[] = [];
  let literal = '';
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    const closeBefore = template.indexOf('}', i);
    if (closeBefore >= 0 && (open < 0 || closeBefore < open)) errors.push(`unmatched "}" at ${closeBefore}`);
    if (open < 0) {
      literal += template.slice(i);
      break;
    }
    literal += template.slice(i, open);
    const close = template.indexOf('}', open + 1);
    if (close < 0) {
      errors.push(`unclosed "{" at ${open}`);
      literal += template.slice(open);
      break;
    }
    const raw = template.slice(open, close + 1);
    const expression = parseExpression(template.slice(open + 1, close));
    if (typeof expression === 'string') {
      errors.push(`${raw}: ${expression}`);
      literal += raw;
    } else {
      if (literal) parts.push({ kind: 'literal', text: literal });
      literal = '';
      parts.push({ kind: 'expression', operator: expression.operator, vars: expression.vars, raw });
    }
    i = close + 1;
  }
  if (literal) parts.push({ kind: 'literal', text: literal });
  return { parts, errors };
}

function parseExpression(body: string): { operator: Operator; vars: VarSpec[] } | string {
  let operator: Operator = '';
  let rest = body;
  if (rest.length > 0 && '+#./;?&'.includes(rest[0])) {
    operator = rest[0] as Operator;
    rest = rest.slice(1);
  } else if (rest.length > 0 && '=,!@|'.includes(rest[0])) {
    return `the operator "${rest[0]}" is reserved`;
  }
  if (rest === '') return 'no variable';
  const vars: VarSpec[] = [];
  for (const spec of rest.split(',')) {
    let name = spec;
    let explode = false;
    let prefix: number | undefined;
    if (name.endsWith('*')) {
      explode = true;
      name = name.slice(0, -1);
    } else {
      const colon = name.indexOf(':');
      if (colon >= 0) {
        const digits = name.slice(colon + 1);
        if (!/^[1-9]\d{0,3}$/.test(digits)) return `bad prefix ":${digits}"`;
        prefix = Number(digits);
        name = name.slice(0, colon);
      }
    }
    if (!VARNAME.test(name)) return `bad variable name "${name}"`;
    vars.push(prefix === undefined ? { name, explode } : { name, explode, prefix });
  }
  return { operator, vars };
}

/** The variables of a template, each once, in order of first use. */
export function templateVariables(template: string): string[] {
  const seen: string[] = [];
  for (const part of parseTemplate(template).parts) {
    if (part.kind !== 'expression') continue;
    for (const v of part.vars) if (!seen.includes(v.name)) seen.push(v.name);
  }
  return seen;
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

function encode(text: string, allowReserved: boolean): string {
  let out = '';
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (UNRESERVED.test(c) || (allowReserved && RESERVED.test(c))) out += c;
    else if (allowReserved && c === '%' && /^[0-9A-Fa-f]{2}$/.test(chars.slice(i + 1, i + 3).join(''))) out += c;
    else out += [...new TextEncoder().encode(c)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

function encodeLiteral(text: string): string {
  // Literals keep reserved and unreserved characters; everything else is percent-encoded.
  return encode(text, true);
}

type Defined = { kind: 'string'; value: string } | { kind: 'list'; value: string[] } | { kind: 'map'; value: Array<[string, string]> };

function defined(value: TemplateValue): Defined | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return { kind: 'string', value: String(value) };
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    // A list of [key, value] pairs is an associative array.
    if (value.every((x) => Array.isArray(x) && x.length === 2)) return { kind: 'map', value: (value as unknown as Array<[unknown, unknown]>).map(([k, v]) => [String(k), String(v)]) };
    return { kind: 'list', value: value.map(String) };
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined && v !== null);
  return entries.length === 0 ? undefined : { kind: 'map', value: entries.map(([k, v]) => [k, String(v)]) };
}

/** Expands a template with the given variables (RFC 6570 section 3). */
export function expandTemplate(template: string, variables: Readonly<Record<string, TemplateValue>>): string {
  let out = '';
  for (const part of parseTemplate(template).parts) {
    if (part.kind === 'literal') {
      out += encodeLiteral(part.text);
      continue;
    }
    const rules = RULES[part.operator];
    const items: string[] = [];
    for (const spec of part.vars) {
      const value = defined(Object.prototype.hasOwnProperty.call(variables, spec.name) ? variables[spec.name] : undefined);
      if (!value) continue;
      const enc = (s: string) => encode(s, rules.allowReserved);
      const named = (name: string, v: string) => (rules.named ? (v === '' ? `${name}${rules.ifEmpty}` : `${name}=${v}`) : v);
      switch (value.kind) {
        case 'string': {
          const text = spec.prefix !== undefined ? [...value.value].slice(0, spec.prefix).join('') : value.value;
          items.push(named(spec.name, enc(text)));
          break;
        }
        case 'list':
          if (spec.explode) items.push(value.value.map((v) => named(spec.name, enc(v))).join(rules.sep));
          else items.push(named(spec.name, value.value.map(enc).join(',')));
          break;
        case 'map':
          if (spec.explode) items.push(value.value.map(([k, v]) => (rules.named ? (v === '' ? `${enc(k)}${rules.ifEmpty}` : `${enc(k)}=${enc(v)}`) : `${enc(k)}=${enc(v)}`)).join(rules.sep));
          else items.push(named(spec.name, value.value.map(([k, v]) => `${enc(k)},${enc(v)}`).join(',')));
          break;
        default: {
          const never: never = value;
          return never;
        }
      }
    }
    if (items.length > 0) out += rules.first + items.join(rules.sep);
  }
  return out;
}
