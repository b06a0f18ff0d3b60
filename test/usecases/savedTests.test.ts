// Saved calls as tests: the file format, and the checks on real answers of server-everything.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { McpClient } from '../../src/client';
import { SavedTest, checkExpectations, junitXml, parseSavedTests } from '../../src/usecases/savedTests';
import { runSavedTest, testFromHistory } from '../../src/usecases/savedTestRunner';
import { CallHistory } from '../../src/usecases/history';
import { EVERYTHING, connectStdio } from '../client/support';
import Ajv from 'ajv';

describe('saved tests: the file', () => {
  test('a file with a tool, a read and a prompt, comments and inline servers', () => {
    const file = parseSavedTests(
      `{
        // JSON with comments, as .vscode files are
        "servers": { "everything": { "command": "node", "args": ["x.js"] } },
        "tests": [
          { "name": "echo", "server": "everything", "tool": "echo", "arguments": { "message": "hi" }, "expect": { "textContains": "hi", "json": [{ "pointer": "/isError", "exists": false }] } },
          { "name": "readme", "server": "everything", "read": "demo://resource/static/document/architecture.md" },
          { "name": "args", "server": "everything", "prompt": "args-prompt", "arguments": { "city": "Paris" }, "expect": { "maxMs": 5000 } },
        ],
      }`,
      'mcp-tests.json',
    );
    assert.deepEqual(file.tests.map((t) => t.action.kind), ['tool', 'read', 'prompt']);
    assert.deepEqual(Object.keys(file.config!.servers), ['everything']);
  });

  test('mistakes name the test and the field', () => {
    const bad = (text: string, message: RegExp) => assert.throws(() => parseSavedTests(text, 'f.json'), message);
    bad('{', /f\.json: /);
    bad('{"tests": {}}', /expected \{"tests": \[\.\.\.\]\}/);
    bad('{"tests": [{"server": "s", "tool": "t"}]}', /tests\[0\] needs a "name"/);
    bad('{"tests": [{"name": "a", "server": "s", "tool": "t"}, {"name": "a", "server": "s", "tool": "t"}]}', /the name "a" is used twice/);
    bad('{"tests": [{"name": "a", "server": "s"}]}', /needs exactly one of "tool", "read" or "prompt"/);
    bad('{"tests": [{"name": "a", "server": "s", "tool": "t", "read": "x"}]}', /needs exactly one of/);
    bad('{"tests": [{"name": "a", "server": "s", "prompt": "p", "arguments": {"n": 1}}]}', /prompt arguments are strings/);
    bad('{"tests": [{"name": "a", "server": "s", "tool": "t", "expect": {"json": [{"pointer": "x", "equals": 1}]}}]}', /needs a "pointer"/);
    bad('{"tests": [{"name": "a", "server": "s", "tool": "t", "expect": {"json": [{"pointer": "/x"}]}}]}', /needs "equals", "exists", "contains", "type" or "pattern"/);
    bad('{"tests": [{"name": "a", "server": "s", "tool": "t", "expect": {"maxMs": -1}}]}', /maxMs must be a positive number/);
  });
});

