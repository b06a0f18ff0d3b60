// Server schemas and text are untrusted input handled on the extension host: patterns on the
// linear-time engine, ajv's work bounded, every walk over server JSON bounded, no regex of ours
// backtracking on server values (issue 8, items 2 and 11).
// Each case below froze or crashed the host before (`^(a+)+$` against 29 characters ≈ 10 s,
// 10,000 properties ≈ 71 s); the tests check the answers and the reasons given, and
// `npm run bench -- --only hostile` measures how long the cases take (no clock in tests).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { TOO_DEEP_FOR_FORM, buildFormModel } from '../../src/forms/model';
import { checkForm, validate } from '../../src/forms/fieldChecks';
import { initialState } from '../../src/forms/state';
import { checkFormat } from '../../src/schema/formats';
import { PATTERN_NOT_SUPPORTED, compileSafePattern } from '../../src/schema/safePattern';
import { looksLikeMarkdown } from '../../src/content/markdown';
import { SchemaValidator } from '../../src/schema/validator';
import { TOO_DEEP_MARKER, cutDeepJson, measureJson } from '../../src/protocol/jsonShape';
import { ElicitationService, FormAnswer } from '../../src/serverRequests/elicitation';
import { DialogQueue } from '../../src/serverRequests/dialogQueue';
import { restrictedSchemaProblems } from '../../src/serverRequests/elicitation';

const BOMB = '^(a+)+$';
const bombInput = (n = 29) => `${'a'.repeat(n)}!`;

/** `anyOf: [<chain>, { type: 'null' }]` nested `n` times around a string. */
function nullableChain(n: number): unknown {
  let schema: unknown = { type: 'string' };
  for (let i = 0; i < n; i++) schema = { anyOf: [schema, { type: 'null' }] };
  return schema;
}

describe('the safe pattern engine', () => {
  test('ECMA-262 patterns run on RE2, with the escapes RE2 spells differently translated', () => {
    const cases: Array<[string, string, boolean]> = [
      ['^[A-Z]+$', 'ABC', true],
      ['^\\u0041+$', 'AAA', true],
      ['^\\u{1F600}$', '😀', true],
      ['^\\d{3}-\\d{4}$', '555-1234', true],
      ['^[^]$', '\n', true],
      ['^\\\\u0041$', '\\u0041', true],
      [BOMB, bombInput(), false],
    ];
    for (const [pattern, input, expected] of cases) {
      const compiled = compileSafePattern(pattern);
      assert.ok(compiled.ok, `${pattern} compiles`);
      assert.equal(compiled.test(input), expected, `${pattern} on ${JSON.stringify(input)}`);
    }
  });

  test('backreferences and lookaround are not run: "not supported by the safe engine"; broken patterns are syntax errors', () => {
    for (const pattern of ['^(a)\\1$', '(?=a)a', '(?<!a)b', '\\k<x>(?<x>a)']) {
      const compiled = compileSafePattern(pattern);
      assert.ok(!compiled.ok && compiled.kind === 'unsupported' && compiled.reason === PATTERN_NOT_SUPPORTED, pattern);
    }
    const broken = compileSafePattern('(');
    assert.ok(!broken.ok && broken.kind === 'syntax');
    const long = compileSafePattern('a'.repeat(1001));
    assert.ok(!long.ok && long.kind === 'unsupported' && /longer than 1000/.test(long.reason));
  });
});

