import { suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { parseConfigText, parseSettingsText, parseSettingsValue, mergeLoaded } from '../../src/config/parse';
import { folderSources, settingsSource } from '../../src/config/sources';
import { ConfigProblem, StdioServerConfig } from '../../src/config/types';

const folder = { name: 'api', fsPath: '/work/api' };
const [MCP_JSON, DOT_MCP] = folderSources(folder);

/** The 1-based line and column where `needle` starts in `text` (the nth occurrence). */
function at(text: string, needle: string, nth = 0): { line: number; column: number } {
  let offset = -1;
  for (let i = 0; i <= nth; i++) offset = text.indexOf(needle, offset + 1);
  assert.ok(offset >= 0, `${needle} not in text`);
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

const brief = (p: ConfigProblem) => ({ severity: p.severity, line: p.line, column: p.column, path: p.path });

suite('parseConfigText: .vscode/mcp.json', () => {
  test('reads JSONC with comments and trailing commas, in file order, with ids per source', () => {
    const text = `// MCP servers for this folder
{
  /* block comment */
  "servers": {
    "everything": {
      "type": "stdio",
      "command": "node",
      "args": ["server.js", "stdio",], // trailing comma
      "env": { "DEBUG": "1", "HOME_OVERRIDE": null, "PORT": 8080, },
      "envFile": "\${workspaceFolder}/.env",
      "cwd": "sub",
    },
    "plain": { "command": "python3" },
  },
}
`;
    const loaded = parseConfigText(text, MCP_JSON);
    assert.deepEqual(loaded.problems, []);
    assert.deepEqual(
      loaded.servers.map((s) => [s.id, s.name]),
      [
        ['vscode-mcp-json:/work/api/.vscode/mcp.json::everything', 'everything'],
        ['vscode-mcp-json:/work/api/.vscode/mcp.json::plain', 'plain'],
      ],
    );
    assert.deepEqual(loaded.servers[0].config, {
      type: 'stdio',
      command: 'node',
      args: ['server.js', 'stdio'],
      env: { DEBUG: '1', HOME_OVERRIDE: null, PORT: '8080' },
      envFile: '${workspaceFolder}/.env',
      cwd: 'sub',
    });
    assert.deepEqual(loaded.servers[1].config, { type: 'stdio', command: 'python3', args: [], env: {} });
    assert.equal(loaded.servers[0].source, MCP_JSON);
  });

  test('an empty file and an empty object define nothing and report nothing', () => {
    for (const text of ['', '  \n', '{}', '// only a comment\n']) {
      assert.deepEqual(parseConfigText(text, MCP_JSON), { servers: [], inputs: [], problems: [] }, JSON.stringify(text));
    }
  });

  test('http and sse entries (and a bare url) are kept as remote configs', () => {
    const text = `{ "servers": {
      "remote": { "type": "http", "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer \${input:token}" } },
      "events": { "type": "sse", "url": "http://localhost:3000/sse" },
      "bare": { "url": "https://example.com/bare" }
    }, "inputs": [{ "id": "token", "type": "promptString", "password": true }] }`;
    const loaded = parseConfigText(text, MCP_JSON);
    assert.deepEqual(loaded.problems, []);
    assert.deepEqual(
      loaded.servers.map((s) => s.config),
      [
        { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${input:token}' } },
        { type: 'sse', url: 'http://localhost:3000/sse' },
        { type: 'http', url: 'https://example.com/bare' },
      ],
    );
    assert.deepEqual(loaded.servers[0].inputs.map((i) => i.id), ['token']);
  });

  test('a syntax error gives its exact line and column and no servers; never throws', () => {
    const text = '{\n  "servers": {\n    "a": { "command": "node" }\n    "b": { "command": "node" }\n  }\n}\n';
    const loaded = parseConfigText(text, MCP_JSON);
    assert.deepEqual(loaded.servers, []);
    assert.equal(loaded.problems.length, 1);
    const [p] = loaded.problems;
    assert.equal(p.kind, 'syntax');
    assert.equal(p.severity, 'error');
    assert.match(p.message, /comma expected/);
    // The missing comma is noticed at "b" on line 4, column 5.
    assert.deepEqual([p.line, p.column], [4, 5]);
    assert.equal(p.offset, text.indexOf('"b"'));
  });

  test('an unterminated file reports where it ends', () => {
    const text = '{\n  "servers": {\n    "a": { "command": "node"';
    const loaded = parseConfigText(text, MCP_JSON);
    assert.deepEqual(loaded.servers, []);
    assert.ok(loaded.problems.length >= 1);
    assert.ok(loaded.problems.every((p) => p.kind === 'syntax' && p.line === 3), JSON.stringify(loaded.problems.map(brief)));
    assert.match(loaded.problems[0].message, /closing brace expected/);
  });

  test('garbage, CRLF line ends and a non-object root', () => {
    const crlf = '{\r\n  "servers": {\r\n    "a": { "command": @ }\r\n  }\r\n}';
    const p = parseConfigText(crlf, MCP_JSON).problems;
    assert.deepEqual(p.map((x) => [x.line, x.column]).slice(0, 1), [[3, 23]]);
    const arr = parseConfigText('[1, 2]', MCP_JSON);
    assert.deepEqual(arr.problems.map(brief), [{ severity: 'error', line: 1, column: 1, path: '' }]);
    assert.match(arr.problems[0].message, /expected an object at the top of the file, found an array/);
  });

  test('a bad entry is reported at the offending node and the others still load', () => {
    const text = `{
  "servers": {
    "good1": { "command": "node", "args": ["a"] },
    "badCommand": { "command": 42 },
    "badArgs": { "command": "node", "args": "--port 1" },
    "badArg": { "command": "node", "args": ["ok", 7, true] },
    "badType": { "type": "websocket", "command": "node" },
    "missing": { "args": ["x"] },
    "badEnv": { "command": "node", "env": { "A": true } },
    "notObject": "node server.js",
    "good2": { "command": "deno" }
  }
}`;
    const loaded = parseConfigText(text, MCP_JSON);
    assert.deepEqual(loaded.servers.map((s) => s.name), ['good1', 'good2']);
    const errors = loaded.problems.filter((p) => p.severity === 'error');
    assert.deepEqual(errors.map(brief), [
      { severity: 'error', ...at(text, '42'), path: 'servers.badCommand.command' },
      { severity: 'error', ...at(text, '"--port 1"'), path: 'servers.badArgs.args' },
      { severity: 'error', ...at(text, '7, true'), path: 'servers.badArg.args[1]' },
      { severity: 'error', ...at(text, 'true]'), path: 'servers.badArg.args[2]' },
      { severity: 'error', ...at(text, '"websocket"'), path: 'servers.badType.type' },
      { severity: 'error', ...at(text, '"missing"'), path: 'servers.missing' },
      { severity: 'error', ...at(text, 'true }'), path: 'servers.badEnv.env.A' },
      { severity: 'error', ...at(text, '"node server.js"'), path: 'servers.notObject' },
    ]);
    // The exact numbers for two of them, so the helper above cannot hide an off-by-one.
    assert.deepEqual([errors[0].line, errors[0].column], [4, 32]);
    assert.deepEqual([errors[2].line, errors[2].column], [6, 51]);
    const messages = errors.map((e) => e.message);
    assert.match(messages[0], /server "badCommand": "command" must be a string, found number 42/);
    assert.match(messages[1], /"args" must be an array of strings, found the string "--port 1"/);
    assert.match(messages[2], /args\[1\] must be a string, found number 7/);
    assert.match(messages[4], /unknown type "websocket" \(expected "stdio", "http" or "sse"\)/);
    assert.match(messages[5], /missing "command" \(or "url" for a remote server\)/);
    assert.deepEqual(errors.map((e) => e.serverName), ['badCommand', 'badArgs', 'badArg', 'badArg', 'badType', 'missing', 'badEnv', 'notObject']);
  });

  test('remote entries need a url; a url without a type on a command entry is explained', () => {
    const text = `{ "servers": {
  "noUrl": { "type": "http" },
  "badUrl": { "type": "sse", "url": "localhost:3000" },
  "both": { "type": "stdio", "url": "https://x" }
} }`;
    const loaded = parseConfigText(text, MCP_JSON);
    assert.deepEqual(loaded.servers, []);
    assert.deepEqual(
      loaded.problems.filter((p) => p.severity === 'error').map((p) => [p.line, p.column, p.message]),
      [
        [2, 3, 'server "noUrl": missing "url" (a http server needs one)'],
        [3, 37, 'server "badUrl": "url" must start with http:// or https://'],
        [4, 3, 'server "both": missing "command" (a "url" needs "type": "http" or "sse")'],
      ],
    );
  });

  test('remote entries: header names are checked, keys of the other kind are ignored with a warning, variables checked in url and headers', () => {
    const text = `{ "servers": {
  "badHeader": { "type": "http", "url": "https://x/mcp", "headers": { "Bad Name": "v", "X-Num": 5 } },
  "mixed": { "type": "http", "url": "https://\${nope}/mcp", "headers": { "X-Ws": "\${workspaceRoot}" }, "command": "node", "env": {} },
  "stdioWithHeaders": { "command": "node", "headers": {} }
} }`;
    const loaded = parseConfigText(text, MCP_JSON);
    assert.deepEqual(loaded.servers.map((s) => [s.name, s.config.type]), [['mixed', 'http'], ['stdioWithHeaders', 'stdio']]);
    assert.deepEqual(
      loaded.problems.map((p) => [p.severity, p.line, p.column, p.message]),
      [
        ['error', 2, 71, 'server "badHeader": "Bad Name" is not a valid HTTP header name'],
        ['error', 2, 97, 'server "badHeader": headers.X-Num must be a string, found number 5'],
        ['warning', 3, 46, 'unknown variable ${nope}'],
        ['warning', 3, 82, 'unknown variable ${workspaceRoot}'],
        ['warning', 3, 103, 'server "mixed": "command" is ignored for a http server'],
        ['warning', 3, 122, 'server "mixed": "env" is ignored for a http server'],
        ['warning', 4, 44, 'server "stdioWithHeaders": "headers" is ignored for a stdio server'],
      ],
    );
  });

  test('warnings: typos of known properties, a command with spaces, duplicates, unknown variables', () => {
    const text = `{ "servers": {
  "typo": { "command": "node", "arg": ["x"], "Env": {}, "disabled": false, "autoApprove": [] },
  "spaces": { "command": "npx -y @scope/server" },
  "dup": { "command": "a" },
  "dup": { "command": "b" },
  "vars": { "command": "node", "args": ["\${workspaceRoot}/x", "\${env:HOME}", "\${command:pick}"] }
} }`;
    const loaded = parseConfigText(text, MCP_JSON);
    assert.ok(loaded.problems.every((p) => p.severity === 'warning'), JSON.stringify(loaded.problems));
    assert.deepEqual(loaded.servers.map((s) => s.name), ['typo', 'spaces', 'dup', 'vars']);
    assert.equal((loaded.servers[2].config as StdioServerConfig).command, 'b', 'the last duplicate wins, as in JSON.parse');
    assert.deepEqual(
      loaded.problems.map((p) => [p.line, p.column, p.message]),
      [
        [2, 32, 'unknown property "arg": did you mean "args"?'],
        [2, 46, 'unknown property "Env": did you mean "env"?'],
        [3, 26, 'server "spaces": "command" contains spaces; put the arguments in "args" (the command is run without a shell)'],
        [5, 3, 'duplicate property "dup": the last one wins'],
        // Pointing at the variable inside the string, not at the string.
        [6, 42, 'unknown variable ${workspaceRoot}'],
        [6, 79, '${command:pick}: command variables are not supported'],
      ],
    );
    assert.equal(loaded.problems[4].length, '${workspaceRoot}'.length);
  });

  test('inputs: parsed, validated, and referenced ones attached to their entries', () => {
    const text = `{
  "inputs": [
    { "type": "promptString", "id": "api-key", "description": "API key", "password": true },
    { "type": "pickString", "id": "region", "options": ["eu", "us", { "label": "Asia", "value": "ap" }], "default": "eu" },
    { "type": "pickString", "id": "broken" },
    { "type": "command", "id": "cmd", "command": "x" },
    { "type": "promptString", "id": "api-key" },
    { "type": "promptString" }
  ],
  "servers": {
    "s": { "command": "node", "env": { "KEY": "\${input:api-key}", "R": "\${input:region}-\${input:api-key}" }, "args": ["\${input:nope}"] },
    "t": { "command": "node" }
  }
}`;
    const loaded = parseConfigText(text, MCP_JSON);
    assert.deepEqual(loaded.inputs, [
      { id: 'api-key', type: 'promptString', description: 'API key', password: true },
      { id: 'region', type: 'pickString', options: ['eu', 'us', 'ap'], default: 'eu' },
    ]);
    assert.deepEqual(loaded.servers[0].inputs.map((i) => i.id), ['api-key', 'region']);
    assert.deepEqual(loaded.servers[1].inputs, []);
    assert.deepEqual(
      loaded.problems.map((p) => [p.severity, p.line, p.message]),
      [
        ['error', 5, 'input "broken": a pickString input needs "options"'],
        ['error', 6, 'input "cmd": "command" inputs are not supported; use "promptString" or "pickString"'],
        ['error', 7, 'duplicate input id "api-key": the first definition is used'],
        ['error', 8, 'input: missing "id"'],
        ['warning', 11, 'input "nope" is not defined in "inputs"; you will be asked for a value'],
      ],
    );
  });

  test('a Claude-style mcpServers map in mcp.json is read, with a warning', () => {
    const loaded = parseConfigText('{ "mcpServers": { "x": { "command": "node" } } }', MCP_JSON);
    assert.deepEqual(loaded.servers.map((s) => s.name), ['x']);
    assert.deepEqual(loaded.problems.map((p) => [p.severity, p.message]), [['warning', `this file's format calls the server map "servers"; "mcpServers" was read instead`]]);
  });
});

suite('parseConfigText: .mcp.json', () => {
  test('reads the mcpServers format of Claude Desktop, Claude Code and Cursor', () => {
    const text = `{
  "mcpServers": {
    "filesystem": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "\${HOME}/projects"], "env": { "TOKEN": "\${API_TOKEN:-none}" } },
    "remote": { "type": "streamable-http", "url": "https://mcp.example.com/mcp", "headers": { "X-Key": "k" } },
    "legacy": { "type": "sse", "url": "https://mcp.example.com/sse" },
    "bare": { "url": "https://mcp.example.com/bare" }
  }
}`;
    const loaded = parseConfigText(text, DOT_MCP);
    assert.deepEqual(loaded.problems, []);
    assert.deepEqual(
      loaded.servers.map((s) => [s.id, s.config.type]),
      [
        ['dot-mcp-json:/work/api/.mcp.json::filesystem', 'stdio'],
        ['dot-mcp-json:/work/api/.mcp.json::remote', 'http'],
        ['dot-mcp-json:/work/api/.mcp.json::legacy', 'sse'],
        ['dot-mcp-json:/work/api/.mcp.json::bare', 'http'],
      ],
    );
    assert.deepEqual(loaded.servers[0].config, {
      type: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '${HOME}/projects'],
      env: { TOKEN: '${API_TOKEN:-none}' },
    });
  });

  test('the same broken entry is reported with its position; others load', () => {
    const text = '{\n  "mcpServers": {\n    "ok": { "command": "uvx", "args": ["mcp-server-git"] },\n    "bad": { "command": ["uvx"] }\n  }\n}';
    const loaded = parseConfigText(text, DOT_MCP);
    assert.deepEqual(loaded.servers.map((s) => s.name), ['ok']);
    assert.deepEqual(loaded.problems.map(brief), [{ severity: 'error', line: 4, column: 25, path: 'mcpServers.bad.command' }]);
  });

  test('a file without mcpServers says so', () => {
    const loaded = parseConfigText('{ "x": { "command": "node" } }', DOT_MCP);
    assert.deepEqual(loaded.servers, []);
    assert.deepEqual(loaded.problems.map((p) => p.message), ['no "mcpServers" property: this file defines no servers']);
  });
});

suite('settings', () => {
  const user = settingsSource('user');
  const workspace = settingsSource('workspace');

  test('parseSettingsValue reads the servers map; problems carry a path and no position', () => {
    const loaded = parseSettingsValue({ git: { command: 'uvx', args: ['mcp-server-git'] }, bad: { command: 'x', args: [1] }, web: { type: 'sse', url: 'https://x/sse' } }, user);
    assert.deepEqual(loaded.servers.map((s) => [s.id, s.config.type]), [
      ['settings:user::git', 'stdio'],
      ['settings:user::web', 'sse'],
    ]);
    assert.deepEqual(loaded.problems.map((p) => [p.line, p.column, p.offset, p.path]), [[0, 0, -1, 'mcpHost.servers.bad.args[0]']]);
    assert.equal(loaded.servers[0].source.workspaceDefined, false);
    assert.deepEqual(parseSettingsValue(undefined, user), { servers: [], inputs: [], problems: [] });
    assert.equal(parseSettingsValue('nope', user).problems[0].message, '"mcpHost.servers" must be an object mapping server names to definitions, found the string "nope"');
  });

  test('the same name in two sources gives two entries with different ids', () => {
    const a = parseSettingsValue({ git: { command: 'uvx' } }, user);
    const b = parseSettingsValue({ git: { command: 'uvx' } }, workspace);
    const c = parseConfigText('{ "servers": { "git": { "command": "uvx" } } }', MCP_JSON);
    const merged = mergeLoaded([a, b, c]);
    assert.deepEqual(merged.servers.map((s) => s.id), ['settings:user::git', 'settings:workspace::git', 'vscode-mcp-json:/work/api/.vscode/mcp.json::git']);
    assert.equal(new Set(merged.servers.map((s) => s.fingerprint)).size, 1, 'the same definition has the same fingerprint');
    assert.equal(workspace.workspaceDefined, true);
  });

  test('parseSettingsText finds the key in a settings.json with exact positions', () => {
    const text = `{
  "editor.fontSize": 14,
  // servers for MCP Host
  "mcpHost.servers": {
    "git": { "command": "uvx", "args": ["mcp-server-git", 3] },
  },
}`;
    const loaded = parseSettingsText(text, workspace);
    assert.deepEqual(loaded.servers, []);
    assert.deepEqual(loaded.problems.map(brief), [{ severity: 'error', line: 5, column: 59, path: 'mcpHost.servers.git.args[1]' }]);
  });
});

suite('parseConfigText: protocolVersion of an entry', () => {
  test('pins the era or version of one server; an unknown value is warned about at the value and ignored', () => {
    const text = `{
  "servers": {
    "modern": { "type": "http", "url": "https://a.example/mcp", "protocolVersion": "modern" },
    "old": { "command": "node", "args": ["s.js"], "protocolVersion": "2025-03-26" },
    "odd": { "command": "node", "protocolVersion": "latest" },
    "plain": { "command": "node" }
  }
}`;
    const loaded = parseConfigText(text, MCP_JSON);
    assert.deepEqual(loaded.servers.map((s) => [s.name, s.protocolVersion]), [['modern', 'modern'], ['old', '2025-03-26'], ['odd', undefined], ['plain', undefined]]);
    const warning = loaded.problems.find((p) => p.path === 'servers.odd.protocolVersion');
    assert.equal(warning?.severity, 'warning');
    assert.deepEqual({ line: warning?.line, column: warning?.column }, at(text, '"latest"'));
    assert.match(warning!.message, /"auto", "legacy", "modern"/);
  });
});

suite('parseConfigText: dev of an entry', () => {
  test('watch and debug are read; malformed parts are warned about at the value and ignored', () => {
    const text = `{
  "servers": {
    "dev": { "command": "node", "args": ["s.js"], "dev": { "watch": "src/**/*.js", "debug": { "type": "node" } } },
    "watchOnly": { "command": "node", "dev": { "watch": "build.txt" } },
    "odd": { "command": "node", "dev": { "watch": 3, "debug": { "type": "gdb" } } },
    "plain": { "command": "node" }
  }
}`;
    const loaded = parseConfigText(text, MCP_JSON);
    assert.deepEqual(loaded.servers.map((s) => [s.name, s.dev]), [['dev', { watch: 'src/**/*.js', debug: { type: 'node' } }], ['watchOnly', { watch: 'build.txt' }], ['odd', undefined], ['plain', undefined]]);
    const warnings = loaded.problems.filter((p) => p.serverName === 'odd');
    assert.deepEqual(warnings.map((w) => [w.path, w.severity]), [['servers.odd.dev.watch', 'warning'], ['servers.odd.dev.debug', 'warning']]);
    assert.deepEqual({ line: warnings[0].line, column: warnings[0].column }, at(text, '3,'));
    assert.equal(loaded.problems.filter((p) => p.serverName !== 'odd').length, 0, 'dev is no unknown key');
  });
});

suite('parseConfigText: dev.debug of a Python server', () => {
  test('debugpy and python (its older name) are read as written, without a warning', () => {
    const text = `{ "servers": {
      "a": { "command": "python3", "args": ["s.py"], "dev": { "debug": { "type": "debugpy" } } },
      "b": { "command": "python3", "args": ["s.py"], "dev": { "debug": { "type": "python" } } }
    } }`;
    const loaded = parseConfigText(text, MCP_JSON);
    assert.deepEqual(loaded.servers.map((s) => s.dev?.debug?.type), ['debugpy', 'python']);
    assert.deepEqual(loaded.problems, []);
  });
});

suite('parseConfigText: "oauth" of a remote server (a pre-registered client)', () => {
  test('client id, secret from a password input, scopes and callback port are read; Copy-able as written', () => {
    const text = `{
  "inputs": [{ "id": "secret", "type": "promptString", "password": true }],
  "servers": {
    "api": { "type": "http", "url": "https://mcp.example.com/mcp", "oauth": { "clientId": "app-1", "clientSecret": "\${input:secret}", "scopes": ["read", "write"], "callbackPort": 33418 } }
  }
}`;
    const loaded = parseConfigText(text, MCP_JSON);
    assert.deepEqual(loaded.problems, []);
    assert.deepEqual(loaded.servers[0].config, { type: 'http', url: 'https://mcp.example.com/mcp', oauth: { clientId: 'app-1', clientSecret: '${input:secret}', scopes: ['read', 'write'], callbackPort: 33418 } });
    assert.deepEqual(loaded.servers[0].inputs.map((i) => i.id), ['secret'], 'the secret input belongs to the entry');
  });

  test('a literal secret, a secret input without password, a missing client id, bad scopes and port are errors that drop the entry', () => {
    const text = `{
  "inputs": [{ "id": "plain", "type": "promptString" }],
  "servers": {
    "literal": { "url": "https://a/mcp", "oauth": { "clientId": "x", "clientSecret": "s3cr3t" } },
    "plainInput": { "url": "https://a/mcp", "oauth": { "clientId": "x", "clientSecret": "\${input:plain}" } },
    "noId": { "url": "https://a/mcp", "oauth": { "scopes": ["a b"], "callbackPort": 0 } },
    "notObject": { "url": "https://a/mcp", "oauth": "app" },
    "stdio": { "command": "node", "oauth": { "clientId": "x" } }
  }
}`;
    const loaded = parseConfigText(text, MCP_JSON);
    assert.deepEqual(loaded.servers.map((s) => s.name), ['stdio']);
    const messages = loaded.problems.map((p) => `${p.severity} ${p.path}: ${p.message}`);
    assert.ok(messages.some((m) => m.startsWith('error servers.literal.oauth.clientSecret') && m.includes('not the secret itself')), messages.join('\n'));
    assert.ok(messages.some((m) => m.startsWith('error servers.plainInput.oauth.clientSecret') && m.includes('"password": true')), messages.join('\n'));
    assert.ok(messages.some((m) => m.startsWith('error servers.noId.oauth:') && m.includes('needs "clientId"')), messages.join('\n'));
    assert.ok(messages.some((m) => m.startsWith('error servers.noId.oauth.scopes[0]')), messages.join('\n'));
    assert.ok(messages.some((m) => m.startsWith('error servers.noId.oauth.callbackPort')), messages.join('\n'));
    assert.ok(messages.some((m) => m.startsWith('error servers.notObject.oauth') && m.includes('must be an object')), messages.join('\n'));
    assert.ok(messages.some((m) => m.startsWith('warning servers.stdio.oauth') && m.includes('ignored for a stdio server')), messages.join('\n'));
    assert.ok(!messages.some((m) => m.includes('s3cr3t')), 'the literal secret is not repeated in a message');
  });
});
