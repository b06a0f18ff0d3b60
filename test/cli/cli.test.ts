// mcp-host against real servers. What reaches the process's own stdout, stderr and exit status
// (the server's stderr kept off it, exit 0/1/2, SIGINT, usage errors) runs the built CLI as a
// process (runCli); what the CLI prints and returns runs it in-process (runCliInProcess): the same
// runCli of src/cli/run.ts that main.ts calls, without a node start per run.
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { EVERYTHING, FILESYSTEM, ROOT, ensureBuilt, expectUsageErrors, isAlive, killQuietly, runCli, runCliInProcess, waitForNoLeftovers } from './cliProcess';

const VERSIONED = join(ROOT, 'test', 'fixtures', 'servers', 'versioned.mjs');

before(() => ensureBuilt());

afterEach(async () => {
  const left = await waitForNoLeftovers();
  // Kill them so one failure does not leak processes into the next tests; then fail.
  for (const pid of left) killQuietly(pid);
  assert.deepEqual(left, [], 'a server process was left running');
});

/** No stack trace: lines like `    at foo (file.js:1:2)`. */
function assertNoStack(stderr: string): void {
  assert.doesNotMatch(stderr, /^\s+at .+:\d+/m, `stack trace in stderr:\n${stderr}`);
}

describe('mcp-host CLI against server-everything', { timeout: 240_000 }, () => {
  test('inspect shows server info, the negotiated version, real tools, resources and prompts', async () => {
    const r = await runCli(['inspect', '--', ...EVERYTHING]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Server\s+mcp-servers\/everything \S+/m);
    assert.match(r.stdout, /^Protocol\s+2025-11-25$/m);
    assert.match(r.stdout, /^Capabilities\s+.*tools \(listChanged\)/m);
    assert.match(r.stdout, /^Instructions$/m);
    assert.match(r.stdout, /^Tools \(\d+\)$/m);
    assert.match(r.stdout, /^ {2}echo\s+\(message: string\)\s+Echoes back the input string$/m);
    assert.match(r.stdout, /^ {2}get-sum\s+\(a: number, b: number\)\s+Returns the sum of two numbers$/m);
    assert.match(r.stdout, /^Resource templates \(\d+\)$/m);
    assert.match(r.stdout, /^ {2}demo:\/\/resource\/dynamic\/text\/\{resourceId\}/m);
    assert.match(r.stdout, /^Prompts \(\d+\)$/m);
    assert.match(r.stdout, /^ {2}args-prompt\s+\(city, state\?\)/m);
    // The server writes to stderr at start-up; without --trace none of it is shown.
    assert.equal(r.stderr, '');
  });

  test('inspect --json prints one JSON document with everything the server declared', async () => {
    const r = await runCliInProcess(['inspect', '--json', '--', ...EVERYTHING]);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.equal(doc.protocolVersion, '2025-11-25');
    assert.equal(doc.serverInfo.name, 'mcp-servers/everything');
    assert.ok(doc.capabilities.tools && doc.capabilities.prompts && doc.capabilities.resources);
    const tools = doc.tools.map((t: { name: string }) => t.name);
    assert.ok(tools.includes('echo') && tools.includes('get-sum'), tools.join(','));
    assert.ok(doc.prompts.some((p: { name: string }) => p.name === 'simple-prompt'));
    assert.ok(doc.resources.length > 0);
    assert.ok(doc.resourceTemplates.length > 0);
    assert.equal(typeof doc.instructions, 'string');
  });

  test('tools lists names, descriptions and parameters', async () => {
    const r = await runCliInProcess(['tools', '--', ...EVERYTHING]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^get-sum \(Get Sum Tool\)\n {2}Returns the sum of two numbers\n {2}Parameters:\n {4}a\s+number\s+required\s+First number\n {4}b\s+number\s+required\s+Second number$/m);
    assert.match(r.stdout, /^ {4}messageType\s+"error" \| "success" \| "debug"\s+required/m);
    const json = JSON.parse((await runCliInProcess(['tools', '--json', '--', ...EVERYTHING])).stdout);
    assert.ok(json.tools.find((t: { name: string }) => t.name === 'echo').inputSchema.properties.message);
  });

  test('call echo prints the text and exits 0', async () => {
    const r = await runCli(['call', 'echo', '--args', '{"message":"hi"}', '--', ...EVERYTHING]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Echo: hi\n');
    assert.equal(r.stderr, '');
  });

  test('call get-sum prints the sum; --json prints the raw result', async () => {
    const r = await runCliInProcess(['call', 'get-sum', '--args={"a":2,"b":40}', '--', ...EVERYTHING]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'The sum of 2 and 40 is 42.');
    const j = await runCliInProcess(['call', 'get-sum', '--json', '--args', '{"a":1.5,"b":1}', '--', ...EVERYTHING]);
    assert.equal(j.code, 0, j.stderr);
    assert.deepEqual(JSON.parse(j.stdout).content, [{ type: 'text', text: 'The sum of 1.5 and 1 is 2.5.' }]);
  });

  test('images are summarized, structured content is pretty-printed, embedded resources summarized', async () => {
    const image = await runCliInProcess(['call', 'get-tiny-image', '--', ...EVERYTHING]);
    assert.equal(image.code, 0, image.stderr);
    assert.match(image.stdout, /^\[image image\/png, \d+\.\d KiB\]$/m);
    assert.doesNotMatch(image.stdout, /iVBORw0KGgo/, 'base64 must not be dumped');

    const structured = await runCliInProcess(['call', 'get-structured-content', '--args', '{"location":"Chicago"}', '--', ...EVERYTHING]);
    assert.equal(structured.code, 0, structured.stderr);
    // Its text block is the structured content as JSON: printed once (issue 38 #19).
    assert.doesNotMatch(structured.stdout, /structuredContent:/);
    assert.equal(typeof JSON.parse(structured.stdout).temperature, 'number');

    const embedded = await runCliInProcess(['call', 'get-resource-reference', '--', ...EVERYTHING]);
    assert.equal(embedded.code, 0, embedded.stderr);
    assert.match(embedded.stdout, /^\[embedded resource demo:\/\/resource\/dynamic\/text\/1 \(text\/plain, text, \d+ B\)\]$/m);
  });

  test('a tool result with isError is printed and exits 1', async () => {
    // --no-validate: sent as given, so the server's own refusal (isError) is what is printed.
    const r = await runCli(['call', 'get-sum', '--args', '{"a":"one","b":2}', '--no-validate', '--', ...EVERYTHING]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^Tool reported an error:$/m);
    assert.match(r.stdout, /Input validation error/);
    assert.equal(r.stderr, 'mcp-host: the tool get-sum reported an error (isError)\n');
  });

  test('read prints the resource text; prompt prints messages with roles; ping prints ms', async () => {
    const read = await runCliInProcess(['read', 'demo://resource/dynamic/text/7', '--', ...EVERYTHING]);
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, /^Resource 7: This is a plaintext resource/);

    const prompt = await runCliInProcess(['prompt', 'args-prompt', '--args', '{"city":"Paris","state":"Texas"}', '--', ...EVERYTHING]);
    assert.equal(prompt.code, 0, prompt.stderr);
    assert.match(prompt.stdout, /^\[user\]\n.*Paris.*Texas/m);

    const ping = await runCliInProcess(['ping', '--', ...EVERYTHING]);
    assert.equal(ping.code, 0, ping.stderr);
    assert.match(ping.stdout, /^pong in \d+(\.\d+)? ms\n$/);
  });

  test('a server error (unknown resource) exits 2 with one line', async () => {
    const r = await runCliInProcess(['read', 'demo://nope', '--', ...EVERYTHING]);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /^mcp-host: resources\/read: server error -?\d+: .*demo:\/\/nope/);
  });

  test('--trace shows the era probe, the initialize exchange and the server stderr on stderr', async () => {
    const r = await runCliInProcess(['ping', '--trace', '--', ...EVERYTHING]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^\d\d:\d\d:\d\d\.\d{3} → \d+ B \{"jsonrpc":"2\.0","id":1,"method":"server\/discover","params":\{"_meta":\{"io\.modelcontextprotocol\/protocolVersion":"2026-07-28"/m);
    assert.match(r.stderr, /^\d\d:\d\d:\d\d\.\d{3} → \d+ B \{"jsonrpc":"2\.0","id":2,"method":"initialize".*"clientInfo":\{"name":"mcp-host-cli"/m);
    assert.match(r.stderr, /^\d\d:\d\d:\d\d\.\d{3} ← \d+(\.\d)? (B|KiB) \{.*"protocolVersion":"2025-11-25".*"serverInfo"/m);
    assert.match(r.stderr, /^\d\d:\d\d:\d\d\.\d{3} → \d+ B \{"jsonrpc":"2\.0","method":"notifications\/initialized"\}$/m);
    assert.match(r.stderr, /\[server stderr\] .*Starting/);
    assert.match(r.stdout, /^pong in/);
  });

  test('--protocol-version 2024-11-05 is offered and negotiated', async () => {
    const r = await runCliInProcess(['inspect', '--protocol-version', '2024-11-05', '--', ...EVERYTHING]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Protocol\s+2024-11-05$/m);
    const j = await runCliInProcess(['inspect', '--json', '--protocol-version=2024-11-05', '--', ...EVERYTHING]);
    assert.equal(JSON.parse(j.stdout).protocolVersion, '2024-11-05');
  });

  test('a modern server: --trace shows the _meta of every request; --protocol-version legacy is refused by it', async () => {
    const ERAS = join(ROOT, 'test', 'fixtures', 'servers', 'eras.mjs');
    const r = await runCliInProcess(['call', 'echo', '--args', '{"text":"hi"}', '--trace', '--', process.execPath, ERAS, '--modern-only']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /hi/);
    assert.match(r.stderr, /→ \d+ B \{"jsonrpc":"2\.0","id":\d+,"method":"tools\/call","params":\{"name":"echo","arguments":\{"text":"hi"\},"_meta":\{"io\.modelcontextprotocol\/protocolVersion":"2026-07-28","io\.modelcontextprotocol\/clientCapabilities":/);
    assert.doesNotMatch(r.stderr, /"method":"initialize"/);
    const j = await runCliInProcess(['inspect', '--json', '--', process.execPath, ERAS, '--modern-only']);
    assert.equal(JSON.parse(j.stdout).protocolVersion, '2026-07-28');
    assert.equal(JSON.parse(j.stdout).era, 'modern');
    const text = await runCliInProcess(['inspect', '--', process.execPath, ERAS, '--modern-only']);
    assert.match(text.stdout, /^Era\s+modern \(server\/discover\)$/m);
    const legacy = await runCliInProcess(['ping', '--protocol-version', 'legacy', '--', process.execPath, ERAS, '--modern-only']);
    assert.notEqual(legacy.code, 0);
    assert.match(legacy.stderr, /-32022.*2026-07-28/);
  });

  test('a message over --max-message-mb fails at once, naming the flag', async () => {
    // The initialize result (with the long instructions) is well over 1 KiB.
    const r = await runCliInProcess(['ping', '--max-message-mb', '0.001', '--', ...EVERYTHING]);
    assert.equal(r.code, 2);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /^mcp-host: .*larger than the 1\.0 KiB limit.*--max-message-mb/);
  });

  test('SIGINT cancels the running call, shuts the server down and exits 130', async () => {
    let serverPid = 0;
    let sent = false;
    const r = await runCli(['call', 'trigger-long-running-operation', '--args', '{"duration":60,"steps":2}', '--trace', '--', ...EVERYTHING], {
      onStderr: (soFar, pid) => {
        serverPid ||= Number(/\(pid (\d+)\)/.exec(soFar)?.[1] ?? 0);
        if (!sent && /→ \d+ B .*"method":"tools\/call"/.test(soFar)) {
          sent = true;
          process.kill(pid, 'SIGINT');
        }
      },
    });
    assert.ok(sent, r.stderr);
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr, /"method":"notifications\/cancelled"/);
    assert.match(r.stderr, /^mcp-host: interrupted by SIGINT$/m);
    assert.ok(serverPid > 0);
    assert.equal(isAlive(serverPid), false, 'the server outlived the CLI');
  });
});

describe('mcp-host CLI: roots with server-filesystem', { timeout: 60_000 }, () => {
  let base = '';
  before(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-host-cli-')));
    mkdirSync(join(base, 'alpha'));
    mkdirSync(join(base, 'beta'));
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  test('--roots exposes the directories, which the server reports as allowed', async () => {
    const r = await runCliInProcess(['call', 'list_allowed_directories', '--roots', `${join(base, 'alpha')},${join(base, 'beta')}`, '--', ...FILESYSTEM]);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.ok(lines.includes(join(base, 'alpha')), r.stdout);
    assert.ok(lines.includes(join(base, 'beta')), r.stdout);
  });

  test('relative --roots resolve against the working directory; the trace shows file:// URIs', async () => {
    const r = await runCliInProcess(['call', 'list_allowed_directories', '--trace', '--roots', 'test', '--', ...FILESYSTEM]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /"roots":\[\{"uri":"file:\/\/\/[^"]*\/test","name":"test"\}\]/);
  });

  test('a --roots directory that does not exist is a usage error', async () => {
    const r = await runCliInProcess(['call', 'list_allowed_directories', '--roots', join(base, 'missing'), '--', ...FILESYSTEM]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^mcp-host: --roots: .*missing does not exist$/m);
  });
});

describe('mcp-host CLI: usage and failures', { timeout: 60_000 }, () => {
  test('--help prints the usage and exits 0', async () => {
    const r = await runCli(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^Usage: mcp-host <command> \[options\] -- SERVER_COMMAND/);
    for (const word of ['inspect', 'tools', 'call TOOL', 'read URI', 'prompt NAME', 'ping', '--args', '--json', '--trace', '--roots', '--protocol-version', '--timeout', '--max-message-mb']) {
      assert.ok(r.stdout.includes(word), word);
    }
  });

  test('a command that does not exist exits 2 with one line naming it', async () => {
    const r = await runCli(['inspect', '--', 'mcp-host-no-such-command-xyz', '--flag']);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], /^mcp-host: .*mcp-host-no-such-command-xyz/);
    assertNoStack(r.stderr);
  });

  test('bad --args JSON exits 2 before starting anything', async () => {
    const r = await runCliInProcess(['call', 'echo', '--args', '{message:hi}', '--', ...EVERYTHING]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^mcp-host: --args is not valid JSON/);
    const array = await runCliInProcess(['call', 'echo', '--args', '[1]', '--', ...EVERYTHING]);
    assert.equal(array.code, 2);
    assert.match(array.stderr, /^mcp-host: --args must be a JSON object/);
  });

  test('unknown commands, unknown flags and missing operands exit 2 with a usage hint', async () => {
    const cases: [string[], RegExp][] = [
      [['frobnicate', '--', 'node'], /unknown command "frobnicate"/],
      [['inspect', '--frob', '--', 'node'], /unknown option --frob/],
      [['call', '--', 'node'], /call needs a tool name/],
      [['inspect'], /missing server command/],
      [['ping', '--timeout', 'soon', '--', 'node'], /--timeout must be a positive integer/],
      [['ping', '--protocol-version', '1999-01-01', '--', 'node'], /--protocol-version 1999-01-01 is not supported \(use one of: auto, legacy, modern, 2026-07-28/],
      [['inspect', '--args', '{}', '--', 'node'], /--args only applies to call and prompt/],
      [[], /missing command/],
    ];
    await expectUsageErrors(cases);
  });

  test('a server that dies at start: exit 2, started once, the exit code, then its stderr (the reason included)', async () => {
    const r = await runCli(['inspect', '--', 'node', '-e', 'console.error("loading config"); console.error("fatal: no API key"); process.exit(3)']);
    assert.equal(r.code, 2);
    const lines = r.stderr.trimEnd().split('\n');
    // A start failure is no refusal of the era probe: not started once more (issue 38, item 14).
    assert.match(lines[0], /^mcp-host: the command exited with code 3 at start, before answering anything$/);
    assert.deepEqual(lines.slice(-3), ['mcp-host: what it printed on stderr:', '  loading config', '  fatal: no API key']);
    assertNoStack(r.stderr);
  });

  test('call asks for progress, and each report restarts --timeout: a 6 s call in 2 s steps passes with --timeout 3000', async () => {
    // (The 3 s in 1 s steps with 1500 ms, scaled so the server's start-up on a busy
    // machine stays inside the same --timeout, which bounds initialize too.)
    const r = await runCli(['call', 'trigger-long-running-operation', '--args', '{"duration":6,"steps":3}', '--timeout', '3000', '--', ...EVERYTHING]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Long running operation completed\. Duration: 6 seconds, Steps: 3\./);
    // stderr is a pipe here, not a terminal: no progress line drawn into it.
    assert.doesNotMatch(r.stderr, /progress/);
  });

  test('the server\'s log messages at --log-level (default info) or above are printed to stderr', async () => {
    const log = (level: string, message: string, ...flags: string[]) =>
      runCliInProcess(['call', 'log', '--args', JSON.stringify({ level, message }), ...flags, '--', 'node', VERSIONED, '--version', '2025-11-25']);
    const debugByDefault = await log('debug', 'a debug detail');
    assert.equal(debugByDefault.code, 0, debugByDefault.stderr);
    assert.equal(debugByDefault.stderr, '', 'debug is below the default level');
    const warning = await log('warning', 'disk almost full');
    assert.equal(warning.stderr, '[server warning] versioned: disk almost full\n');
    const debug = await log('debug', 'a debug detail', '--log-level', 'debug');
    assert.equal(debug.stderr, '[server debug] versioned: a debug detail\n');
    const quiet = await log('error', 'something broke', '--log-level', 'critical');
    assert.equal(quiet.stderr, '');
    const bad = await log('info', 'x', '--log-level', 'loud');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^mcp-host: --log-level must be one of debug, info, notice, warning, error, critical, alert, emergency, got "loud"/);
  });

  test('--timeout bounds a server that never answers', async () => {
    const r = await runCliInProcess(['ping', '--timeout', '300', '--', 'node', '-e', 'process.stdin.resume()']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^mcp-host: initialize timed out after 300 ms.*--timeout/);
  });
});

describe('mcp-host CLI: a server whose text carries terminal escape sequences', { timeout: 120_000 }, () => {
  const ESCAPES = ['node', join(ROOT, 'test/fixtures/servers/escapes.mjs')];
  /** What a terminal would obey: C0 but tab and line feed, DEL, C1, bidi overrides. */
  const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

  function assertTerminalSafe(r: { stdout: string; stderr: string }, where: string): void {
    for (const [name, text] of [['stdout', r.stdout], ['stderr', r.stderr]] as const) {
      const at = RAW_CONTROL.exec(text);
      assert.equal(at, null, `${where}: raw control U+${at?.[0].charCodeAt(0).toString(16).padStart(4, '0')} on ${name}: ${JSON.stringify(text.slice(Math.max(0, (at?.index ?? 0) - 40), (at?.index ?? 0) + 40))}`);
    }
  }

  test('inspect, tools, call, read: names, instructions, descriptions and results are shown escaped', async () => {
    for (const [args, shown] of [
      [['inspect'], ['name\\u001b]0;PWNED-TITLE\\u0007', 'instructions\\u001b]0;PWNED-TITLE\\u0007\\u001b]52;c;', 'paint\\u001b[8m', 'tool description\\u001b]0;', 'prompt\\u001b]0;', 'resource\\u001b]0;']],
      [['tools'], ['paint\\u001b[8m', '\\u001b]8;;https://evil.example/\\u001b\\click', '\\u009b2Kdel\\u007f\\u000dFORGED']],
      [['call', 'paint'], ['result\\u001b]0;PWNED-TITLE\\u0007\\u001b]52;c;ZWNobyBwd25lZA==\\u0007\\u001b[2J\\u001b[1;1H\\u001b[31mred']],
      [['read', 'test://page'], ['resource text\\u001b]0;PWNED-TITLE\\u0007\\u001b]52;c;']],
    ] as const) {
      const r = await runCli([...args, '--', ...ESCAPES]);
      assert.equal(r.code, 0, r.stderr);
      assertTerminalSafe(r, args.join(' '));
      for (const text of shown) assert.ok(r.stdout.includes(text), `${args.join(' ')}: shows ${text}\n${r.stdout}`);
    }
  });

  test('error messages and the stderr of a server that died are escaped', async () => {
    const failed = await runCliInProcess(['prompt', 'broken', '--', ...ESCAPES]);
    assert.equal(failed.code, 2);
    assertTerminalSafe(failed, 'prompt broken');
    assert.match(failed.stderr, /^mcp-host: prompts\/get: .*prompt error\\u001b\]0;PWNED-TITLE\\u0007/);

    const crashed = await runCliInProcess(['call', 'crash', '--', ...ESCAPES]);
    assert.equal(crashed.code, 2);
    assertTerminalSafe(crashed, 'call crash');
    assert.match(crashed.stderr, /^ {2}dying\\u001b\]0;PWNED-TITLE/m);
  });

  test('--trace escapes the server stderr and the traced frames', async () => {
    const r = await runCliInProcess(['call', 'paint', '--trace', '--', ...ESCAPES]);
    assert.equal(r.code, 0, r.stderr);
    assertTerminalSafe(r, 'call paint --trace');
    assert.match(r.stderr, /\[server stderr\] stderr\\u001b\]0;PWNED-TITLE\\u0007/);
    assert.match(r.stderr, /← .*"result\\u001b\]0;/, 'a frame with the result');
  });

  test('--json keeps every value exactly (escaped as JSON) and writes no raw control', async () => {
    const r = await runCliInProcess(['inspect', '--json', '--', ...ESCAPES]);
    assert.equal(r.code, 0, r.stderr);
    assertTerminalSafe(r, 'inspect --json');
    const doc = JSON.parse(r.stdout);
    const ESC = '\u001b';
    assert.equal(doc.serverInfo.name, `name${ESC}]0;PWNED-TITLE\u0007${ESC}]52;c;ZWNobyBwd25lZA==\u0007${ESC}[2J${ESC}[1;1H${ESC}[31mred${ESC}[0m${ESC}]8;;https://evil.example/${ESC}\\click${ESC}]8;;${ESC}\\\u009b2Kdel\u007f\rFORGEDname`);
    assert.ok(doc.tools.some((t: { name: string }) => t.name === `paint${ESC}[8m`));
  });
});