describe('forms from server schemas', () => {
  test('a tool form with a server default is submitted: the catastrophic pattern is checked on the linear-time engine', () => {
    const model = buildFormModel({ type: 'object', properties: { s: { type: 'string', pattern: BOMB, default: bombInput() } } });
    const value = checkForm(model, initialState(model));
    assert.deepEqual(value.errors.map((e) => [e.path, e.keyword]), [['/s', 'pattern']]);
  });

  test('pattern work per validation is bounded: 60 long fields under a large pattern stop within the pattern budget', () => {
    const pattern = `^(?:${'a?'.repeat(450)})${'a'.repeat(45)}$`;
    const properties = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}`, { type: 'string', pattern }]));
    const model = buildFormModel({ type: 'object', properties });
    const value = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}`, `${'a'.repeat(9_999)}b`]));
    const errors = validate(model, value);
    assert.ok(errors.length >= 1 && errors.length < 60, `${errors.length} fields checked before the budget ran out`);
  });

  test('the webviews never run a server pattern: patterns are checked on the host only', () => {
    // The form scripts show `pattern` as a hint; a RegExp built there, or an <input pattern>
    // (which the browser would run on every keystroke), would put a server pattern back on a
    // backtracking engine.
    const media = resolve(__dirname, '../../../media');
    for (const dir of ['webview', 'dialogs']) {
      for (const name of readdirSync(join(media, dir)).filter((n) => n.endsWith('.js'))) {
        const source = readFileSync(join(media, dir, name), 'utf8');
        assert.doesNotMatch(source, /\bRegExp\s*\(/, `${dir}/${name} builds a RegExp`);
        // An object key or attribute name `pattern` (not a member read such as `field.pattern : …`).
        assert.doesNotMatch(source, /(?<![.\w])pattern\s*:|['"]pattern['"]/, `${dir}/${name} sets a pattern attribute`);
      }
    }
  });

  test('a pattern the safe engine cannot run is shown with a note and never blocks the form', () => {
    const model = buildFormModel({ type: 'object', properties: { s: { type: 'string', pattern: '^(a)\\1$' } } });
    const field = model.kind === 'object' ? model.properties[0].field : undefined;
    assert.ok(field?.kind === 'string');
    assert.equal(field.pattern, undefined);
    assert.equal(field.patternNote, 'pattern ^(a)\\1$ not checked: not supported by the safe engine');
    assert.deepEqual(validate(model, { s: 'anything' }), []);
  });

  test('10,000 nested nullable wrappers: a JSON field "nested too deeply for a form", no stack overflow', () => {
    const model = buildFormModel({ type: 'object', properties: { x: nullableChain(10_000) } });
    assert.ok(model.kind === 'object');
    const x = model.properties[0].field;
    assert.equal(x.kind, 'json');
    assert.equal(x.kind === 'json' && x.reason, TOO_DEEP_FOR_FORM);
    assert.equal(x.nullable, true);
    // A few wrappers are still a plain nullable field.
    const shallow = buildFormModel(nullableChain(3));
    assert.equal(shallow.kind, 'string');
    assert.equal(shallow.nullable, true);
  });

  test('an elicitation with the same chain is refused as a bad schema (-32602), not a crash', () => {
    const problems = restrictedSchemaProblems({ type: 'object', properties: { x: { type: 'string', anyOf: [nullableChain(10_000), { type: 'null' }] } } });
    assert.match(problems.join('; '), /not a flat field/);
  });

  test('elicitation: a server default pre-filled into a pattern-bomb field is checked on every keystroke on the linear-time engine', async () => {
    let checks = 0;
    let errors: string[] = [];
    const service = new ElicitationService({
      queue: new DialogQueue(() => 3),
      prompter: {
        form: async (_server, view, check): Promise<FormAnswer> => {
          // What the form does on each keystroke: check the state shown.
          for (let i = 0; i < 3; i++) {
            const value = check(view.state);
            checks++;
            errors = value.ok ? [] : value.errors.map((e) => `${e.path} ${e.keyword}`);
          }
          return { action: 'decline' };
        },
        url: async () => 'decline',
        awaitCompletion: async () => true,
        notify: () => {},
      },
      log: () => {},
      modes: ['form'],
      openUrl: async () => false,
    });
    const params = { message: 'Code?', requestedSchema: { type: 'object', properties: { code: { type: 'string', pattern: BOMB, default: bombInput() } } } };
    assert.deepEqual(await service.handle({ id: 's', name: 'S' }, params, { id: 1, signal: new AbortController().signal }), { action: 'decline' });
    assert.equal(checks, 3);
    assert.deepEqual(errors, ['/code pattern']);
  });
});

describe('ajv on server schemas and results is bounded', () => {
  const validator = new SchemaValidator();

  test('format "email" on a long server value is checked without backtracking, with the same answers as before', () => {
    const value = validator.check({ type: 'string', format: 'email' }, `a@${'.'.repeat(200_000)} `);
    assert.equal(value.kind, 'invalid');
    const verdicts = ['a@b.co', 'a@b.c.d', 'a.b@c.d', 'a@.b.c', '@b.co', 'a@b', 'a@b.', 'a@.b', 'a b@c.d', 'a@b@c.d', 'a@b..c'].map((v) => [v, checkFormat('email', v)]);
    assert.deepEqual(verdicts, [
      ['a@b.co', true],
      ['a@b.c.d', true],
      ['a.b@c.d', true],
      ['a@.b.c', true],
      ['@b.co', false],
      ['a@b', false],
      ['a@b.', false],
      ['a@.b', false],
      ['a b@c.d', false],
      ['a@b@c.d', false],
      ['a@b..c', true],
    ]);
  });

  test('a 10,000-property schema: "schema too large to check" at once', () => {
    const properties = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`p${i}`, { type: 'string' }]));
    const value = validator.check({ type: 'object', properties }, { p0: 'x' });
    assert.equal(value.kind, 'unchecked');
    assert.match(value.kind === 'unchecked' ? value.reason : '', /^schema too large to check/);
  });

  test('uniqueItems over 20,000 objects or strings: "too costly to check"; a short array is still checked', () => {
    const schema = { type: 'array', uniqueItems: true };
    for (const items of [Array.from({ length: 20_000 }, (_, i) => ({ i })), Array.from({ length: 20_000 }, (_, i) => `s${i}`)]) {
      const value = validator.check(schema, items);
      assert.match(value.kind === 'unchecked' ? value.reason : JSON.stringify(value), /^too costly to check \(uniqueItems/);
    }
    assert.equal(validator.check(schema, [{ i: 1 }, { i: 1 }]).kind, 'invalid');
    assert.equal(validator.check(schema, Array.from({ length: 2000 }, (_, i) => `s${i}`)).kind, 'valid');
  });

  test('a long enum against many values: "too costly to check" (every value is compared with every member)', () => {
    const members = Array.from({ length: 2500 }, (_, i) => `m${i}`);
    const value = validator.check({ type: 'array', items: { enum: members } }, Array.from({ length: 30_000 }, (_, i) => `v${i}`));
    assert.match(value.kind === 'unchecked' ? value.reason : JSON.stringify(value).slice(0, 200), /^too costly to check \(30001 values against a schema of 2504\)/);
  });

  test('pattern work is budgeted per check: many long values against a large pattern stop with "too costly to check"', () => {
    const pattern = `^(${Array.from({ length: 150 }, (_, i) => `x${i}`).join('|')}|a)*$`;
    const values = Array.from({ length: 200 }, () => 'a'.repeat(10_000));
    const value = validator.check({ type: 'array', items: { type: 'string', pattern } }, values);
    assert.match(value.kind === 'unchecked' ? value.reason : JSON.stringify(value), /^too costly to check \(the patterns/);
  });

  test('a value nested 5,000 levels deep is not walked: "too costly to check"', () => {
    const deep = JSON.parse(`${'['.repeat(5000)}${']'.repeat(5000)}`);
    const value = validator.check({ type: 'array' }, deep);
    assert.match(value.kind === 'unchecked' ? value.reason : JSON.stringify(value), /nested more than 256 levels/);
  });

  test('anyOf/oneOf/allOf branches over a recursive $ref: each level multiplies the work, so deep values are "too costly to check"', () => {
    // Both branches recurse into the same member: the work doubles per level (30 levels: about 45 s before this bound).
    const schema = { anyOf: [{ allOf: [{ items: { $ref: '#' } }, { maxItems: 0 }] }, { items: { $ref: '#' } }] };
    const nested = (depth: number): unknown => (depth === 0 ? [] : [nested(depth - 1)]);
    const deep = validator.check(schema, nested(30));
    assert.match(deep.kind === 'unchecked' ? deep.reason : JSON.stringify(deep), /^too costly to check \(anyOf\/oneOf\/allOf branches over a recursive \$ref, on a value nested 31 levels deep\)/);
    assert.equal(validator.check(schema, nested(8)).kind, 'valid', 'a shallow value is still checked');
    assert.equal(validator.check({ ...schema, type: 'array', maxItems: 1 }, [[], []]).kind, 'invalid');
    // Recursion without branches stays linear: a deep tree is checked.
    const tree = { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } } };
    const chain = (depth: number): unknown => ({ name: `n${depth}`, children: depth === 0 ? [] : [chain(depth - 1)] });
    assert.equal(validator.check(tree, chain(100)).kind, 'valid');
    assert.equal(validator.check(tree, { name: 1, children: [] }).kind, 'invalid');
    // A reference cycle that never moves into the value would recurse without end.
    const cycle = validator.check({ $defs: { a: { allOf: [{ $ref: '#/$defs/b' }] }, b: { anyOf: [{ $ref: '#/$defs/a' }] } }, $ref: '#/$defs/a' }, 1);
    assert.deepEqual(cycle, { kind: 'unusable', reason: 'the schema refers to itself without moving into the value (a $ref cycle)' });
  });

  test('a remote $ref is never fetched: that part is "not checked", the rest of the schema still is', async () => {
    let fetched = 0;
    const canary = createServer((_req, res) => {
      fetched++;
      res.end('{"type":"object"}');
    });
    await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
    try {
      const ref = `http://127.0.0.1:${(canary.address() as AddressInfo).port}/canary/profile-schema.json`;
      const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', $defs: { userId: { type: 'string', pattern: '^[a-z0-9-]+$' } }, properties: { id: { $ref: '#/$defs/userId' }, profile: { $ref: ref } }, required: ['id'] };
      const note = `$ref ${ref} not checked: remote schemas are never fetched`;
      assert.deepEqual(validator.check(schema, { id: 'user-1', profile: { displayName: 42 } }), { kind: 'valid', unchecked: [note] });
      const invalid = validator.check(schema, { id: 'User 1' });
      assert.deepEqual(invalid.kind === 'invalid' && [invalid.errors.map((e) => e.path), invalid.unchecked], [['/id'], [note]]);
      assert.equal(fetched, 0, 'the canary URL was never requested');
    } finally {
      await new Promise((resolve) => canary.close(resolve));
    }
  });

  test('patterns inside patternProperties go through the safe engine too; distinct patterns stay distinct', () => {
    const schema = { type: 'object', patternProperties: { '^(a+)+$': { type: 'integer' }, '^b+$': { type: 'string' } } };
    const check = validator.check(schema, { [bombInput()]: 'not checked as an integer', bbb: 1 });
    assert.equal(check.kind, 'invalid');
    assert.deepEqual(check.kind === 'invalid' && check.errors.map((e) => e.path), ['/bbb']);
  });
});

