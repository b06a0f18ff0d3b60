import { after, before, suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseDotenv } from '../../src/config/dotenv';
import { parseConfigText } from '../../src/config/parse';
import { folderSources, settingsSource } from '../../src/config/sources';
import { RemoteServerConfig, StdioServerConfig } from '../../src/config/types';
import { ResolvedServer, ResolvedStdioServer, VariableContext, VariableError, defaultCwdFor, resolveEntry, resolveRemoteServer, resolveServer } from '../../src/config/variables';

let tmp: string;
before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-vars-'));
});
after(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

function stdio(partial: Partial<StdioServerConfig> & { command: string }): StdioServerConfig {
  return { type: 'stdio', args: [], env: {}, ...partial };
}

function asStdio(r: ResolvedServer): ResolvedStdioServer {
  assert.equal(r.type, 'stdio');
  return r as ResolvedStdioServer;
}

function context(overrides: Partial<VariableContext> = {}, inputs: Record<string, string> = {}): VariableContext & { asked: string[] } {
  const asked: string[] = [];
  return {
    workspaceFolder: '/ws/api',
    folders: { api: '/ws/api', web: '/ws/web-app' },
    userHome: '/home/ada',
    env: { PATH: '/usr/bin', HOME: '/home/ada', SECRET_THING: 'inherited', EMPTY: '' },
    platform: 'linux',
    asked,
    resolveInput: async (id) => {
      asked.push(id);
      if (!(id in inputs)) throw new Error(`input ${id} cancelled`);
      return inputs[id];
    },
    ...overrides,
  };
}

suite('resolveServer', () => {
  test('substitutes each kind of variable in command, args, env values, cwd', async () => {
    const ctx = context({}, { token: 's3cr3t-value' });
    const r = await resolveServer(
      stdio({
        command: '${workspaceFolder}/bin/server',
        args: ['--web=${workspaceFolder:web}', '--home=${userHome}', '--path=${env:PATH}', '--token=${input:token}', '${workspaceFolderBasename}${/}x', 'unset=${env:NOPE}'],
        env: { API: 'Bearer ${input:token}', BASE: '${workspaceFolder:web}' },
        cwd: '${workspaceFolder:web}/sub',
      }),
      ctx,
      '/ws/api',
    );
    assert.equal(r.command, '/ws/api/bin/server');
    assert.deepEqual(r.args, ['--web=/ws/web-app', '--home=/home/ada', '--path=/usr/bin', '--token=s3cr3t-value', 'api/x', 'unset=']);
    assert.equal(r.env.API, 'Bearer s3cr3t-value');
    assert.equal(r.env.BASE, '/ws/web-app');
    assert.equal(r.cwd, '/ws/web-app/sub');
    // The input, the environment's PATH and the env value built from the input; BASE is a workspace path.
    assert.deepEqual(r.secretValues, ['s3cr3t-value', '/usr/bin', 'Bearer s3cr3t-value']);
    assert.deepEqual(ctx.asked, ['token'], 'each input is asked once');
    assert.deepEqual(r.envNames, ['API', 'BASE']);
  });

  test('inherits the environment; null removes a variable; env names are listed for consent', async () => {
    const r = await resolveServer(stdio({ command: 'node', env: { SECRET_THING: null, NEW: 'x' } }), context(), '/ws/api');
    assert.equal(r.env.PATH, '/usr/bin');
    assert.equal(r.env.NEW, 'x');
    assert.ok(!('SECRET_THING' in r.env));
    assert.deepEqual(r.removedEnvNames, ['SECRET_THING']);
    assert.deepEqual(r.envNames, ['NEW']);
  });

  test('every unknown variable and folder is reported at once, before any input is asked', async () => {
    const ctx = context({}, { a: '1' });
    await assert.rejects(
      resolveServer(stdio({ command: '${input:a}', args: ['${workspaceRoot}', '${workspaceFolder:nope}'], env: { X: '${env:}' }, cwd: '${config:editor.tabSize}' }), ctx, '/ws'),
      (e: unknown) => {
        assert.ok(e instanceof VariableError);
        assert.deepEqual(e.issues, [
          { field: 'args[0]', message: 'unknown variable ${workspaceRoot}' },
          { field: 'args[1]', message: '${workspaceFolder:nope}: no workspace folder is named "nope" (folders: "api", "web")' },
          { field: 'env.X', message: '${env:}: expected ${env:NAME}' },
          { field: 'cwd', message: '${config:editor.tabSize}: config variables are not supported' },
        ]);
        assert.match(e.message, /^args\[0\]: unknown variable \$\{workspaceRoot\}; /);
        return true;
      },
    );
    assert.deepEqual(ctx.asked, []);
  });

  test('${workspaceFolder} without a folder is an error; a cancelled input rejects', async () => {
    await assert.rejects(resolveServer(stdio({ command: '${workspaceFolder}/x' }), context({ workspaceFolder: undefined }), '/home/ada'), /needs an open workspace folder/);
    await assert.rejects(resolveServer(stdio({ command: 'node', args: ['${input:missing}'] }), context(), '/ws'), /input missing cancelled/);
  });

  test('a leading ~ means home in command, args, cwd and envFile; elsewhere it stays', async () => {
    await fs.writeFile(path.join(tmp, '.env'), 'FROM_FILE=yes\n');
    const r = await resolveServer(stdio({ command: '~/bin/server', args: ['~', '~/data', 'a~/b', '--x=~/y', '~other'], cwd: '~/work', envFile: '~/.env' }), context({ userHome: tmp }), '/ws');
    assert.equal(r.command, path.join(tmp, 'bin/server'));
    assert.deepEqual(r.args, [tmp, path.join(tmp, 'data'), 'a~/b', '--x=~/y', '~other']);
    assert.equal(r.cwd, path.join(tmp, 'work'));
    assert.equal(r.envFile, path.join(tmp, '.env'));
    assert.equal(r.env.FROM_FILE, 'yes');
  });

  test('cwd defaults to the given folder; a relative cwd and envFile resolve against it', async () => {
    await fs.mkdir(path.join(tmp, 'proj'), { recursive: true });
    await fs.writeFile(path.join(tmp, 'proj', 'dev.env'), 'A=1\n');
    const base = path.join(tmp, 'proj');
    assert.equal((await resolveServer(stdio({ command: 'node' }), context(), base)).cwd, base);
    const r = await resolveServer(stdio({ command: 'node', cwd: 'sub', envFile: 'dev.env' }), context(), base);
    assert.equal(r.cwd, path.join(base, 'sub'));
    assert.equal(r.env.A, '1');
  });

  test('envFile is merged under the explicit env; a missing one is a clear error', async () => {
    const file = path.join(tmp, 'merge.env');
    await fs.writeFile(file, '# settings\nexport A=from-file\nB="two words" # comment\nC=file\nPATH=/file/bin\nbroken line\n');
    const r = await resolveServer(stdio({ command: 'node', envFile: file, env: { C: 'explicit', PATH: null } }), context(), '/ws');
    assert.equal(r.env.A, 'from-file');
    assert.equal(r.env.B, 'two words');
    assert.equal(r.env.C, 'explicit');
    assert.ok(!('PATH' in r.env), 'null in env removes the variable even when the envFile sets it');
    assert.deepEqual(r.envNames, ['A', 'B', 'C']);
    assert.deepEqual(r.warnings, [`envFile ${file}:6: skipped: expected KEY=VALUE`]);
    assert.deepEqual(r.secretValues, ['from-file', 'two words', '/file/bin', 'explicit'], 'every envFile and env value but the short "file"');
    await assert.rejects(resolveServer(stdio({ command: 'node', envFile: 'nope.env' }), context(), tmp), new RegExp(`envFile ${path.join(tmp, 'nope.env').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: no such file`));
  });

  test('on Windows env names are case-insensitive', async () => {
    const ctx = context({ platform: 'win32', env: { Path: 'C:\\Windows', Foo: 'bar' } });
    const r = await resolveServer(stdio({ command: 'node', args: ['${env:PATH}'], env: { PATH: 'C:\\bin', FOO: null } }), ctx, 'C:\\ws');
    assert.deepEqual(r.args, ['C:\\Windows']);
    assert.deepEqual(Object.keys(r.env).sort(), ['PATH']);
    assert.equal(r.env.PATH, 'C:\\bin');
  });

  test('the claude dialect (.mcp.json) expands ${VAR} and ${VAR:-default} like Claude Code', async () => {
    const config = stdio({ command: 'node', args: ['${HOME}/x', '${NOPE:-fallback}', '${EMPTY:-was-empty}', '${EMPTY}', '${workspaceFolder}'] });
    const r = await resolveServer(config, context(), '/ws', { dialect: 'claude' });
    assert.deepEqual(r.args, ['/home/ada/x', 'fallback', 'was-empty', '', '/ws/api']);
    await assert.rejects(resolveServer(stdio({ command: '${NOT_SET}' }), context(), '/ws', { dialect: 'claude' }), /the environment variable NOT_SET is not set/);
    await assert.rejects(resolveServer(stdio({ command: '${HOME}' }), context(), '/ws'), /unknown variable \$\{HOME\}/, 'not in the vscode dialect');
  });
});

suite('resolveEntry', () => {
  const api = { name: 'api', fsPath: '/ws/api' };
  const web = { name: 'web', fsPath: '/ws/web-app' };

  test('${workspaceFolder} and the default cwd are the folder holding the config', async () => {
    const [mcpJson] = folderSources(web);
    const entry = parseConfigText('{ "servers": { "s": { "command": "${workspaceFolder}/run" } } }', mcpJson).servers[0];
    const r = asStdio(await resolveEntry(entry, context()));
    assert.equal(r.command, '/ws/web-app/run');
    assert.equal(r.cwd, '/ws/web-app');
  });

  test('user settings run in the first workspace folder, else in home; never in an untrusted folder', () => {
    const folders = { api: api.fsPath, web: web.fsPath };
    const cwdOf = (...args: Parameters<typeof defaultCwdFor>) => defaultCwdFor(...args).cwd;
    assert.equal(cwdOf(settingsSource('user'), { folders, userHome: '/home/ada' }), '/ws/api');
    assert.equal(cwdOf(settingsSource('user'), { folders: {}, userHome: '/home/ada' }), '/home/ada');
    assert.equal(cwdOf(settingsSource('folder', web), { folders: { api: api.fsPath }, userHome: '/home/ada' }), '/ws/web-app');
    assert.deepEqual(defaultCwdFor(settingsSource('user'), { folders, userHome: '/home/ada', untrustedFolders: Object.values(folders) }), {
      cwd: '/home/ada',
      reason: 'your home directory: the workspace is not trusted (Restricted Mode), so a server from your settings does not run in its folders',
    });
    // The user opened their home directory itself, untrusted.
    assert.equal(cwdOf(settingsSource('user'), { folders: { home: '/home/ada' }, userHome: '/home/ada', untrustedFolders: ['/home/ada'], platform: 'linux' }), '/');
  });

  test('.mcp.json entries use the claude dialect, in url and headers too', async () => {
    const [, dotMcp] = folderSources(api);
    const loaded = parseConfigText('{ "mcpServers": { "s": { "command": "node", "args": ["${HOME}"] }, "r": { "url": "https://${HOST:-mcp.example.com}/mcp", "headers": { "X-Home": "${HOME}" } } } }', dotMcp);
    assert.deepEqual(asStdio(await resolveEntry(loaded.servers[0], context())).args, ['/home/ada']);
    const remote = await resolveEntry(loaded.servers[1], context());
    // A value from the environment is redacted wherever it came in (issue 8): the header's too.
    assert.deepEqual(remote, { type: 'http', url: 'https://mcp.example.com/mcp', headers: { 'X-Home': '/home/ada' }, secretValues: ['/home/ada'], secretHeaderNames: [], warnings: [] });
  });

  test('a remote entry of .vscode/mcp.json: ${workspaceFolder} is the folder holding it', async () => {
    const [mcpJson] = folderSources(web);
    const entry = parseConfigText('{ "servers": { "r": { "type": "sse", "url": "http://127.0.0.1:9/sse?ws=${workspaceFolderBasename}" } } }', mcpJson).servers[0];
    const r = await resolveEntry(entry, context());
    assert.equal(r.type === 'sse' && r.url, 'http://127.0.0.1:9/sse?ws=web-app');
  });
});

suite('resolveRemoteServer', () => {
  const remote = (partial: Partial<RemoteServerConfig> = {}): RemoteServerConfig => ({ type: 'http', url: 'https://mcp.example.com/mcp', ...partial });

  test('substitutes inputs, env and the workspace folder in url and headers; secrets are recorded', async () => {
    const ctx = context({ env: { TEAM: 'blue', API_KEY: 'k-from-env-123' } }, { token: 'tok-123456', region: 'eu' });
    const r = await resolveRemoteServer(
      remote({
        url: 'https://${input:region}.example.com/mcp?team=${env:TEAM}&ws=${workspaceFolderBasename}',
        headers: { Authorization: 'Bearer ${input:token}', 'X-Api-Key': '${env:API_KEY}', 'X-Team': '${env:TEAM}', 'X-Trace': 'on' },
      }),
      ctx,
    );
    assert.equal(r.url, 'https://eu.example.com/mcp?team=blue&ws=api');
    assert.deepEqual(r.headers, { Authorization: 'Bearer tok-123456', 'X-Api-Key': 'k-from-env-123', 'X-Team': 'blue', 'X-Trace': 'on' });
    assert.deepEqual(ctx.asked, ['region', 'token'], 'each input asked once, in the order of use');
    assert.deepEqual(r.secretHeaderNames, ['Authorization', 'X-Api-Key']);
    // Input values, the whole Authorization value and its credentials, and the API key from the environment.
    assert.deepEqual([...r.secretValues].sort(), ['Bearer tok-123456', 'eu', 'k-from-env-123', 'tok-123456']);
  });

  test('a literal Authorization header is secret; a header built from an input is secret whatever its name', async () => {
    const r = await resolveRemoteServer(remote({ headers: { authorization: 'Basic dXNlcjpwdw==', 'X-Tenant': '${input:tenant}' } }), context({}, { tenant: 'acme-corp' }));
    assert.deepEqual(r.secretHeaderNames, ['X-Tenant', 'authorization']);
    assert.deepEqual([...r.secretValues].sort(), ['Basic dXNlcjpwdw==', 'acme-corp', 'dXNlcjpwdw==']);
  });

  test('every unresolvable variable is reported before any input is asked; a bad URL or header value after substitution is an error', async () => {
    const ctx = context({}, { u: 'ftp://files.example.com', nl: 'a\r\nInjected: 1' });
    await assert.rejects(
      resolveRemoteServer(remote({ url: '${input:u}${nope}', headers: { 'X-A': '${env:}' } }), ctx),
      (error: unknown) => {
        assert.ok(error instanceof VariableError);
        assert.deepEqual(error.issues.map((i) => i.field), ['url', 'headers.X-A']);
        return true;
      },
    );
    assert.deepEqual(ctx.asked, []);
    const preview = await resolveRemoteServer(remote({ url: 'https://${input:u}/mcp' }), context({}, { u: '${input:u}' }), { preview: true });
    assert.equal(preview.url, 'https://${input:u}/mcp', 'a preview keeps the input references and is not checked');
    await assert.rejects(resolveRemoteServer(remote({ url: '${input:u}' }), ctx), /url: "ftp:\/\/files.example.com" is not an http:\/\/ or https:\/\/ URL/);
    await assert.rejects(resolveRemoteServer(remote({ url: '${env:EMPTY}' }), ctx), /url: "" is not a URL/);
    await assert.rejects(resolveRemoteServer(remote({ headers: { 'X-B': '${input:nl}' } }), ctx), /headers.X-B: a header value must not contain a line break/);
  });
});

suite('parseDotenv', () => {
  test('KEY=VALUE, export, comments, quotes, escapes, multi-line values', () => {
    const text = [
      '# comment',
      '',
      'PLAIN=value',
      'export EXPORTED=yes',
      '  SPACED  =  padded value  ',
      'HASH=abc#def',
      'COMMENTED=abc # trailing comment',
      "SINGLE='literal \\n $HOME # not a comment'",
      'DOUBLE="line1\\nline2 \\"quoted\\" \\\\ end"',
      'MULTI="first',
      'second"',
      'BACKTICK=`it\'s "both"`',
      'EMPTY=',
      'EMPTY_QUOTED=""',
      'URL=https://example.com/?a=1&b=2',
      'DUP=1',
      'DUP=2',
      'not a line',
      'UNCLOSED="oops',
    ].join('\r\n');
    const { values, warnings } = parseDotenv(text);
    assert.deepEqual(values, {
      PLAIN: 'value',
      EXPORTED: 'yes',
      SPACED: 'padded value',
      HASH: 'abc#def',
      COMMENTED: 'abc',
      SINGLE: 'literal \\n $HOME # not a comment',
      DOUBLE: 'line1\nline2 "quoted" \\ end',
      MULTI: 'first\nsecond',
      BACKTICK: `it's "both"`,
      EMPTY: '',
      EMPTY_QUOTED: '',
      URL: 'https://example.com/?a=1&b=2',
      DUP: '2',
    });
    assert.deepEqual(warnings, [
      { line: 18, message: 'skipped: expected KEY=VALUE' },
      { line: 19, message: 'skipped UNCLOSED: no closing "' },
    ]);
  });
});

suite('resolveRemoteServer: "oauth"', () => {
  test('the client secret is substituted and always secret, however short', async () => {
    const r = await resolveRemoteServer({ type: 'http', url: 'https://mcp.example.com/mcp', oauth: { clientId: 'app-${env:TEAM}', clientSecret: '${input:cs}', scopes: ['read'] } }, context({ env: { TEAM: 'blue' } }, { cs: 'abc' }));
    assert.deepEqual(r.oauth, { clientId: 'app-blue', clientSecret: 'abc', scopes: ['read'] });
    assert.ok(r.secretValues.includes('abc'));
  });

  test('an empty client secret is an error', async () => {
    await assert.rejects(resolveRemoteServer({ type: 'http', url: 'https://mcp.example.com/mcp', oauth: { clientId: 'app', clientSecret: '${input:cs}' } }, context({}, { cs: '' })), (e: unknown) => e instanceof VariableError && e.issues.some((i) => i.field === 'oauth.clientSecret'));
  });
});
