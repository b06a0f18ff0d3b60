// End-to-end: the MCP Host extension in a real VS Code (code-server), checked as a person sees it.
// Three launches, one workspace each (test/e2e/workspaces/); the configuration files' suites are in
// configFile.test.ts:
//   main      trusted folder: the consent dialog, server-everything's real tools/resources/prompts
//             in the tree, the initialize exchange and logging/setLevel at Trace in "MCP: everything",
//             a password input that no log file ever holds, and a config mistake shown at its line:column.
//   roots-a   multi-root (.code-workspace): server-filesystem with no directory arguments takes
//             its directories from the roots; adding roots-b to the workspace file changes them
//             (trace frames, the server's own stderr, the Roots node). Its .vscode/mcp.json has a
//             syntax error while the .mcp.json beside it runs.
//   untrusted Restricted Mode: the workspace server is never spawned and the tree says why; user
//             settings servers still run (in the home directory, not the folder), and one that
//             crashes shows its error and stderr.
// After each launch closes, no process of it is left. Screenshots: test-results/screenshots/e2e-*.png.
// Needs `npx tsc -p . && node scripts/package.mjs` first.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { clickReached, launch, repoRoot, traceFrames, type TreeItem, type Workbench } from './harness';
import { childrenOf, waitForTree } from './treeRows';
import { closeAndCheck, filesContaining, lineColumnOf, noteServers, REDACTED, statusBarText, step, stillRunning, TINY, until, VIEWPORT, VSIX, widenSideBar, WORKSPACES } from './extensionSteps';

