import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseArguments, UsageError } from '../../src/cli/arguments';
import { base64Size, describeCapabilities, renderCallResult, renderContent, renderPromptResult, renderReadResult, renderTools, table, toolParams } from '../../src/cli/render';
import { formatBytes } from '../../src/protocol/text';
import { describeFailure } from '../../src/cli/failureLines';
import { McpLocalError } from '../../src/protocol/errors';

describe('CLI argument parsing', () => {
  test('flags go anywhere before --; everything after -- is the server command, untouched', () => {
    const parsed = parseArguments(['--json', 'call', 'echo', '--args={"a":[1]}', '--timeout', '500', '--', 'node', 'server.js', '--json', '--']);
    assert.equal(parsed.kind, 'run');
    if (parsed.kind !== 'run') return;
    assert.deepEqual(parsed.options.command, { kind: 'call', tool: 'echo', args: { a: [1] } });
    assert.equal(parsed.options.json, true);
    assert.equal(parsed.options.timeoutMs, 500);
    assert.deepEqual(parsed.options.server, { kind: 'stdio', command: 'node', args: ['server.js', '--json', '--'] });
  });

  test('--max-message-mb accepts fractions and becomes bytes; prompt arguments become strings', () => {
    const parsed = parseArguments(['prompt', 'p', '--args', '{"n":2,"b":true,"s":"x"}', '--max-message-mb', '0.5', '--', 'x']);
    assert.ok(parsed.kind === 'run');
    assert.equal(parsed.options.maxMessageBytes, 512 * 1024);
    assert.deepEqual(parsed.options.command, { kind: 'prompt', name: 'p', args: { n: '2', b: 'true', s: 'x' } });
  });

  test('mistakes are UsageErrors with a message naming the problem', () => {
    const cases: [string[], RegExp][] = [
      [['call', 'x', '--args', '"text"', '--', 'n'], /^--args must be a JSON object .*, got a string$/],
      [['call', 'x', '--args', 'null', '--', 'n'], /^--args must be a JSON object .*, got null$/],
      [['prompt', 'p', '--args', '{"o":{}}', '--', 'n'], /prompt arguments must be strings; "o" is an object/],
      [['ping', '--json=1', '--', 'n'], /--json takes no value/],
      [['ping', '--timeout', '1.5', '--', 'n'], /--timeout must be a positive integer/],
      [['ping', '--timeout', '1', '--timeout', '2', '--', 'n'], /--timeout was given twice/],
      [['ping', 'extra', '--', 'n'], /unexpected argument "extra"/],
      [['ping', '--roots', ',', '--', 'n'], /--roots needs at least one directory/],
      [['ping', '--timeout'], /--timeout needs a value/],
    ];
    for (const [argv, message] of cases) {
      assert.throws(() => parseArguments(argv), (e: unknown) => e instanceof UsageError && message.test(e.message), argv.join(' '));
    }
  });

  test('--help wins over everything else before --', () => {
    assert.deepEqual(parseArguments(['call', '--frob', '-h']), { kind: 'help' });
    assert.equal(parseArguments(['ping', '--', 'server', '--help']).kind, 'run');
  });
});

