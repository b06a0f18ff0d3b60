import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { McpClient, Tool } from '../../src/client';
import { ArrayField, FieldModel, FormState, ObjectField, buildFormModel, fallbacks } from '../../src/forms/model';
import { checkForm, validate } from '../../src/forms/fieldChecks';
import { fromValue, initialState, initialValue, newItemState, toArguments } from '../../src/forms/state';
import { checkFormat } from '../../src/schema/formats';
import * as z from 'zod';
import { EVERYTHING, FILESYSTEM, connectStdio } from '../client/support';

function obj(model: FieldModel): ObjectField {
  assert.equal(model.kind, 'object');
  return model as ObjectField;
}

function prop(model: FieldModel, name: string): FieldModel {
  const p = obj(model).properties.find((x) => x.name === name);
  assert.ok(p, `property ${name}`);
  return p.field;
}

// ---- the corpus of real schemas: every tool of server-everything and server-filesystem ----

describe('form model over the real tools of server-everything and server-filesystem', () => {
  const tools: Array<{ server: string; tool: Tool }> = [];
  const clients: McpClient[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-inspect-form-'));

  before(async () => {
    const everything = await connectStdio(process.execPath, EVERYTHING);
    const filesystem = await connectStdio(process.execPath, [FILESYSTEM, dir]);
    clients.push(everything.client, filesystem.client);
    for (const t of await everything.client.listTools()) tools.push({ server: 'everything', tool: t });
    for (const t of await filesystem.client.listTools()) tools.push({ server: 'filesystem', tool: t });
  });

  after(async () => {
    const pids = clients.map((c) => c.stats()?.process?.pid);
    await Promise.all(clients.map((c) => c.close()));
    for (const pid of pids) if (pid) assert.throws(() => process.kill(pid, 0), 'server process gone');
    rmSync(dir, { recursive: true, force: true });
  });

  test('the corpus is the real one (both servers, known tools)', () => {
    const names = tools.map((t) => t.tool.name);
    for (const n of ['echo', 'get-sum', 'trigger-long-running-operation', 'get-structured-content', 'read_text_file', 'edit_file', 'read_multiple_files', 'directory_tree']) {
      assert.ok(names.includes(n), `${n} in ${names.join(', ')}`);
    }
    assert.ok(tools.length >= 20, `${tools.length} tools`);
  });

  test('every inputSchema draws as a form with no JSON fallback, and its fresh form checks out like the schema says', () => {
    for (const { server, tool } of tools) {
      const model = buildFormModel(tool.inputSchema);
      const o = obj(model);
      assert.deepEqual(fallbacks(model), [], `${server}/${tool.name} has no JSON fallback`);
      const props = Object.keys((tool.inputSchema.properties as object | undefined) ?? {});
      assert.deepEqual(o.properties.map((p) => p.name), props, `${tool.name}: properties in schema order`);
      const required = new Set((tool.inputSchema.required as string[] | undefined) ?? []);
      for (const p of o.properties) assert.equal(p.field.required, required.has(p.name), `${tool.name}.${p.name} required mark`);
      // A fresh form has errors exactly at the required fields without a default.
      const { errors } = checkForm(model, initialState(model));
      assert.deepEqual(
        [...new Set(errors.map((e) => e.path))].sort(),
        [...required].filter((r) => {
          // A required list starts empty, which is valid unless it has a minimum.
          const f = o.properties.find((p) => p.name === r)!.field;
          return f.default === undefined && !(f.kind === 'array' && !f.minItems);
        }).map((r) => `/${r}`).sort(),
        `${tool.name}: required errors of an empty form`,
      );
    }
  });

  test('field kinds of known tools', () => {
    const find = (n: string) => buildFormModel(tools.find((t) => t.tool.name === n)!.tool.inputSchema);
    assert.equal(prop(find('echo'), 'message').kind, 'string');
    assert.equal(prop(find('get-sum'), 'a').kind, 'number');
    const loc = prop(find('get-structured-content'), 'location');
    assert.equal(loc.kind, 'enum');
    assert.deepEqual(loc.kind === 'enum' && loc.options.map((o) => o.value), ['New York', 'Chicago', 'Los Angeles']);
    const count = prop(find('get-resource-links'), 'count');
    assert.ok(count.kind === 'number' && count.minimum === 1 && count.maximum === 10 && count.default === 3);
    const data = prop(find('gzip-file-as-resource'), 'data');
    assert.ok(data.kind === 'string' && data.format === 'uri');
    const edits = prop(find('edit_file'), 'edits') as ArrayField;
    assert.equal(edits.kind, 'array');
    assert.deepEqual(obj(edits.items).properties.map((p) => [p.name, p.field.kind, p.field.required]), [
      ['oldText', 'string', true],
      ['newText', 'string', true],
    ]);
    const paths = prop(find('read_multiple_files'), 'paths');
    assert.ok(paths.kind === 'array' && paths.minItems === 1 && paths.items.kind === 'string');
  });

  test('a filled form of edit_file gives the arguments the server accepts (dry run, real call)', async () => {
    const fs = clients[1];
    const file = path.join(dir, 'a.txt');
    await fs.callTool('write_file', { path: file, content: 'hello world' });
    const tool = tools.find((t) => t.tool.name === 'edit_file')!.tool;
    const model = buildFormModel(tool.inputSchema);
    const state: FormState = { path: file, edits: [{ oldText: 'world', newText: 'there' }], dryRun: true };
    const { value, errors } = checkForm(model, state);
    assert.deepEqual(errors, []);
    assert.deepEqual(value, { path: file, edits: [{ oldText: 'world', newText: 'there' }], dryRun: true });
    const result = await fs.callTool('edit_file', value as Record<string, unknown>);
    assert.notEqual(result.isError, true);
    assert.match(JSON.stringify(result.content), /there/);
  });

  test('get-sum: numbers typed as text become numbers; text that is no number is an error at its path, never sent', async () => {
    const model = buildFormModel(tools.find((t) => t.tool.name === 'get-sum')!.tool.inputSchema);
    const ok = checkForm(model, { a: '2', b: ' 3.5 ' });
    assert.deepEqual(ok, { value: { a: 2, b: 3.5 }, errors: [] });
    const sum = await clients[0].callTool('get-sum', ok.value as Record<string, unknown>);
    assert.match(JSON.stringify(sum.content), /5\.5/);
    const bad = checkForm(model, { a: 'two', b: '' });
    assert.deepEqual(
      bad.errors.map((e) => [e.path, e.keyword]),
      [
        ['/a', 'type'],
        ['/b', 'required'],
      ],
    );
  });
});

// ---- hand-written schemas ----

describe('form model: hand-written schemas', () => {
  test('strings: formats, lengths, pattern; messages at the right path', () => {
    const model = buildFormModel({
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email' },
        site: { type: 'string', format: 'uri' },
        day: { type: 'string', format: 'date' },
        at: { type: 'string', format: 'date-time' },
        code: { type: 'string', minLength: 2, maxLength: 4, pattern: '^[A-Z]+$' },
        other: { type: 'string', format: 'hostname' },
      },
      required: ['email'],
    });
    assert.deepEqual(validate(model, { email: 'a@b.co', site: 'https://x.y/z', day: '2024-02-29', at: '2025-01-31T12:00:00Z', code: 'AB', other: '!!' }), []);
    const errors = validate(model, { email: 'nope', site: 'not a uri', day: '2023-02-29', at: '2025-01-31 25:00', code: 'abcde' });
    assert.deepEqual(
      errors.map((e) => [e.path, e.keyword]),
      [
        ['/email', 'format'],
        ['/site', 'format'],
        ['/day', 'format'],
        ['/at', 'format'],
        ['/code', 'maxLength'],
        ['/code', 'pattern'],
      ],
    );
    assert.deepEqual(validate(model, { code: 'A' }).map((e) => [e.path, e.keyword]), [
      ['/email', 'required'],
      ['/code', 'minLength'],
    ]);
    // Length counts characters, not UTF-16 units.
    assert.deepEqual(validate(model, { email: 'a@b.co', code: '😀😀' }).map((e) => e.keyword), ['pattern']);
  });

  test('formats', () => {
    assert.ok(checkFormat('uri', 'demo://resource/1'));
    assert.ok(!checkFormat('uri', '/relative/path'));
    assert.ok(checkFormat('date-time', '2025-01-31T12:00:00.5+01:00'));
    assert.ok(!checkFormat('date', '2025-13-01'));
    assert.ok(checkFormat('uuid', '123e4567-e89b-12d3-a456-426614174000'));
    assert.ok(checkFormat('whatever', 'anything'));
  });

  test('numbers: integer, minimum/maximum, exclusive bounds (draft 4 and 6+), multipleOf', () => {
    const model = buildFormModel({
      type: 'object',
      properties: {
        n: { type: 'integer', minimum: 1, maximum: 3 },
        x: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
        d4: { type: 'number', minimum: 0, exclusiveMinimum: true },
        step: { type: 'number', multipleOf: 0.5 },
      },
    });
    const d4 = prop(model, 'd4');
    assert.ok(d4.kind === 'number' && d4.exclusiveMinimum === 0 && d4.minimum === undefined);
    assert.deepEqual(validate(model, { n: 2, x: 0.5, d4: 0.1, step: 1.5 }), []);
    assert.deepEqual(
      validate(model, { n: 2.5, x: 1, d4: 0, step: 0.3 }).map((e) => [e.path, e.keyword]),
      [
        ['/n', 'type'],
        ['/x', 'maximum'],
        ['/d4', 'minimum'],
        ['/step', 'multipleOf'],
      ],
    );
    assert.deepEqual(validate(model, { n: 4 }).map((e) => e.keyword), ['maximum']);
    assert.deepEqual(toArguments(model, { n: '1e0', x: '.5' }).value, { n: 1, x: 0.5 });
    assert.deepEqual(toArguments(model, { n: '0x10' }).errors.map((e) => e.path), ['/n']);
  });

  test('a bound at the edge of safe integers (zod int()) is no bound to show', () => {
    const model = buildFormModel({ type: 'object', properties: { id: { type: 'integer', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }, n: { type: 'integer', minimum: 0, maximum: 9007199254740990 } } });
    const id = prop(model, 'id');
    assert.ok(id.kind === 'number' && id.minimum === undefined && id.maximum === undefined);
    const n = prop(model, 'n');
    assert.ok(n.kind === 'number' && n.minimum === 0 && n.maximum === 9007199254740990);
  });

  test('$defs, definitions, pointer escapes, siblings beside $ref, allOf wrapper, recursion', () => {
    const schema = {
      type: 'object',
      $defs: { Point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] }, 'a/b': { type: 'boolean' } },
      definitions: { Color: { enum: ['red', 'green'] } },
      properties: {
        start: { $ref: '#/$defs/Point', description: 'where it starts' },
        color: { $ref: '#/definitions/Color' },
        flag: { $ref: '#/$defs/a~1b' },
        wrapped: { allOf: [{ $ref: '#/$defs/Point' }], title: 'Wrapped point' },
        tree: { $ref: '#/$defs/Node' },
        broken: { $ref: '#/$defs/Missing' },
      },
      required: ['start'],
    };
    (schema.$defs as Record<string, unknown>).Node = { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } } };
    const model = buildFormModel(schema);
    const start = obj(prop(model, 'start'));
    assert.equal(start.description, 'where it starts');
    assert.equal(start.required, true);
    assert.deepEqual(start.properties.map((p) => p.name), ['x', 'y']);
    assert.equal(prop(model, 'color').kind, 'enum');
    assert.equal(prop(model, 'flag').kind, 'boolean');
    assert.equal(prop(model, 'wrapped').title, 'Wrapped point');
    assert.equal(prop(model, 'wrapped').kind, 'object');
    // Recursion draws one level, then the repeated node becomes JSON.
    const tree = obj(prop(model, 'tree'));
    const children = tree.properties.find((p) => p.name === 'children')!.field as ArrayField;
    assert.equal(children.items.kind, 'json');
    assert.match((children.items as { reason?: string }).reason ?? '', /recursive/);
    const broken = prop(model, 'broken');
    assert.ok(broken.kind === 'json' && /unresolvable/.test(broken.reason ?? ''));
    assert.deepEqual(validate(model, { start: { x: 1 } }).map((e) => [e.path, e.keyword]), [['/start/y', 'required']]);
  });

  test('a remote $ref is never fetched: the subtree becomes JSON, marked unsupported', async () => {
    // A server on loopback that would notice a fetch.
    const http = await import('node:http');
    let hits = 0;
    const server = http.createServer((_req, res) => {
      hits++;
      res.end('{"type":"string"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as { port: number }).port;
      const ref = `http://127.0.0.1:${port}/schema.json`;
      const model = buildFormModel({ type: 'object', properties: { remote: { $ref: ref }, local: { type: 'string' } }, required: ['remote'] });
      const remote = prop(model, 'remote');
      assert.equal(remote.kind, 'json');
      assert.equal(remote.kind === 'json' && remote.reason, `unsupported: remote $ref (${ref})`);
      assert.deepEqual(fallbacks(model), [{ path: '/remote', reason: `unsupported: remote $ref (${ref})` }]);
      assert.deepEqual(checkForm(model, { remote: '{"any": 1}', local: 'x' }), { value: { remote: { any: 1 }, local: 'x' }, errors: [] });
      assert.deepEqual(checkForm(model, { remote: '{oops' }).errors.map((e) => [e.path, e.keyword]), [['/remote', 'json']]);
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(hits, 0, 'nothing was fetched');
    } finally {
      server.close();
    }
  });

  test('oneOf/anyOf of const+title is a select with titles; other anyOf is a choice of alternatives', () => {
    const model = buildFormModel({
      type: 'object',
      properties: {
        size: { oneOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large', description: 'big' }] },
        level: { type: 'integer', anyOf: [{ const: 1, title: 'One' }, { const: 2 }] },
        mixed: { anyOf: [{ type: 'string' }, { type: 'object', properties: { a: { type: 'string' } } }] },
        one: { const: 'fixed' },
      },
    });
    const size = prop(model, 'size');
    assert.ok(size.kind === 'enum');
    assert.deepEqual(size.options, [
      { value: 's', label: 'Small' },
      { value: 'l', label: 'Large', description: 'big' },
    ]);
    const level = prop(model, 'level');
    assert.ok(level.kind === 'enum' && level.options[1].label === '2');
    const mixed = prop(model, 'mixed');
    assert.ok(mixed.kind === 'union');
    assert.deepEqual(mixed.variants.map((v) => [v.label, v.field.kind]), [['text', 'string'], ['object with a', 'object']]);
    assert.equal(prop(model, 'one').kind, 'enum');
    assert.deepEqual(checkForm(model, { size: 1, level: 0 }).value, { size: 'l', level: 1 });
    assert.deepEqual(validate(model, { size: 'm' }).map((e) => [e.path, e.keyword]), [['/size', 'enum']]);
  });

  test('a oneOf union offers its alternatives, each with its own form: the value goes through the state and back', () => {
    const model = buildFormModel({
      type: 'object',
      required: ['target'],
      properties: {
        target: {
          description: 'Where to write',
          oneOf: [
            { type: 'string', title: 'A path', minLength: 1 },
            { type: 'object', properties: { uri: { type: 'string' }, line: { type: 'integer' } }, required: ['uri'] },
            { type: 'null' },
          ],
        },
        spread: { type: 'object', properties: { x: { type: 'string' } }, oneOf: [{ required: ['x'] }, { required: ['y'] }] },
      },
    });
    const target = prop(model, 'target');
    assert.ok(target.kind === 'union');
    assert.equal(target.nullable, true, 'a null alternative makes it nullable');
    assert.equal(target.description, 'Where to write');
    assert.deepEqual(target.variants.map((v) => v.label), ['A path', 'object with uri, line']);
    assert.equal(prop(model, 'spread').kind, 'json', 'alternatives that only add rules to shared properties stay JSON');
    assert.deepEqual(fallbacks(model).map((f) => f.path), ['/spread']);

    assert.deepEqual(initialState(model), { target: { variant: 0 } }, 'a required union starts on its first alternative');
    const state: FormState = { target: { variant: 1, value: { uri: 'file:///a', line: '3' } } };
    assert.deepEqual(toArguments(model, state).value, { target: { uri: 'file:///a', line: 3 } });
    assert.deepEqual(toArguments(model, { target: { variant: 0, value: 'notes.md' } }).value, { target: 'notes.md' });
    assert.deepEqual(fromValue(model, { target: { uri: 'file:///b' } }), { state: { target: { variant: 1, value: { uri: 'file:///b' } } }, exact: true });
    assert.deepEqual(fromValue(model, { target: 'x.md' }), { state: { target: { variant: 0, value: 'x.md' } }, exact: true });
    assert.equal(fromValue(model, { target: 42 }).exact, false, 'a value no alternative shows: JSON mode');
    assert.ok(validate(model, { target: { line: 2 } }).length > 0, 'the value is checked against the schema itself');
  });

  test('nullable fields: type [X, "null"], anyOf with null, enum with null; null is sent only when chosen', () => {
    const model = buildFormModel({
      type: 'object',
      properties: {
        a: { type: ['string', 'null'], description: 'nullable string' },
        b: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }], title: 'B' },
        c: { type: ['string', 'null'], enum: ['x', 'y'] },
        d: { enum: ['x', null] },
        e: { anyOf: [{ $ref: '#/$defs/P' }, { type: 'null' }] },
      },
      $defs: { P: { type: 'object', properties: { q: { type: 'string' } } } },
      required: ['a', 'b'],
    });
    const a = prop(model, 'a');
    assert.ok(a.kind === 'string' && a.nullable && a.description === 'nullable string');
    const b = prop(model, 'b');
    assert.ok(b.kind === 'number' && b.integer && b.nullable && b.title === 'B' && b.minimum === 0);
    assert.ok(prop(model, 'c').kind === 'enum' && prop(model, 'c').nullable);
    const d = prop(model, 'd');
    assert.ok(d.kind === 'enum' && !d.nullable && d.options.length === 2);
    assert.ok(prop(model, 'e').kind === 'object' && prop(model, 'e').nullable);
    assert.deepEqual(checkForm(model, { a: null, b: null, d: 1 }), { value: { a: null, b: null, d: null }, errors: [] });
    assert.deepEqual(validate(model, { a: null, b: -1 }).map((e) => [e.path, e.keyword]), [['/b', 'minimum']]);
    assert.deepEqual(fromValue(model, { a: null, b: 3, d: null }), { state: { a: null, b: '3', d: 1 }, exact: true });
  });

  test('nested arrays of objects: add/remove items, errors at item paths, empty optional fields omitted', () => {
    const model = buildFormModel({
      type: 'object',
      properties: {
        groups: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              members: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' }, uniqueItems: true } }, required: ['id'] } },
              note: { type: 'string' },
            },
            required: ['name'],
          },
        },
        options: { type: 'object', properties: { verbose: { type: 'boolean' }, depth: { type: 'integer' } } },
      },
      required: ['groups'],
    });
    const groups = prop(model, 'groups') as ArrayField;
    assert.equal(groups.kind, 'array');
    assert.deepEqual(initialState(model), { groups: [] });
    assert.deepEqual(validate(model, toArguments(model, initialState(model)).value).map((e) => [e.path, e.keyword]), [['/groups', 'minItems']]);
    const fresh = newItemState(groups);
    assert.deepEqual(fresh, {});
    const state: FormState = {
      groups: [
        { name: 'a', members: [{ id: '1', tags: ['x', 'x'] }, { id: '' }], note: '' },
        { name: '' },
      ],
      options: { verbose: undefined as unknown as FormState, depth: '' },
    };
    const { value, errors } = checkForm(model, state);
    assert.deepEqual(value, { groups: [{ name: 'a', members: [{ id: 1, tags: ['x', 'x'] }, {}] }, {}] });
    assert.deepEqual(
      errors.map((e) => [e.path, e.keyword]),
      [
        ['/groups/0/members/0/tags/1', 'uniqueItems'],
        ['/groups/0/members/1/id', 'required'],
        ['/groups/1/name', 'required'],
      ],
    );
    // Round trip through JSON mode.
    const back = fromValue(model, { groups: [{ name: 'a', members: [{ id: 1, tags: ['t'] }] }], options: { verbose: true } });
    assert.equal(back.exact, true);
    assert.deepEqual(toArguments(model, back.state).value, { groups: [{ name: 'a', members: [{ id: 1, tags: ['t'] }] }], options: { verbose: true } });
    // A key the form has no place for keeps the caller in JSON mode.
    assert.equal(fromValue(model, { groups: [], extra: 1 }).exact, false);
    assert.equal(fromValue(model, { groups: 'nope' }).exact, false);
  });

  test('defaults pre-fill the form (or not), and the JSON editor starts from them', () => {
    const model = buildFormModel({
      type: 'object',
      properties: { duration: { type: 'number', default: 10 }, mode: { enum: ['a', 'b'], default: 'b' }, flag: { type: 'boolean', default: false }, name: { type: 'string' } },
    });
    assert.deepEqual(initialState(model), { duration: '10', mode: 1, flag: false });
    assert.deepEqual(initialValue(model), { duration: 10, mode: 'b', flag: false });
    assert.deepEqual(initialState(model, { fillDefaults: false }), {});
    assert.deepEqual(initialValue(model, { fillDefaults: false }), {});
  });

  test('what the form cannot draw becomes JSON: free-form maps, tuples, mixed types, not/if, empty schema', () => {
    const model = buildFormModel({
      type: 'object',
      properties: {
        env: { type: 'object', additionalProperties: { type: 'string' } },
        pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] },
        either: { type: ['string', 'number'] },
        neg: { not: { type: 'string' } },
        any: {},
        closed: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
      },
    });
    for (const name of ['env', 'pair', 'either', 'neg', 'any']) assert.equal(prop(model, name).kind, 'json', name);
    assert.deepEqual(validate(model, { either: true, env: [] }).map((e) => [e.path, e.keyword]), [
      ['/env', 'type'],
      ['/either', 'type'],
    ]);
    assert.deepEqual(validate(model, { closed: { a: 'x', b: 1 } }).map((e) => [e.path, e.keyword]), [['/closed/b', 'additionalProperties']]);
  });

  test('elicitation-style restricted schemas: enumNames, titled oneOf, multi-select arrays with titles', () => {
    const model = buildFormModel({
      type: 'object',
      properties: {
        legacy: { type: 'string', enum: ['r', 'g'], enumNames: ['Red', 'Green'] },
        titled: { type: 'string', oneOf: [{ const: '#f00', title: 'Red' }, { const: '#0f0', title: 'Green' }] },
        many: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2 },
        manyTitled: { type: 'array', items: { anyOf: [{ const: 'x', title: 'Ex' }, { const: 'y', title: 'Why' }] } },
        email: { type: 'string', format: 'email', title: 'Email' },
      },
      required: ['many'],
    });
    const legacy = prop(model, 'legacy');
    assert.ok(legacy.kind === 'enum');
    assert.deepEqual(legacy.options.map((o) => o.label), ['Red', 'Green']);
    const many = prop(model, 'many');
    assert.ok(many.kind === 'multiSelect' && many.minItems === 1 && many.maxItems === 2);
    const manyTitled = prop(model, 'manyTitled');
    assert.ok(manyTitled.kind === 'multiSelect');
    assert.deepEqual(manyTitled.options.map((o) => o.label), ['Ex', 'Why']);
    assert.deepEqual(checkForm(model, { legacy: 0, titled: 1, many: [0, 2], manyTitled: [] }), { value: { legacy: 'r', titled: '#0f0', many: ['a', 'c'] }, errors: [] });
    assert.deepEqual(checkForm(model, { many: [0, 1, 2] }).errors.map((e) => [e.path, e.keyword]), [['/many', 'maxItems']]);
    assert.deepEqual(checkForm(model, { many: [] }).errors.map((e) => [e.path, e.keyword]), [['/many', 'minItems']]);
    assert.deepEqual(fromValue(model, { many: ['c', 'a'] }), { state: { many: [0, 2] }, exact: true });
  });

  test('hostile or broken schemas never throw', () => {
    const inputs: unknown[] = [null, 42, 'x', [], { type: 'nonsense' }, { type: 'object', properties: { a: 5 } }, { $ref: '#' }, { type: 'string', pattern: '(' }, { enum: [] }, { type: 'object', required: 'a' }];
    for (const s of inputs) {
      const model = buildFormModel(s);
      assert.ok(model.kind, JSON.stringify(s));
      validate(model, { a: 1 });
      checkForm(model, { a: 'x' });
    }
    // Deep nesting stops at the depth limit.
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) deep = { type: 'object', properties: { n: deep } };
    const paths = fallbacks(buildFormModel(deep));
    assert.equal(paths.length, 1);
    assert.match(paths[0].reason ?? '', /too deeply/);
    // A pattern that does not compile is dropped, not fatal.
    const p = buildFormModel({ type: 'string', pattern: '(' });
    assert.ok(p.kind === 'string' && p.pattern === undefined);
  });
});