describe('server text', () => {
  // Before: about 1 s for 20,000 "[" (quadratic), per text part shown.
  test('guessing whether text is Markdown on runs of brackets answers (a linear scan; timed in the benchmark)', () => {
    for (const text of ['['.repeat(20_000), '[a]('.repeat(5000)]) {
      const value = looksLikeMarkdown(text);
      assert.equal(value, false, `${JSON.stringify(text.slice(0, 8))}…`);
    }
    assert.equal(looksLikeMarkdown('see [the docs](https://example.com/docs) and ## not a heading'), true);
  });
});

describe('measuring and cutting server JSON without recursion', () => {
  test('measureJson stops at its limits; cutDeepJson keeps the top and marks the rest', () => {
    const deep = JSON.parse(`${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`);
    assert.equal(measureJson(deep, { maxDepth: 100 }).exceeded, 'depth');
    assert.deepEqual(measureJson({ a: [1, [2], { b: [] }] }), { values: 7, depth: 4, longestArray: 3 });
    assert.deepEqual(measureJson('x'), { values: 1, depth: 0, longestArray: 0 });
    assert.equal(measureJson(Array.from({ length: 50 }, () => 1), { maxValues: 10 }).exceeded, 'values');
    const cut = cutDeepJson(deep, 3);
    assert.equal(cut.cut, true);
    assert.deepEqual(cut.value, { a: { a: { a: TOO_DEEP_MARKER } } });
    const shallow = { a: [1] };
    assert.equal(cutDeepJson(shallow, 3).value, shallow);
  });
});
