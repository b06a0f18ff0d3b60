import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { WireError } from '../../src/protocol/errors';
import { ErrorCodes } from '../../src/protocol/messages';
import { checkContent, checkFormState, initialFormState, parseElicitation, restrictedSchemaProblems, urlElicitationsFromError } from '../../src/serverRequests/elicitation';
import { ResponseError } from '../../src/protocol/errors';

/** The schema server-everything's trigger-elicitation-request sends (every field kind of the spec). */
const SCHEMA = {
  type: 'object',
  properties: {
    name: { title: 'String', type: 'string', minLength: 2, maxLength: 20 },
    check: { title: 'Boolean', type: 'boolean' },
    firstLine: { type: 'string', default: 'It was a dark and stormy night.' },
    email: { type: 'string', format: 'email' },
    homepage: { type: 'string', format: 'uri' },
    birthdate: { type: 'string', format: 'date' },
    integer: { type: 'integer', minimum: 1, maximum: 100, default: 42 },
    number: { type: 'number', minimum: 0, maximum: 1000 },
    single: { type: 'string', enum: ['Monica', 'Rachel'] },
    multi: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['Guitar', 'Piano', 'Drums'] } },
    titled: { type: 'string', oneOf: [{ const: 'hero-1', title: 'Superman' }, { const: 'hero-2', title: 'Wonder Woman' }] },
    titledMulti: { type: 'array', items: { anyOf: [{ const: 'fish-1', title: 'Tuna' }, { const: 'fish-2', title: 'Salmon' }] }, default: ['fish-1'] },
    legacy: { type: 'string', enum: ['pet-1', 'pet-2'], enumNames: ['Cats', 'Dogs'], default: 'pet-2' },
  },
  required: ['name'],
};

function form(schema: unknown = SCHEMA) {
  const parsed = parseElicitation({ mode: 'form', message: 'Tell me', requestedSchema: schema }, ['form', 'url']);
  assert.equal(parsed.mode, 'form');
  return parsed.mode === 'form' ? parsed.model : assert.fail();
}

function invalidParams(fn: () => unknown, pattern: RegExp) {
  assert.throws(fn, (e: unknown) => e instanceof WireError && e.code === ErrorCodes.InvalidParams && pattern.test(e.message));
}

describe('elicitation mode gating', () => {
  test('a mode the host did not declare is -32602', () => {
    invalidParams(() => parseElicitation({ mode: 'url', message: 'm', elicitationId: 'e', url: 'https://x.example' }, ['form']), /mode "url" was not declared/);
    invalidParams(() => parseElicitation({ mode: 'form', message: 'm', requestedSchema: { type: 'object', properties: {} } }, ['url']), /mode "form" was not declared/);
    invalidParams(() => parseElicitation({ mode: 'telepathy', message: 'm' }, ['form', 'url']), /Unsupported elicitation mode "telepathy"/);
  });

  test('no mode means form (MCP before 2025-11-25)', () => {
    const p = parseElicitation({ message: 'm', requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } }, ['form']);
    assert.equal(p.mode, 'form');
    invalidParams(() => parseElicitation({ message: 'm', requestedSchema: { type: 'object', properties: {} } }, ['url']), /mode "form"/);
  });

  test('malformed requests are -32602 with the field named', () => {
    invalidParams(() => parseElicitation({ mode: 'form', requestedSchema: { type: 'object', properties: {} } }, ['form']), /params\.message is required/);
    invalidParams(() => parseElicitation({ mode: 'url', message: 'm', url: 'https://x.example' }, ['url']), /params\.elicitationId is required/);
    invalidParams(() => parseElicitation({ mode: 'form', message: 'm', requestedSchema: { type: 'object', properties: {} }, task: { ttl: 1 } }, ['form']), /tasks/);
  });
});

describe('restricted schema', () => {
  test('the spec’s field kinds pass', () => {
    assert.deepEqual(restrictedSchemaProblems(SCHEMA), []);
  });

  test('nested objects, arrays of objects, unknown types and bad required names are refused (-32602)', () => {
    assert.match(restrictedSchemaProblems({ type: 'object', properties: { o: { type: 'object', properties: { a: { type: 'string' } } } } })[0], /property "o" has type "object"/);
    assert.match(restrictedSchemaProblems({ type: 'object', properties: { l: { type: 'array', items: { type: 'object' } } } })[0], /property "l" is not a flat field/);
    assert.match(restrictedSchemaProblems({ type: 'object', properties: { n: { type: 'null' } } })[0], /has type "null"/);
    assert.match(restrictedSchemaProblems({ type: 'object', properties: { a: { type: 'string' } }, required: ['b'] })[0], /required names "b"/);
    assert.match(restrictedSchemaProblems({ type: 'string' })[0], /object schema/);
    invalidParams(() => form({ type: 'object', properties: { o: { type: 'object' } } }), /Invalid elicitation schema/);
  });
});