// ---- a pattern beside a format (zod writes both) ----

describe('form model: a pattern that restates the format is shown and reported as the format', () => {
  // The schema zod 4 writes for z.email(), z.iso.date() and z.uuid(), as a server on the SDK sends it.
  const zodSchema = z.toJSONSchema(z.object({ email: z.email(), day: z.iso.date(), id: z.uuid(), corp: z.string().regex(/^[^@\s]+@corp\.example$/).pipe(z.email()), code: z.string().regex(/^(?:[A-Z]{2}-\d{4}|[A-Z]{3}-\d{3}|X-[0-9a-f]{6}-[0-9a-f]{6})$/) })) as Record<string, unknown>;
  const model = buildFormModel(zodSchema);

  test('the hint has the format and no regex when the pattern says the same; a pattern that narrows the format stays', () => {
    const email = prop(model, 'email');
    assert.ok(email.kind === 'string');
    assert.equal(email.format, 'email');
    assert.ok(((zodSchema.properties as any).email.pattern as string).length > 80, 'zod does write a long pattern');
    assert.equal(email.pattern, undefined);
    assert.equal(email.patternRestatesFormat, true);
    for (const name of ['day', 'id']) {
      const f = prop(model, name);
      assert.ok(f.kind === 'string' && f.pattern === undefined && f.patternRestatesFormat === true, name);
    }
    // One domain only: more than "an email address", so the pattern is kept.
    const corp = buildFormModel({ type: 'string', format: 'email', pattern: '^[^@\\s]+@corp\\.example$' });
    assert.ok(corp.kind === 'string' && corp.pattern === '^[^@\\s]+@corp\\.example$' && !corp.patternRestatesFormat);
  });

  test('a value that is no email address gets one problem, worded as the format; one the pattern alone refuses is still refused', () => {
    const errors = validate(model, { email: 'not an address', day: '2025-02-30', id: 'nope', corp: 'a@corp.example', code: 'AB-1234' });
    assert.deepEqual(errors.map((e) => [e.path, e.keyword, e.message]), [
      ['/email', 'format', 'must be an email address'],
      ['/day', 'format', 'must be a date (YYYY-MM-DD)'],
      ['/id', 'format', 'must be a UUID'],
    ]);
    // Our email check takes "a..b@x.io"; zod's pattern does not: refused, in the format's words.
    const strict = validate(model, { email: 'a..b@x.io', day: '2025-01-31', id: '123e4567-e89b-42d3-a456-426614174000', corp: 'a@corp.example', code: 'AB-1234' });
    assert.deepEqual(strict.map((e) => [e.path, e.keyword, e.message]), [['/email', 'pattern', 'must be an email address in the form the server accepts']]);
  });

  test('a long pattern is named in the error, not quoted; a short one is quoted', () => {
    const long = validate(model, { email: 'a@b.io', day: '2025-01-31', id: '123e4567-e89b-42d3-a456-426614174000', corp: 'a@corp.example', code: 'nope' });
    assert.equal(long.length, 1);
    assert.match(long[0].message, /^must match the pattern the schema gives \(\d+ characters\)$/);
    const short = validate(buildFormModel({ type: 'string', pattern: '^[A-Z]+$' }), 'abc');
    assert.equal(short[0].message, 'must match the pattern ^[A-Z]+$');
  });
});