describe('a trusted folder: server-everything, its log, a password input, a config mistake', () => {
  const WS = join(WORKSPACES, 'main');
  const SECRET = `e2e-secret-${randomBytes(6).toString('hex')}`;
  const servers = new Map<number, string>();
  let wb: Workbench;

  before(async () => {
    // Payloads cut at 1,000 characters: the initialize request (with its roots, sampling,
    // elicitation, tasks and MCP Apps capabilities) stays whole JSON, while server-everything's
    // initialize result (with its long instructions) is cut, and the cut itself is on show.
    wb = await launch({ workspace: WS, vsix: VSIX, viewport: VIEWPORT, settings: { 'mcpHost.log.maxPayloadChars': 1000 }, timeoutMs: 150_000 });
  }, { timeout: 160_000 });
  after(() => wb?.close());

  test('the consent dialog shows the exact command line and cwd; the tree shows the real tools, resources and prompts', { timeout: 120_000 }, async () => {
    await step(wb, 'everything-tree', async () => {
      await wb.openView('MCP Host');
      const consent = await wb.dialog({ timeoutMs: 30_000 });
      assert.ok(consent, 'showing the view starts the servers, and the workspace servers ask first');
      // Both start together: one dialog lists them, each with its exact command.
      assert.equal(consent.message, 'Start 2 MCP servers defined in this workspace?');
      const detail = consent.detail.split('\n');
      assert.ok(detail.includes('everything — .vscode/mcp.json (main)'), consent.detail);
      // Shown normalised: the entry's `${workspaceFolder}/../../../../node_modules/…` without the `..`s.
      const script = join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
      assert.ok(detail.includes(`  Command: node ${script} stdio`), consent.detail);
      assert.ok(detail.includes(`  Working directory: ${WS}`), consent.detail);
      assert.ok(detail.includes('  Environment variables it sets: (none)'), consent.detail);
      assert.ok(detail.includes('leaky — .vscode/mcp.json (main)'), consent.detail);
      assert.ok(detail.includes('  Environment variables it sets: API_TOKEN'), consent.detail);
      assert.ok(consent.buttons.includes('Allow All') && consent.buttons.includes('Deny All'), JSON.stringify(consent.buttons));
      await wb.screenshot('e2e-consent-dialog');
      await wb.answerDialog('Allow All');

      // Then leaky's password input.
      const password = wb.page.locator('.quick-input-widget .quick-input-box input[type="password"]');
      await password.waitFor({ state: 'visible', timeout: 30_000 });
      assert.match(await wb.page.locator('.quick-input-widget .quick-input-title').innerText(), /API token for leaky/);
      await password.fill(SECRET);
      await wb.page.keyboard.press('Enter');
      // Widened once the dialogs are answered: a modal dialog swallows the drag.
      await widenSideBar(wb);

      const running = (items: TreeItem[], name: string) => items.find((i) => i.level === 1 && i.label === name)?.description.endsWith(' · MCP 2025-11-25') ?? false;
      let items = await waitForTree(wb, 'everything and leaky to run', (rows) => running(rows, 'everything') && running(rows, 'leaky'), 60_000);
      noteServers(wb, servers, /server-everything|tiny\.mjs/);
      const everything = items.find((i) => i.label === 'everything')!;
      assert.match(everything.description, /^mcp-servers\/everything \d+\.\d+\.\d+ · \.vscode\/mcp\.json · MCP 2025-11-25$/);

      await wb.expandTreeItem('Tools');
      await wb.expandTreeItem('Resources');
      await wb.expandTreeItem('Prompts');
      items = await waitForTree(wb, 'the tool, resource and prompt rows', (rows) => childrenOf(rows, 'Prompts').some((i) => i.label === 'args-prompt'));
      // leaky has a Tools group too: look inside everything's rows only.
      const under = (group: string) => childrenOf(childrenOf(items, 'everything'), group);
      const tools = under('Tools').map((i) => i.label);
      for (const name of ['echo', 'get-sum', 'get-tiny-image']) assert.ok(tools.includes(name), `tool ${name} in ${JSON.stringify(tools)}`);
      assert.equal(String(tools.length), childrenOf(items, 'everything').find((i) => i.label === 'Tools')!.description, 'the Tools count is the number of rows');
      const resources = under('Resources');
      const architecture = resources.find((i) => i.label === 'architecture.md');
      assert.equal(architecture?.description, 'demo://resource/static/document/architecture.md', JSON.stringify(resources));
      assert.ok(resources.every((i) => i.description.startsWith('demo://')), JSON.stringify(resources));
      const prompts = under('Prompts').map((i) => i.label);
      for (const name of ['simple-prompt', 'args-prompt']) assert.ok(prompts.includes(name), `prompt ${name} in ${JSON.stringify(prompts)}`);
      // server-everything asks for roots right after initialize.
      await waitForTree(wb, 'the Roots row to say the server asked', (rows) => /^1 root · asked /.test(childrenOf(rows, 'everything').find((i) => i.label === 'Roots')?.description ?? ''));
      await until('the status bar entry', async () => (await statusBarText(wb)) === 'MCP 2 running, 1 config problem', 15_000);
      await wb.screenshot('e2e-everything-tree');
    });
  });

  test('at Trace, "MCP: everything" shows the initialize request and its result', { timeout: 90_000 }, async () => {
    await step(wb, 'trace', async () => {
      // At Info the channel has the lifecycle lines but no frames.
      const info = await wb.outputChannelText('MCP: everything', { contains: 'initialized: mcp-servers/everything' });
      assert.equal(traceFrames(info).length, 0, 'no frames below Trace');

      await wb.setLogLevel('MCP: everything', 'Trace');
      const isInitialize = (f: ReturnType<typeof traceFrames>[number]) => f.direction === 'send' && f.message?.method === 'initialize';
      // Changing the channel's level tells the running server at once, after the frames kept
      // from before Trace: the handshake of the running process is there without a restart.
      const raised = await wb.outputChannelText('MCP: everything', { contains: 'sent logging/setLevel debug (the output channel log level changed)', reveal: false, timeoutMs: 15_000 });
      assert.match(raised, /\d+ frames from before the level was Trace \(the first at /);
      const earlierText = raised.slice(raised.search(/\d+ frames from before the level was Trace/), raised.indexOf('(end of the earlier frames'));
      const earlier = traceFrames(earlierText);
      // Each replayed frame carries the time it was sent or received (the channel's own stamp is the time of the switch).
      const replayed = earlierText.split('\n').filter((l) => /\[(editor → server|server → editor)\]/.test(l));
      assert.ok(replayed.length > 0 && replayed.every((l) => /\[trace\] \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \[(editor|server) → /.test(l)), replayed.slice(0, 3).join('\n'));
      const earlyInit = earlier.find(isInitialize);
      assert.ok(earlyInit, 'the initialize request from before Trace');
      assert.ok(
        // (The result is cut at mcpHost.log.maxPayloadChars, so it is matched as text.)
        earlier.some((f) => f.direction === 'receive' && /"protocolVersion":"2025-11-25".*"serverInfo":\{"name":"mcp-servers\/everything"/.test(f.json)),
        'its result, from before Trace',
      );
      // A restart shows a new handshake live.
      await wb.runCommandAndPick('MCP Host: Restart Server', 'everything');
      const isSetLevel = (f: ReturnType<typeof traceFrames>[number]) => f.direction === 'send' && f.message?.method === 'logging/setLevel';
      const answered = (frames: ReturnType<typeof traceFrames>, request: ReturnType<typeof traceFrames>[number]) =>
        frames.some((f) => f.direction === 'receive' && f.message?.id === request.message.id && f.message.result !== undefined);
      // From the end of the earlier frames on: what was traced live.
      const live = (text: string) => text.slice(text.indexOf('(end of the earlier frames'));
      const log = live(await wb.outputChannelText('MCP: everything', {
        contains: (text) => {
          const frames = traceFrames(live(text));
          const initialized = frames.some((f) => f.direction === 'receive' && /"protocolVersion":"2025-11-25"/.test(f.json));
          return initialized && frames.slice(frames.findIndex(isInitialize)).some((f) => isSetLevel(f) && answered(frames, f));
        },
        timeoutMs: 45_000,
      }));
      const frames = traceFrames(log);
      // The channel at Trace maps to the MCP level "debug" (the lowest MCP has), sent both when the
      // level changed and to the restarted server once it was ready; server-everything declares logging.
      const setLevels = frames.filter(isSetLevel);
      assert.ok(setLevels.length >= 1, 'logging/setLevel was sent');
      for (const f of setLevels) assert.deepEqual(f.message.params, { level: 'debug' }, f.json);
      assert.ok(frames.indexOf(setLevels[0]) < frames.findIndex(isInitialize), 'the running server got the level when the channel changed');
      assert.ok(frames.indexOf(setLevels[setLevels.length - 1]) > frames.findIndex(isInitialize), 'the restarted server got it once ready');
      assert.match(log, /\[debug\] sent logging\/setLevel debug \(the server is ready\)/);
      const request = frames.find(isInitialize);
      assert.ok(request, 'the initialize request frame');
      assert.equal(request.message.params.clientInfo.name, 'mcp-host');
      assert.ok(request.message.params.capabilities.roots, 'the client offers roots');
      const at = frames.indexOf(request);
      const response = frames.slice(at + 1).find((f) => f.direction === 'receive' && (f.message ? f.message.id === request.message.id : /^\{"result":\{"protocolVersion"/.test(f.json)));
      assert.ok(response, 'the initialize result frame after the request');
      assert.match(response.json, /"protocolVersion":"2025-11-25"/);
      assert.match(response.json, /"serverInfo":\{"name":"mcp-servers\/everything"/);
      assert.match(response.json, / … \(cut: \d+ chars in full\)$/, 'the long result is cut at mcpHost.log.maxPayloadChars');
      const initialized = frames.slice(frames.indexOf(response) + 1).find((f) => f.direction === 'send' && f.message?.method === 'notifications/initialized');
      assert.ok(initialized, 'then notifications/initialized');
      await wb.waitForTreeItem('Tools', { timeoutMs: 30_000 });
      noteServers(wb, servers, /server-everything|tiny\.mjs/);
      // For the screenshot: the Output view filtered to the handshake frames, maximised.
      const filter = wb.page.locator('.part.panel .viewpane-filter input').first();
      await filter.fill('protocolVersion');
      await wb.runCommand('View: Toggle Maximized Panel');
      await until(
        'the filtered output to show the initialize result',
        // Monaco renders spaces as no-break spaces.
        async () => /\[server → editor\].*"protocolVersion"/s.test((await wb.page.locator('.part.panel .view-lines').first().innerText()).replace(/\u00a0/g, ' ')),
        10_000,
      );
      await wb.screenshot('e2e-trace-initialize');
      await wb.runCommand('View: Toggle Maximized Panel');
      await filter.fill('');
    });
  });

  test('the password input is hidden in the output channel and no log file holds it', { timeout: 60_000 }, async () => {
    await step(wb, 'secret', async () => {
      // leaky prints the value it got on stderr; the channel shows the line, redacted.
      const log = await wb.outputChannelText('MCP: leaky', { contains: 'stderr: API_TOKEN is' });
      assert.ok(log.includes(`stderr: API_TOKEN is ${REDACTED}`), log);
      assert.deepEqual(filesContaining(join(wb.userDataDir, 'logs'), SECRET), [], 'no log file of the launch holds the secret');
      await wb.screenshot('e2e-secret-redacted');
    });
  });

  test('an "args" string in .vscode/mcp.json shows at its line and column; the file\'s other servers run', { timeout: 60_000 }, async () => {
    await step(wb, 'config-problem', async () => {
      const text = readFileSync(join(WS, '.vscode', 'mcp.json'), 'utf8');
      const { line, column } = lineColumnOf(text, '"not-an-array"');
      const label = `mcp.json:${line}:${column} — server "bad": "args" must be an array of strings, found the string "not-an-array"`;
      const items = await waitForTree(wb, 'the problem row', (rows) => rows.some((i) => i.level === 1 && i.label === label));
      assert.equal(items[0].label, label, 'problems come first');
      assert.equal(items[0].description, '.vscode/mcp.json (main)');
      assert.ok(!items.some((i) => i.level === 1 && i.label === 'bad'), 'the broken entry is not a server');
      assert.ok(items.find((i) => i.label === 'leaky')?.description.startsWith('leaky 1.0.0 · '), 'the file\'s other servers run');
      await wb.screenshot('e2e-config-problem');
    });
  });

  test('reloading the window stops the servers on deactivate and starts them again, without asking again; the rows opened stay open', { timeout: 120_000 }, async () => {
    await step(wb, 'reload', async () => {
      const everything = /server-everything\/dist\/index\.js stdio/;
      const toolsOpen = (rows: TreeItem[]) => childrenOf(rows, 'everything').find((i) => i.label === 'Tools')?.expanded === true;
      if (!toolsOpen(await wb.treeItems())) await wb.expandTreeItem('Tools');
      await waitForTree(wb, 'the Tools of everything open', toolsOpen, 10_000);
      const before = wb.leftoverProcesses().filter((p) => everything.test(p.cmdline));
      assert.equal(before.length, 1, 'one server-everything runs before the reload');
      noteServers(wb, servers, /server-everything|tiny\.mjs/);
      await wb.reloadWindow();
      // The servers run in process groups of their own: only the extension's deactivate() stops them.
      await until('the old server-everything to be stopped by deactivate()', async () => !stillRunning(before[0].pid, before[0].cmdline), 30_000);
      await wb.openView('MCP Host');
      await waitForTree(wb, 'everything to run again', (rows) => / · MCP 2025-11-25$/.test(rows.find((i) => i.label === 'everything')?.description ?? ''), 60_000);
      assert.equal(await wb.dialog({ timeoutMs: 500 }), undefined, 'consent is remembered: no dialog after the reload');
      await waitForTree(wb, 'the Tools of everything open again after the reload', toolsOpen, 15_000);
      const after = wb.leftoverProcesses().filter((p) => everything.test(p.cmdline));
      assert.equal(after.length, 1, 'exactly one server-everything runs after the reload');
      assert.notEqual(after[0].pid, before[0].pid);
      noteServers(wb, servers, /server-everything|tiny\.mjs/);
    });
  });

  test('after close, no server process is left', { timeout: 60_000 }, async () => {
    await closeAndCheck(wb, servers, 2);
  });
});

describe('a multi-root workspace: roots follow the workspace folders; a broken .vscode/mcp.json beside a working .mcp.json', () => {
  const A = join(WORKSPACES, 'roots-a');
  const B = join(WORKSPACES, 'roots-b');
  const servers = new Map<number, string>();
  let wb: Workbench;

  before(async () => {
    wb = await launch({ workspace: { folders: [A] }, vsix: VSIX, viewport: VIEWPORT, timeoutMs: 150_000 });
  }, { timeout: 160_000 });
  after(() => wb?.close());

  test('the syntax error shows at its line and column, and filesystem from .mcp.json runs', { timeout: 120_000 }, async () => {
    await step(wb, 'broken-config', async () => {
      await wb.openView('MCP Host');
      const consent = await wb.dialog({ timeoutMs: 30_000 });
      assert.equal(consent?.message, 'Start the MCP server "filesystem" defined in this workspace?');
      assert.ok(consent.detail.split('\n').includes('Defined in: .mcp.json (roots-a)'), consent.detail);
      assert.ok(consent.detail.split('\n').includes(`Working directory: ${A}`), consent.detail);
      await wb.answerDialog('Allow');

      const text = readFileSync(join(A, '.vscode', 'mcp.json'), 'utf8');
      // The comma is missing before "args": that is where the parser stops.
      const { line, column } = lineColumnOf(text, '"args"');
      const label = `mcp.json:${line}:${column} — syntax error: comma expected`;
      const items = await waitForTree(wb, 'the problem row and filesystem running', (rows) =>
        rows.some((i) => i.label === label) && /^secure-filesystem-server .* · \.mcp\.json · MCP 2025-11-25$/.test(rows.find((i) => i.label === 'filesystem')?.description ?? ''),
      60_000);
      noteServers(wb, servers, /server-filesystem/);
      assert.deepEqual(items.filter((i) => i.level === 1).map((i) => i.label), [label, 'filesystem'], 'the half-typed server is not started');
      assert.equal(items[0].description, '.vscode/mcp.json (roots-a)');
      await until('the status bar entry', async () => (await statusBarText(wb)) === 'MCP 1 running, 1 config problem', 15_000);
      await wb.screenshot('e2e-broken-config');
    });
  });

  test('adding a workspace folder changes the roots server-filesystem works in', { timeout: 120_000 }, async () => {
    await step(wb, 'roots', async () => {
      const uriA = pathToFileURL(A).href;
      const uriB = pathToFileURL(B).href;
      await waitForTree(wb, 'filesystem to have asked for roots', (rows) => /^1 root · asked /.test(childrenOf(rows, 'filesystem').find((i) => i.label === 'Roots')?.description ?? ''));
      // Started without directory arguments, the server works in the roots it was given.
      await wb.outputChannelText('MCP: filesystem', { contains: 'stderr: Updated allowed directories from MCP roots: 1 valid directories' });

      await wb.setLogLevel('MCP: filesystem', 'Trace');
      // As a person editing the .code-workspace file: VS Code watches it and adds the folder.
      const workspaceFile = wb.workspaceFile!;
      const workspace = JSON.parse(readFileSync(workspaceFile, 'utf8')) as { folders: { path: string }[] };
      workspace.folders.push({ path: B });
      writeFileSync(workspaceFile, JSON.stringify(workspace, null, 2));

      const isRootsAnswer = (f: ReturnType<typeof traceFrames>[number]) => f.direction === 'send' && Array.isArray(f.message?.result?.roots);
      const log = await wb.outputChannelText('MCP: filesystem', {
        contains: (t) => traceFrames(t).some((f) => isRootsAnswer(f) && f.message.result.roots.length === 2) && t.includes('2 valid directories'),
        timeoutMs: 45_000,
      });
      const frames = traceFrames(log);
      const changed = frames.findIndex((f) => f.direction === 'send' && f.message?.method === 'notifications/roots/list_changed');
      assert.ok(changed >= 0, 'the host told the server the roots changed');
      const asked = frames.findIndex((f, i) => i > changed && f.direction === 'receive' && f.message?.method === 'roots/list');
      assert.ok(asked > changed, 'the server asked again');
      const answer = frames.find((f, i) => i > asked && isRootsAnswer(f) && f.message.id === frames[asked].message.id);
      assert.deepEqual(answer?.message.result.roots, [
        { uri: uriA, name: 'roots-a' },
        { uri: uriB, name: 'roots-b' },
      ]);
      // The server's own word that it now works in both folders.
      assert.match(log, /stderr: Updated allowed directories from MCP roots: 2 valid directories/);

      await wb.expandTreeItem('Roots');
      const items = await waitForTree(wb, 'the Roots node to show roots-b', (rows) => childrenOf(rows, 'Roots').some((i) => i.label === 'roots-b'));
      assert.match(items.find((i) => i.label === 'Roots')!.description, /^2 roots · asked /);
      assert.deepEqual(childrenOf(items, 'Roots').map((i) => [i.label, i.description]), [
        ['roots-a', A],
        ['roots-b', B],
      ]);
      noteServers(wb, servers, /server-filesystem/);
      await wb.screenshot('e2e-roots');
    });
  });

  test('list_allowed_directories, called from the editor, lists the new folder', { timeout: 90_000 }, async () => {
    await step(wb, 'list-allowed-directories', async () => {
      await wb.runCommand('MCP Host: Call Tool…');
      const input = wb.page.locator('.quick-input-widget .quick-input-box input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill('list_allowed_directories');
      await wb.pickQuickItem('list_allowed_directories');
      const frame = await until('the tool panel', async () => {
        for (const f of wb.page.frames()) {
          const title = await f.evaluate(() => document.querySelector('#app header h1')?.textContent ?? null).catch(() => null);
          if (title?.includes('list_allowed_directories')) return f;
        }
        return undefined;
      });
      await clickReached(frame.locator('#run'), 'Run');
      const result = frame.locator('.result .part-text');
      const text = await until('the tool result', async () => {
        const t = await result.first().innerText().catch(() => '');
        return t.includes(B) ? t : undefined;
      });
      assert.ok(text.includes(A) && text.includes(B), text);
      await wb.screenshot('e2e-list-allowed-directories');
    });
  });

  test('after close, no server process is left', { timeout: 60_000 }, async () => {
    await closeAndCheck(wb, servers, 1);
  });
});

describe('an untrusted folder: workspace servers blocked, user servers run, a crash shows its error', () => {
  const WS = join(WORKSPACES, 'untrusted');
  const markerDir = mkdtempSync(join(tmpdir(), 'mcp-host-e2e-marker-'));
  const servers = new Map<number, string>();
  let wb: Workbench;

  before(async () => {
    wb = await launch({
      workspace: WS,
      vsix: VSIX,
      trust: false,
      viewport: VIEWPORT,
      env: { MCP_E2E_MARKER_DIR: markerDir },
      settings: {
        'mcpHost.servers': {
          'user-server': { command: 'node', args: [TINY, '--name', 'user-tiny'] },
          crashy: { command: 'node', args: [TINY, '--name', 'crashy', '--exit-after-init'] },
        },
        'mcpHost.restart.maxRestarts': 1,
      },
      timeoutMs: 150_000,
    });
  }, { timeout: 160_000 });
  after(async () => {
    await wb?.close();
    rmSync(markerDir, { recursive: true, force: true });
  });

  test('the workspace server is not spawned and the tree says why; the user settings server runs', { timeout: 90_000 }, async () => {
    await step(wb, 'untrusted', async () => {
      await wb.openView('MCP Host');
      await widenSideBar(wb);
      const items = await waitForTree(wb, 'user-server running and workspace-server blocked', (rows) =>
        /^user-tiny 1\.0\.0 · User settings · MCP 2025-11-25$/.test(rows.find((i) => i.label === 'user-server')?.description ?? '') &&
        childrenOf(rows, 'workspace-server').length > 0,
      60_000);
      noteServers(wb, servers, /tiny\.mjs/);
      assert.equal(items.find((i) => i.label === 'workspace-server')?.description, 'blocked · .vscode/mcp.json');
      assert.deepEqual(childrenOf(items, 'workspace-server').map((i) => i.label), ['Workspace is not trusted — trust it to start servers defined in this workspace']);
      assert.match(await wb.page.locator('.part.sidebar').innerText(), /Restricted Mode: servers defined in this workspace do not start until you trust it\./);
      assert.equal(await wb.dialog(), undefined, 'no consent is asked for a server that cannot start');
      // Never spawned, not even briefly: it would have created this file.
      assert.equal(existsSync(join(markerDir, 'spawned')), false, 'the workspace server was never spawned');
      assert.ok(!wb.leftoverProcesses().some((p) => p.cmdline.includes('--touch')), 'no process of the workspace server');
      const host = await wb.outputChannelText('MCP Host', { contains: 'not trusted' });
      assert.match(host, /workspace not trusted/);
      // The user's server runs, but not in the untrusted folder (issue 8, item 1), and says so.
      const userLog = await wb.outputChannelText('MCP: user-server', { contains: 'working directory' });
      const where = /working directory (\S+): your home directory: the workspace is not trusted \(Restricted Mode\)/.exec(userLog);
      assert.ok(where, userLog);
      assert.ok(!where[1].startsWith(WS), `${where[1]} is outside the workspace`);
      await wb.screenshot('e2e-untrusted');
    });
  });

  test('a server that crashes after initialize shows the error and its stderr line', { timeout: 90_000 }, async () => {
    await step(wb, 'crash', async () => {
      // maxRestarts 1: one restart, then it stays in error without a "Restarting" row.
      const items = await waitForTree(wb, 'crashy to give up', (rows) => {
        const kids = childrenOf(rows, 'crashy');
        return /gave up/.test(kids[0]?.label ?? '') && kids.some((i) => i.label === 'tiny: crashing on purpose');
      }, 60_000);
      const crashy = items.find((i) => i.label === 'crashy')!;
      assert.equal(crashy.description, 'error · User settings');
      const kids = childrenOf(items, 'crashy');
      assert.equal(kids[0].label, 'the server exited unexpectedly (code 3); gave up after 1 restart in 3 minutes');
      assert.ok(!kids.some((i) => i.label.startsWith('Restarting')), 'no restart pending');
      assert.deepEqual(
        kids.slice(1).map((i) => [i.label, i.description]),
        [
          ['stderr', 'last 1 line'],
          ['tiny: crashing on purpose', ''],
        ],
      );
      await until('the status bar entry', async () => (await statusBarText(wb)) === 'MCP 1 running, 1 error, 1 blocked', 15_000);
      const log = await wb.outputChannelText('MCP: crashy', { contains: 'gave up' });
      assert.equal(log.match(/\[info\] started \(pid \d+\)/g)?.length, 2, 'started twice: once, then one restart');
      await wb.screenshot('e2e-crash');
    });
  });

  test('after close, no server process is left', { timeout: 60_000 }, async () => {
    await closeAndCheck(wb, servers, 1);
  });
});