describe('saved tests against server-everything', { timeout: 60_000 }, () => {
  let client: McpClient;
  before(async () => {
    ({ client } = await connectStdio('node', EVERYTHING));
  });
  after(() => client?.close());

  const make = (overrides: Partial<SavedTest> & Pick<SavedTest, 'action'>): SavedTest => ({ name: 't', server: 'everything', expect: {}, ...overrides });
  const run = (t: SavedTest) => runSavedTest(t, { client: async () => client, origin: 'a test' });

  test('a passing tool test, and each failing assertion with expected and actual', async () => {
    const echo = { kind: 'tool' as const, tool: 'echo', arguments: { message: 'hello' } };
    const passed = await run(make({ action: echo, expect: { isError: false, textContains: 'Echo: hello', json: [{ pointer: '/content/0/type', equals: 'text' }] } }));
    assert.equal(passed.outcome, 'passed', JSON.stringify(passed));
    const failed = await run(make({ action: echo, expect: { textContains: 'goodbye', json: [{ pointer: '/content/0/text', equals: 'hello' }, { pointer: '/structuredContent', exists: true }] } }));
    assert.equal(failed.outcome, 'failed');
    assert.deepEqual(
      failed.failures.map((f) => [f.assertion, f.expected, f.actual]),
      [
        ['textContains', 'goodbye', 'Echo: hello'],
        ['json /content/0/text', 'hello', 'Echo: hello'],
        ['json /structuredContent', 'a value', 'nothing'],
      ],
    );
  });

  test('outputSchema: checked against the tool the server lists', async () => {
    const weather = await run(make({ action: { kind: 'tool', tool: 'get-structured-content', arguments: { location: 'New York' } }, expect: { outputSchema: true, json: [{ pointer: '/structuredContent/temperature', exists: true }] } }));
    assert.equal(weather.outcome, 'passed', JSON.stringify(weather));
    const echo = await run(make({ action: { kind: 'tool', tool: 'echo', arguments: { message: 'x' } }, expect: { outputSchema: true } }));
    assert.deepEqual(echo.failures.map((f) => f.assertion), ['outputSchema']);
  });

  test('reads and prompts; a request that fails is an error, not a failure', async () => {
    const read = await run(make({ action: { kind: 'read', uri: 'demo://resource/static/document/architecture.md' }, expect: { textContains: '#' } }));
    assert.equal(read.outcome, 'passed', JSON.stringify(read));
    const prompt = await run(make({ action: { kind: 'prompt', prompt: 'args-prompt', arguments: { city: 'Paris' } }, expect: { textContains: 'Paris' } }));
    assert.equal(prompt.outcome, 'passed', JSON.stringify(prompt));
    const missing = await run(make({ action: { kind: 'tool', tool: 'no-such-tool', arguments: {} } }));
    assert.equal(missing.outcome, 'error');
    assert.match(missing.error!, /does not list the tool no-such-tool/);
    const badArgs = await run(make({ action: { kind: 'tool', tool: 'echo', arguments: {} } }));
    assert.equal(badArgs.outcome, 'error');
    assert.match(badArgs.error!, /do not fit the tool's inputSchema: \/message required/);
  });

  test('a call from the history becomes a test that passes against the same server', async () => {
    const history = new CallHistory();
    const passed = await runSavedTest(make({ action: { kind: 'tool', tool: 'get-sum', arguments: { a: 2, b: 3 } } }), { client: async () => client, origin: 'a test', record: (e) => history.add(e) });
    assert.equal(passed.outcome, 'passed');
    const [entry] = history.list('everything');
    const saved = testFromHistory(entry, 'everything', false);
    assert.deepEqual({ ...saved, name: undefined }, { name: undefined, server: 'everything', tool: 'get-sum', arguments: { a: 2, b: 3 }, expect: { isError: false, json: [{ pointer: '/content/0/text', pattern: '^The sum of \\d+ and \\d+ is \\d+\\.' }] } });
    const file = parseSavedTests(JSON.stringify({ tests: [saved] }), 'saved.json');
    assert.equal((await run(file.tests[0])).outcome, 'passed');
  });

  test('JUnit XML: a suite per server, failures with expected and actual, escaped', () => {
    const xml = junitXml([
      { name: 'ok <1>', server: 'everything', outcome: 'passed', failures: [], ms: 12 },
      { name: 'bad', server: 'everything', outcome: 'failed', failures: [{ assertion: 'textContains', expected: 'a&b', actual: 'c', message: 'does not contain "a&b"' }], ms: 3 },
      { name: 'broken', server: 'notes', outcome: 'error', failures: [], ms: 1, error: 'no server named "notes"' },
    ]);
    assert.match(xml, /<testsuites name="mcp-host" tests="3" failures="1" errors="1"/);
    assert.match(xml, /<testsuite name="everything" tests="2" failures="1" errors="0"/);
    assert.match(xml, /<testcase classname="everything" name="ok &lt;1&gt;" time="0\.012">/);
    assert.match(xml, /<failure type="textContains" message="does not contain &quot;a&amp;b&quot;">expected: &quot;a&amp;b&quot;\nactual: &quot;c&quot;<\/failure>/);
    assert.match(xml, /<error message="no server named &quot;notes&quot;"\/>/);
  });
});

describe('checkExpectations on its own', () => {
  test('a tool that reports an error fails a test that does not expect one', () => {
    const t: SavedTest = { name: 't', server: 's', action: { kind: 'tool', tool: 'x', arguments: {} }, expect: {} };
    assert.deepEqual(checkExpectations(t, { isError: true, content: [{ type: 'text', text: 'boom' }] }, 1).map((f) => f.message), ['the tool reported an error: boom']);
    assert.deepEqual(checkExpectations({ ...t, expect: { isError: true } }, { isError: true, content: [] }, 1), []);
  });
});

describe('saved tests: the editor schema of .vscode/mcp-tests.json', () => {
  test('it names every kind of expect.json check the parser takes, and refuses one it does not', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const schema = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'media', 'schemas', 'mcp-tests.schema.json'), 'utf8')) as { $schema?: string };
    delete schema.$schema;
    const validate = new Ajv({ strict: false }).compile(schema);
    const checks = [{ pointer: '/a', equals: 1 }, { pointer: '/a', exists: true }, { pointer: '/a', contains: 'x' }, { pointer: '/a', type: 'integer' }, { pointer: '/a', pattern: '^Added note \\d+$' }];
    const text = JSON.stringify({ tests: [{ name: 't', server: 's', tool: 'x', expect: { json: checks } }] });
    parseSavedTests(text, 'mcp-tests.json');
    assert.ok(validate(JSON.parse(text)), JSON.stringify(validate.errors));
    const wrongType = { tests: [{ name: 't', server: 's', tool: 'x', expect: { json: [{ pointer: '/a', type: 'text' }] } }] };
    assert.equal(validate(wrongType), false, 'a type the parser does not know is refused by the schema too');
  });
});