describe('CLI rendering', () => {
  test('table aligns columns and leaves no trailing spaces', () => {
    assert.deepEqual(table([['a', 'bb', 'c'], ['ccc', '', ''], ['d', 'e', '']], '  '), ['  a    bb  c', '  ccc', '  d    e']);
  });

  test('sizes: bytes, KiB, MiB; base64 decoded sizes without decoding', () => {
    assert.equal(formatBytes(1023), '1023 B');
    assert.equal(formatBytes(1229), '1.2 KiB');
    assert.equal(formatBytes(9 * 1024 * 1024), '9.0 MiB');
    for (const n of [0, 1, 2, 3, 4, 100]) assert.equal(base64Size(Buffer.alloc(n, 7).toString('base64')), `${n} B`);
    assert.equal(base64Size(Buffer.alloc(2048, 7).toString('base64')), '2.0 KiB');
    // Not base64: said, not a size guessed from its length.
    assert.equal(base64Size('not base64!'), 'not valid base64');
  });

  test('content blocks: text as is, media and resources summarized', () => {
    assert.equal(renderContent({ type: 'text', text: 'hello\nworld' }), 'hello\nworld');
    assert.equal(renderContent({ type: 'image', mimeType: 'image/png', data: Buffer.alloc(1229).toString('base64') }), '[image image/png, 1.2 KiB]');
    assert.equal(renderContent({ type: 'audio', mimeType: 'audio/wav', data: Buffer.alloc(10).toString('base64') }), '[audio audio/wav, 10 B]');
    assert.equal(
      renderContent({ type: 'resource_link', uri: 'file:///a.txt', name: 'a', mimeType: 'text/plain', size: 2048, description: 'first\nsecond' }),
      '[resource link file:///a.txt "a" (text/plain, 2.0 KiB) — first]',
    );
    assert.equal(renderContent({ type: 'resource', resource: { uri: 'x:/b', blob: Buffer.alloc(3).toString('base64') } }), '[embedded resource x:/b (blob, 3 B)]');
  });

  test('call results: error banner, structured content pretty-printed', () => {
    const out = renderCallResult({ isError: true, content: [{ type: 'text', text: 'bad' }], structuredContent: { a: [1] } });
    assert.equal(out, 'Tool reported an error:\nbad\nstructuredContent:\n{\n  "a": [\n    1\n  ]\n}');
    assert.equal(renderCallResult({ content: [] }), '(empty result)');
  });

  test('read results: one text as is; several with headers; blobs summarized', () => {
    assert.equal(renderReadResult({ contents: [{ uri: 'u', text: 'body' }] }), 'body');
    assert.equal(
      renderReadResult({ contents: [{ uri: 'u1', text: 'one', mimeType: 'text/plain' }, { uri: 'u2', blob: 'AAAA' }] }),
      '--- u1 (text/plain)\none\n[blob u2 (blob, 3 B)]',
    );
  });

  test('prompt results show roles', () => {
    const out = renderPromptResult({ description: 'd', messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }, { role: 'assistant', content: { type: 'text', text: 'yo' } }] });
    assert.equal(out, 'Description: d\n\n[user]\nhi\n\n[assistant]\nyo');
  });

  test('tool parameters from JSON Schema: enums, arrays, unions, required', () => {
    const params = toolParams({
      name: 't',
      inputSchema: {
        type: 'object',
        properties: { e: { enum: ['a', 'b'] }, l: { type: 'array', items: { type: 'string' } }, u: { anyOf: [{ type: 'string' }, { type: 'null' }] }, n: { description: 'N\nmore' } },
        required: ['e'],
      },
    });
    assert.deepEqual(
      params.map((p) => [p.name, p.type, p.required, p.description]),
      [
        ['e', '"a" | "b"', true, ''],
        ['l', 'string[]', false, ''],
        ['u', 'string | null', false, ''],
        ['n', 'any', false, 'N'],
      ],
    );
  });

  test('parameters through local $refs are resolved (cycles, remote and missing refs shown by name); arrays of enums are bracketed', () => {
    const params = toolParams({
      name: 't',
      inputSchema: {
        type: 'object',
        $defs: {
          Modifier: { enum: ['Alt', 'Control', 'Shift'], description: 'A key held down' },
          Point: { type: 'object' },
          Tree: { type: 'array', items: { $ref: '#/$defs/Tree' } },
          Alias: { $ref: '#/$defs/Point' },
          'a/b': { type: 'integer' },
        },
        properties: {
          modifiers: { type: 'array', items: { $ref: '#/$defs/Modifier' } },
          key: { $ref: '#/$defs/Modifier' },
          at: { $ref: '#/$defs/Alias' },
          points: { type: 'array', items: { $ref: '#/$defs/Point' } },
          tree: { $ref: '#/$defs/Tree' },
          escaped: { $ref: '#/$defs/a~1b' },
          remote: { $ref: 'https://example.com/schema.json#/Thing' },
          missing: { $ref: '#/$defs/Nowhere' },
          self: { $ref: '#' },
        },
      },
    });
    assert.deepEqual(
      params.map((p) => [p.name, p.type, p.description]),
      [
        ['modifiers', '("Alt" | "Control" | "Shift")[]', ''],
        ['key', '"Alt" | "Control" | "Shift"', 'A key held down'],
        ['at', 'object', ''],
        ['points', 'object[]', ''],
        ['tree', 'Tree[]', ''],
        ['escaped', 'integer', ''],
        ['remote', 'Thing', ''],
        ['missing', 'Nowhere', ''],
        ['self', 'object', ''],
      ],
    );
  });

  test('tools that need a task say so (execution.taskSupport)', () => {
    const tool = (taskSupport?: string) => ({ name: 't', inputSchema: { type: 'object' as const }, ...(taskSupport ? { execution: { taskSupport } } : {}) });
    assert.match(renderTools([tool('required')]), /^ {2}Runs as a task \(execution\.taskSupport: required\): call waits for it/m);
    assert.match(renderTools([tool('optional')]), /^ {2}May run as a task \(execution\.taskSupport: optional\): call --task runs it as one$/m);
    assert.doesNotMatch(renderTools([tool('forbidden'), tool()]), /task/);
  });

  test('capabilities read as a list with their flags', () => {
    assert.equal(describeCapabilities({ tools: { listChanged: true }, resources: { subscribe: true, listChanged: false }, logging: {}, experimental: { x: {} } }), 'tools (listChanged), resources (subscribe), logging, experimental (x)');
    assert.equal(describeCapabilities({}), '(none)');
  });
});

describe('CLI failure lines', () => {
  test('a server that died: one line without the digest, then its stderr lines', () => {
    const reason = { kind: 'process-exited', code: 1, signal: null } as const;
    const error = new McpLocalError('server-exited', 'tools/call: the server exited with code 1; last stderr: a | b', { method: 'tools/call', reason, stderrTail: ['a', 'b'] });
    assert.deepEqual(describeFailure(error), ['mcp-host: the server exited with code 1 during tools/call', "mcp-host: last lines of the server's stderr:", '  a', '  b']);
  });

  test('multi-line messages are folded into one line', () => {
    assert.deepEqual(describeFailure(new Error('first\n  second\r\nthird')), ['mcp-host: first second third']);
  });
});
