// `mcp-host` against the hostile fixture server (test/fixtures/servers/hostile.mjs): malformed
// list items are named on stderr while the valid ones are printed, and a result nested 5,000
// levels deep is printed cut (it was lost before: JSON.stringify overflowed, exit 2).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, before, describe, test } from 'node:test';
import { ROOT, ensureBuilt, killQuietly, runCli, waitForNoLeftovers } from './cliProcess';

const HOSTILE = ['node', join(ROOT, 'test/fixtures/servers/hostile.mjs')];
const MARKER_JSON = JSON.stringify('[nested too deeply to show]');

before(() => ensureBuilt());

afterEach(async () => {
  const left = await waitForNoLeftovers();
  for (const pid of left) killQuietly(pid);
  assert.deepEqual(left, [], 'a server process was left running');
});

describe('mcp-host CLI against a hostile server', { timeout: 120_000 }, () => {
  test('tools: the valid tools are listed, each malformed one is named on stderr with its field; exit 0', async () => {
    const r = await runCli(['tools', '--', ...HOSTILE]);
    assert.equal(r.code, 0, r.stderr);
    for (const name of ['echo', 'pattern-bomb', 'backreference', 'huge-schema', 'unique-bomb', 'deep-result']) assert.match(r.stdout, new RegExp(`^${name}$`, 'm'));
    assert.doesNotMatch(r.stdout, /no-type|null-description/);
    assert.equal(
      r.stderr,
      'mcp-host: skipped a malformed item: tools[1].inputSchema.type must be one of "object" ("no-type")\n' +
        'mcp-host: skipped a malformed item: tools[4].description must be a string ("null-description")\n',
    );
    const json = await runCli(['tools', '--json', '--', ...HOSTILE]);
    assert.equal(json.code, 0, json.stderr);
    assert.equal(JSON.parse(json.stdout).tools.length, 6);
  });

  test('inspect: every list keeps its valid items; the skipped ones are on stderr', async () => {
    const r = await runCli(['inspect', '--', ...HOSTILE]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Tools \(6\)$/m);
    assert.match(r.stdout, /^Resources \(1\)$/m);
    assert.match(r.stdout, /^Resource templates \(1\)$/m);
    assert.match(r.stdout, /^Prompts \(1\)$/m);
    assert.match(r.stderr, /resources\[1\]\.uri is required \("no-uri"\)/);
    assert.match(r.stderr, /resourceTemplates\[1\]\.uriTemplate must be a string \("numeric"\)/);
    assert.match(r.stderr, /prompts\[1\]\.name is required/);
  });

  test('call: a result nested 5,000 levels deep is printed with its deepest levels cut, text and --json alike', async () => {
    const text = await runCli(['call', 'deep-result', '--', ...HOSTILE]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^structuredContent:$/m);
    assert.ok(text.stdout.includes(MARKER_JSON));
    assert.match(text.stdout, /\(nested more than 256 levels deep/);
    assert.ok(text.stdout.length < 200_000, `${text.stdout.length} characters printed`);

    const json = await runCli(['call', 'deep-result', '--json', '--', ...HOSTILE]);
    assert.equal(json.code, 0, json.stderr);
    const printed = JSON.parse(json.stdout);
    assert.equal(printed.content[0].type, 'text');
    let node = printed.structuredContent;
    let depth = 0;
    while (typeof node === 'object') {
      node = node.a;
      depth++;
    }
    assert.equal(depth, 255, 'the result object itself is the first of the 256 levels printed');
    assert.equal(node, '[nested too deeply to show]');
    assert.match(json.stderr, /^mcp-host: the result is nested more than 256 levels deep/);
  });
});