describe('elicitation content', () => {
  const model = form();

  test('valid content is accepted; defaults fill what was left empty', () => {
    const r = checkContent(model, { name: 'Ada', check: true, email: 'ada@example.com', integer: 7, number: 2.5, single: 'Rachel', multi: ['Guitar', 'Drums'], titled: 'hero-2' });
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.content, {
      name: 'Ada',
      check: true,
      email: 'ada@example.com',
      integer: 7,
      number: 2.5,
      single: 'Rachel',
      multi: ['Guitar', 'Drums'],
      titled: 'hero-2',
      firstLine: 'It was a dark and stormy night.',
      titledMulti: ['fish-1'],
      legacy: 'pet-2',
    });
  });

  test('invalid content is refused with the path of each problem', () => {
    const r = checkContent(model, { name: 'A', email: 'not-an-email', integer: 7.5, number: 5000, single: 'Joey', multi: ['Guitar', 'Piano', 'Drums'], birthdate: '2024-02-30', homepage: 'example.com', extra: 'x' });
    assert.equal(r.ok, false);
    const errors = r.ok ? [] : r.errors.map((e) => `${e.path} ${e.keyword}`);
    for (const expected of ['/name minLength', '/email format', '/integer type', '/number maximum', '/single enum', '/multi maxItems', '/birthdate format', '/homepage format', '/extra additionalProperties']) {
      assert.ok(errors.includes(expected), `${expected} in ${JSON.stringify(errors)}`);
    }
  });

  test('a required field without a default must be given', () => {
    const r = checkContent(model, {});
    assert.equal(r.ok, false);
    assert.deepEqual(r.ok ? [] : r.errors.map((e) => `${e.path} ${e.keyword}`), ['/name required']);
  });

  test('legacy enumNames label the choices; the value sent is the enum value', () => {
    const legacy = model.properties.find((p) => p.name === 'legacy')!.field;
    assert.equal(legacy.kind, 'enum');
    assert.deepEqual(legacy.kind === 'enum' && legacy.options.map((o) => [o.label, o.value]), [
      ['Cats', 'pet-1'],
      ['Dogs', 'pet-2'],
    ]);
    const r = checkFormState(model, { name: 'Ada', legacy: 0 });
    assert.ok(r.ok);
    assert.equal(r.content.legacy, 'pet-1');
    assert.equal(checkContent(model, { name: 'Ada', legacy: 'Cats' }).ok, false, 'the label is not a value');
  });

  test('multi-select: untitled enum and titled anyOf items become checkbox lists of string values', () => {
    const multi = model.properties.find((p) => p.name === 'multi')!.field;
    const titled = model.properties.find((p) => p.name === 'titledMulti')!.field;
    assert.equal(multi.kind, 'multiSelect');
    assert.equal(titled.kind, 'multiSelect');
    assert.deepEqual(titled.kind === 'multiSelect' && titled.options.map((o) => o.label), ['Tuna', 'Salmon']);
    const r = checkFormState(model, { name: 'Ada', multi: [0, 2], titledMulti: [1] });
    assert.ok(r.ok);
    assert.deepEqual(r.content.multi, ['Guitar', 'Drums']);
    assert.deepEqual(r.content.titledMulti, ['fish-2']);
    const none = checkFormState(model, { name: 'Ada', multi: [] });
    assert.ok(none.ok, 'an optional list with nothing ticked is left out');
    assert.equal(none.content.multi, undefined);
    assert.equal(checkContent(model, { name: 'Ada', multi: [] }).ok, false, 'but an empty list sent is below minItems 1');
  });

  test('the form state: defaults pre-filled, typed text read, unreadable numbers reported once', () => {
    const state = initialFormState(model) as Record<string, unknown>;
    assert.equal(state.firstLine, 'It was a dark and stormy night.');
    assert.equal(state.integer, '42');
    assert.equal(state.legacy, 1);
    const bad = checkFormState(model, { ...state, name: 'Ada', integer: 'forty' });
    assert.equal(bad.ok, false);
    assert.deepEqual(bad.ok ? [] : bad.errors.map((e) => `${e.path} ${e.keyword}`), ['/integer type']);
    const good = checkFormState(model, { ...state, name: 'Ada', integer: ' 12 ' });
    assert.ok(good.ok);
    assert.equal(good.content.integer, 12);
  });

  test('a field the user cleared falls back to its default', () => {
    const r = checkFormState(model, { name: 'Ada', firstLine: '' });
    assert.ok(r.ok);
    assert.equal(r.content.firstLine, 'It was a dark and stormy night.');
  });
});

describe('the -32042 error', () => {
  const data = {
    elicitations: [
      { mode: 'url', elicitationId: 'e1', url: 'https://auth.example.com/start', message: 'Sign in' },
      { mode: 'url', url: 'https://x.example' },
    ],
  };

  test('reads the listed URL elicitations from a ResponseError, skipping malformed ones', () => {
    const found = urlElicitationsFromError(new ResponseError('tools/call', -32042, 'URL elicitation required', data));
    assert.deepEqual(found, { elicitations: [data.elicitations[0]], invalid: 1 });
  });

  test('any other error is not it', () => {
    assert.equal(urlElicitationsFromError(new ResponseError('tools/call', -32602, 'x', data)), undefined);
    assert.equal(urlElicitationsFromError(new ResponseError('tools/call', -32042, 'x', {})), undefined);
    assert.equal(urlElicitationsFromError(new Error('x')), undefined);
    assert.equal(urlElicitationsFromError(undefined), undefined);
  });
});
