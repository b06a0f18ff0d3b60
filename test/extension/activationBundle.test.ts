import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

// scripts/test.mjs builds dist/ before the tests run.
const DIST = join(__dirname, '..', '..', '..', 'dist');

/** The source files in dist/extension.js (what activation reads), from its index source map (esbuild.mjs). */
function activationSources(): Set<string> {
  const map = JSON.parse(readFileSync(join(DIST, 'extension.js.map'), 'utf8')) as { sections: { map: { sources: string[] } }[] };
  // A library's path starts at node_modules/ (a linked node_modules/ is mapped through its real path).
  return new Set(map.sections.flatMap((s) => s.map.sources.map((f) => f.replace(/^(\.\.\/)+/, '').replace(/^.*?\/(node_modules\/)/, '$1'))));
}

/** Parts loaded on first use (lazy chunks), with what loads them. */
const LAZY_PARTS: Record<string, string> = {
  'src/serverRequests/sampling.ts': "a server's first sampling request",
  'src/serverRequests/elicitation.ts': "a server's first elicitation request",
  'src/forms/model.ts': "an elicitation's form",
  'src/forms/fieldChecks.ts': "an elicitation's form",
  'src/extension/serverRequests/prompter.ts': 'the first sampling or elicitation dialog',
  'src/extension/signIn/signIns.ts': "a remote server's first request, or Sign In / Sign Out (src/extension/signIn/signInsOnDemand.ts)",
  'src/extension/signIn/serverSignIns.ts': "a remote server's first request",
  'src/extension/signIn/secretTokenStore.ts': "a remote server's first request",
  'src/extension/signIn/signInPrompt.ts': 'the first sign-in dialog',
  'src/usecases/signInPage.ts': 'the first sign-in dialog',
  'src/auth/discovery.ts': "a remote server's first request",
  'src/auth/fileLock.ts': "a remote server's first request",
  'src/auth/tokenStore.ts': "a remote server's first request",
  'src/auth/session.ts': "a remote server's first request",
  'src/auth/flow.ts': "a remote server's first request",
  'src/auth/grants/': "a remote server's first request",
  'src/gallery/': 'Browse MCP Registry…',
  'src/extension/gallery/': 'Browse MCP Registry…',
  'src/extension/panels/useCaseWiring.ts': "the use cases (the configuration's first read, a server's start, or one of their commands)",
  'src/extension/panels/useCaseCommands.ts': 'the use cases',
  'src/extension/panels/useCaseContext.ts': 'the use cases',
  'src/extension/chat/chatState.ts': 'the use cases',
  'src/usecases/history.ts': 'the use cases',
  'src/extension/timeline/': 'the use cases',
  'src/timeline/': 'the use cases',
  'src/extension/skills/': 'the use cases',
  'src/transport/stdio.ts': "a local server's start",
  'src/registry/serverLaunch.ts': "the first server's start (src/registry/launchOnDemand.ts)",
  'src/client/client.ts': "the first server's start",
  'src/client/negotiation.ts': "the first server's start",
  'src/client/eras/': "the first server's start",
  'src/client/tasks.ts': "the first server's start",
  'src/client/modernTasks.ts': "the first server's start",
  'src/protocol/connection.ts': "the first server's start",
  'src/config/configReader.ts': "the configuration's first read (src/extension/config/workspaceConfig.ts)",
  'src/config/parse.ts': "the configuration's first read",
  'src/config/oauthBlock.ts': "the configuration's first read",
  'src/config/sandboxBlock.ts': "the configuration's first read",
  'node_modules/jsonc-parser/': "the configuration's first read",
  'src/extension/signIn/setToken.ts': 'Set Token',
  'node_modules/zod/': 'the first schema built (dist/vendor/zod.js)',
  'src/protocol/lazyChunks/zod.ts': 'the first schema built (dist/vendor/zod.js)',
};

test('activation reads neither the configuration parser, sampling and elicitation, the sign-ins, the OAuth flow, the registry gallery, the use cases, the timeline, the stdio transport, the client nor zod; they are chunks of their own', () => {
  assert.ok(existsSync(join(DIST, 'extension.js.map')), 'dist/ is built');
  const sources = [...activationSources()];
  assert.ok(sources.includes('src/extension.ts') && sources.some((f) => f.startsWith('src/client/')), 'the map lists what extension.js holds');
  const eager = Object.entries(LAZY_PARTS).filter(([part]) => sources.some((f) => f.startsWith(part))).map(([part, loadedBy]) => `${part} (needed only by ${loadedBy})`);
  assert.deepEqual(eager, [], 'in dist/extension.js');
});

/** What activate() of dist/extension.js did in a fresh process: the commands it registered, the files of dist/ it required. */
interface Activation {
  readonly registered: string[];
  readonly required: string[];
}

/**
 * Runs activate() of dist/extension.js in a fresh process with a stand-in `vscode` (every API an
 * inert object; registerCommand recorded), once per test run.
 */
let activation: Activation | undefined;
function activateInFreshProcess(): Activation {
  if (activation) return activation;
  const script = `
    const Module = require('node:module');
    const resolve = Module._resolveFilename;
    Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest); };
    const inert = new Proxy(function inert() {}, {
      get(_t, key) {
        if (key === 'then') return (f) => Promise.resolve(undefined).then(f);
        if (key === Symbol.iterator) return function* () {};
        if (key === Symbol.toPrimitive) return (hint) => (hint === 'number' ? 0 : '');
        if (key === 'length' || key === 'size') return 0;
        if (key === 'get') return (_k, fallback) => fallback;
        return inert;
      },
      apply: () => inert, construct: () => inert, set: () => true, defineProperty: () => true,
    });
    const registered = [];
    const commands = new Proxy({}, { get: (_t, key) => (key === 'registerCommand' ? (id) => (registered.push(id), { dispose() {} }) : inert) });
    require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: new Proxy({}, { get: (_t, key) => (key === 'commands' ? commands : inert) }) };
    process.on('unhandledRejection', () => {});
    const context = new Proxy({ subscriptions: [], extension: { packageJSON: { version: 'test' } }, globalStorageUri: { scheme: 'file', fsPath: require('node:os').tmpdir() } }, { get: (t, k) => (k in t ? t[k] : inert) });
    require(process.argv[1]).activate(context);
    const dist = require('node:path').dirname(process.argv[1]);
    const required = Object.keys(require.cache).filter((f) => f.startsWith(dist) && require('node:fs').existsSync(f)).map((f) => f.slice(dist.length + 1));
    console.log(JSON.stringify({ registered, required }));
    process.exit(0);
  `;
  const out = execFileSync(process.execPath, ['-e', script, join(DIST, 'extension.js')], { encoding: 'utf8', timeout: 30_000 });
  return (activation = JSON.parse(out.trim().split('\n').pop()!) as Activation);
}

test('activate() requires no file beside dist/extension.js: zod (dist/vendor/zod.js) and every schema wait for their first use', () => {
  assert.deepEqual(activateInFreshProcess().required, ['extension.js']);
});

test('activation registers every command package.json declares, each once (those of lazy parts by id)', () => {
  const { registered } = activateInFreshProcess();
  const pkg = JSON.parse(readFileSync(join(DIST, '..', 'package.json'), 'utf8')) as { contributes: { commands: { command: string }[] } };
  // A command of a lazy part needs its placeholder (lazyCommands.ts): VS Code runs a command only if activation registered it.
  const missing = pkg.contributes.commands.map((c) => c.command).filter((id) => !registered.includes(id));
  assert.deepEqual(missing, [], 'declared but not registered at activation');
  assert.deepEqual(registered.filter((id, i) => registered.indexOf(id) !== i), [], 'registered twice (VS Code refuses the second)');
});
