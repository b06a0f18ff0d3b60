// End-to-end: the MCP Host extension in a real VS Code (code-server), checked as a person sees it.
// Five launches, one workspace each (test/e2e/workspaces/, or a temp folder):
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
//   (temp)    untrusted, a .vscode/mcp.json nested 2,000 deep: one problem, the user's server runs.
//   (temp)    an empty folder with startPolicy "never": MCP Host activates only when its view is
//             shown; the welcome view's button creates .vscode/mcp.json; servers are listed, not
//             started, until Start; edits on disk start, restart and stop exactly the servers they
//             touch; the status bar, "Show Output" on the context menu, a syntax error in Problems;
//             a pickString (quick pick) and a promptString asked once and kept across a restart,
//             asked again after "Clear Stored Inputs"; "Forget Consent" asks consent again.
// After each launch closes, no process of it is left. Screenshots: test-results/screenshots/e2e-*.png.
// Needs `npx tsc -p . && node scripts/package.mjs` first.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { EXAMPLE_MCP_JSON } from '../../src/extension/config/exampleConfig';
import { clickReached, defaultVsixPath, launch, poll, repoRoot, step as runStep, traceFrames, type TreeItem, type Workbench } from './harness';
import { childrenOf, waitForTree } from './treeRows';

const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;
const WORKSPACES = join(repoRoot, 'test', 'e2e', 'workspaces');
const TINY = join(WORKSPACES, 'servers', 'tiny.mjs');
/** Wide enough for a side bar that shows problem and error rows whole, beside the Output panel. */
const VIEWPORT = { width: 1600, height: 1000 };
/** What the logs show instead of a secret (src/protocol/redaction.ts). */
const REDACTED = '••••';

// ---------------------------------------------------------------------------------------------
// Helpers: everything here goes through what is on screen or in the files VS Code writes.

/** Polls `probe` until it returns something truthy; the last value goes into the error. */
async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  let value: T | undefined | false;
  let last = '';
  await poll(
    async () => {
      try {
        value = await probe();
      } catch (error) {
        last = error instanceof Error ? error.message : String(error);
        value = undefined;
      }
      return Boolean(value);
    },
    { timeoutMs, what, detail: () => last },
  );
  return value as T;
}

/** Drags the sash so the side bar is `width` px wide: long labels (problems, errors) read whole in screenshots. */
async function widenSideBar(wb: Workbench, width = 820): Promise<void> {
  const page = wb.page;
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box || box.width >= width - 10) return;
  const y = box.y + box.height / 3;
  await page.mouse.move(box.x + box.width + 1, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width, y, { steps: 8 });
  await page.mouse.up();
  await poll(async () => ((await page.locator('.part.sidebar').boundingBox())?.width ?? 0) >= width - 20, { timeoutMs: 5_000, what: 'the side bar to widen' });
}

/** The MCP Host entry of the status bar ("MCP 2 running, 1 error"). */
async function statusBarText(wb: Workbench): Promise<string> {
  const item = wb.page.locator('.part.statusbar .statusbar-item', { hasText: /MCP \d+ running/ }).first();
  return (await item.innerText().catch(() => '')).trim();
}

/** "Developer: Set Log Level..." → the channel → Trace, as a person would. */
/** 1-based line and column of the first `needle` in `text`: the independent oracle for problem positions. */
function lineColumnOf(text: string, needle: string): { line: number; column: number } {
  const offset = text.indexOf(needle);
  assert.ok(offset >= 0, `${needle} is in the fixture`);
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

/** Every file under `dir` whose text contains `needle`. */
function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile() && readFileSync(p, 'utf8').includes(needle)) found.push(p);
    }
  };
  if (existsSync(dir)) walk(dir);
  return found;
}

/** Notes the MCP server processes of a launch, so the check after close() does not rely on the harness alone. */
function noteServers(wb: Workbench, seen: Map<number, string>, pattern: RegExp): void {
  for (const p of wb.leftoverProcesses()) if (pattern.test(p.cmdline)) seen.set(p.pid, p.cmdline);
}

/** Whether a process with this pid and command line still runs (pids get reused). */
function stillRunning(pid: number, cmdline: string): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return false;
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim() === cmdline;
  } catch {
    return false;
  }
}

/** close(), then no process of the launch and none of the servers seen during it may be left. */
async function closeAndCheck(wb: Workbench, servers: Map<number, string>, expectAtLeast: number): Promise<void> {
  assert.ok(servers.size >= expectAtLeast, `saw ${servers.size} server process(es) while the launch ran: ${[...servers.values()].join('; ')}`);
  await wb.close(); // throws when something of the launch survives
  assert.deepEqual(wb.leftoverProcesses(), [], 'no process of the launch outlives close()');
  const left = [...servers].filter(([pid, cmdline]) => stillRunning(pid, cmdline));
  assert.deepEqual(left, [], 'every MCP server process seen during the launch is gone');
}

/** Runs a step; on failure saves a screenshot named after it. */
function step<T>(wb: Workbench, name: string, fn: () => Promise<T>): Promise<T> {
  return runStep(wb, `e2e-failed-${name}`, fn);
}

// ---------------------------------------------------------------------------------------------

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

describe('a hostile .vscode/mcp.json nested 2,000 deep: one problem, the user\'s own server still runs', () => {
  // A temp folder: the 4 KB file that used to make the whole configuration read fail (issue 8, item 6).
  const WS = mkdtempSync(join(tmpdir(), 'mcp-host-e2e-deep-'));
  const servers = new Map<number, string>();
  let wb: Workbench;

  before(async () => {
    mkdirSync(join(WS, '.vscode'));
    writeFileSync(join(WS, '.vscode', 'mcp.json'), `{"servers":{"deep":{"command":"node","args":${'['.repeat(2000)}${']'.repeat(2000)}}}}`);
    wb = await launch({
      workspace: WS,
      vsix: VSIX,
      trust: false,
      viewport: VIEWPORT,
      settings: { 'mcpHost.servers': { 'user-server': { command: 'node', args: [TINY, '--name', 'user-tiny'] } } },
      timeoutMs: 150_000,
    });
  }, { timeout: 160_000 });
  after(async () => {
    await wb?.close();
    rmSync(WS, { recursive: true, force: true });
  });

  test('the file is one problem in the tree and the Problems panel; the user settings server runs', { timeout: 90_000 }, async () => {
    await step(wb, 'deep-config', async () => {
      await wb.openView('MCP Host');
      await widenSideBar(wb);
      const problem = /^mcp\.json:1:\d+ — the value is nested more than 64 levels deep/;
      const items = await waitForTree(wb, 'the problem row and user-server running', (rows) =>
        rows.some((i) => problem.test(i.label)) && /^user-tiny 1\.0\.0 · User settings · MCP 2025-11-25$/.test(rows.find((i) => i.label === 'user-server')?.description ?? ''),
      60_000);
      noteServers(wb, servers, /tiny\.mjs/);
      assert.equal(items.filter((i) => i.level === 1 && problem.test(i.label)).length, 1, 'one problem for the whole file');
      await until('the status bar entry', async () => (await statusBarText(wb)) === 'MCP 1 running, 1 config problem', 15_000);
      await wb.screenshot('e2e-deep-config');
    });
  });

  test('after close, no server process is left', { timeout: 60_000 }, async () => {
    await closeAndCheck(wb, servers, 1);
  });
});

describe('a folder with no config: lazy activation, the welcome view, startPolicy "never", the config file watched', () => {
  // A temp folder, so the steps can write .vscode/mcp.json without touching the repository.
  const WS = mkdtempSync(join(tmpdir(), 'mcp-host-e2e-watch-'));
  const CONFIG = join(WS, '.vscode', 'mcp.json');
  const servers = new Map<number, string>();
  let wb: Workbench;

  /** A .vscode/mcp.json of tiny servers; `extra` arguments make an entry differ. */
  const tinyConfig = (entries: Record<string, string[]>): string =>
    JSON.stringify({ servers: Object.fromEntries(Object.entries(entries).map(([name, extra]) => [name, { command: 'node', args: [TINY, '--name', name, ...extra] }])) }, null, 2);
  /** The live process of the tiny server `name` (one at most). */
  const tinyProcess = (name: string) => {
    const found = wb.leftoverProcesses().filter((p) => p.cmdline.includes(`tiny.mjs --name ${name}`));
    assert.ok(found.length <= 1, `at most one process of ${name}: ${JSON.stringify(found)}`);
    return found[0];
  };
  const rowOf = (items: TreeItem[], name: string) => items.find((i) => i.level === 1 && i.label === name);
  const isRunning = (items: TreeItem[], name: string) => new RegExp(`^${name} 1\\.0\\.0 · .* · MCP 2025-11-25$`).test(rowOf(items, name)?.description ?? '');
  /** Answers the consent dialogs that come, one per name, in any order; returns the names asked about. */
  // Allows the servers named, whichever way consent comes: one dialog a server, or one dialog for
  // the servers that start together (their names lead the lines of its detail).
  const allowEach = async (names: string[]): Promise<string[]> => {
    const asked: string[] = [];
    while (asked.length < names.length) {
      const d = await wb.dialog({ timeoutMs: 30_000 });
      const single = /^Start the MCP server "(.+)" defined in this workspace\?$/.exec(d?.message ?? '')?.[1];
      const listed = single ? [single] : /^Start \d+ MCP servers/.test(d?.message ?? '') ? [...(d?.detail ?? '').matchAll(/^(\S+) — /gm)].map((m) => m[1]) : [];
      assert.ok(listed.length > 0 && listed.every((n) => names.includes(n) && !asked.includes(n)), `a consent dialog for ${JSON.stringify(names)}: ${JSON.stringify(d)}`);
      asked.push(...listed);
      await wb.answerDialog(single ? 'Allow' : 'Allow All');
    }
    return asked.sort();
  };
  /** The extension host's own log: which extension activated, on which event. */
  const extHostLog = (): string => {
    const logs = join(wb.userDataDir, 'logs');
    let text = '';
    for (const session of existsSync(logs) ? readdirSync(logs) : []) {
      for (const host of readdirSync(join(logs, session)).filter((d) => /^exthost\d+$/.test(d))) {
        const file = join(logs, session, host, 'remoteexthost.log');
        if (existsSync(file)) text += readFileSync(file, 'utf8');
      }
    }
    return text;
  };

  before(async () => {
    writeFileSync(join(WS, 'README.md'), 'A folder without MCP configuration (extension.test.ts).\n');
    wb = await launch({ workspace: WS, vsix: VSIX, viewport: VIEWPORT, settings: { 'mcpHost.startPolicy': 'never' }, timeoutMs: 150_000 });
  }, { timeout: 160_000 });
  after(async () => {
    await wb?.close();
    rmSync(WS, { recursive: true, force: true });
  });

  test('nothing activates MCP Host until its view is shown; the welcome view creates .vscode/mcp.json and opens it', { timeout: 90_000 }, async () => {
    await step(wb, 'welcome', async () => {
      // onStartupFinished has fired once other extensions activated on it; MCP Host is not among them.
      await until('the extension host to finish startup', async () => /activationEvent: 'onStartupFinished'/.test(extHostLog()), 60_000);
      assert.doesNotMatch(extHostLog(), /_doActivateExtension mcp-host\.mcp-host/, 'a folder without a config file does not activate MCP Host');

      await wb.openView('MCP Host');
      await widenSideBar(wb);
      const welcome = await until('the welcome view', async () => {
        // Read off the screen: the view has no tree rows (and no tree widget) yet.
        const text = (await wb.page.locator('.part.sidebar .welcome-view-content').first().innerText()).trim();
        return text.includes('No MCP servers are configured for this workspace.') ? text : undefined;
      });
      assert.match(welcome, /Create \.vscode\/mcp\.json/);
      assert.match(extHostLog(), /_doActivateExtension mcp-host\.mcp-host, startup: false, activationEvent: 'onView:mcpHost\.servers'/);
      await wb.screenshot('e2e-welcome');

      await wb.page.locator('.part.sidebar .welcome-view-content .monaco-button', { hasText: 'Create .vscode/mcp.json' }).first().click();
      await until('mcp.json in the active editor tab', async () => (await wb.page.locator('.part.editor .tab.active').first().getAttribute('data-resource-name')) === 'mcp.json', 15_000);
      assert.equal(readFileSync(CONFIG, 'utf8'), EXAMPLE_MCP_JSON);
      await until('the editor to show the example', async () => (await wb.page.locator('.part.editor .view-lines').first().innerText()).includes('"servers"'), 10_000);
      // The watcher reads the new file; with startPolicy "never" its server is listed, not started.
      const items = await waitForTree(wb, 'the example server, stopped', (rows) => rowOf(rows, 'everything')?.description === 'stopped · .vscode/mcp.json');
      assert.deepEqual(items.filter((i) => i.level === 1).map((i) => i.label), ['everything']);
      await wb.screenshot('e2e-welcome-created');
    });
  });

  test('startPolicy "never": the view shows the servers stopped, nothing asks or spawns; Start from the command palette starts one', { timeout: 90_000 }, async () => {
    await step(wb, 'start-policy-never', async () => {
      writeFileSync(CONFIG, tinyConfig({ keep: [], change: [], remove: [] }));
      await waitForTree(wb, 'three stopped servers', (rows) =>
        rows.filter((i) => i.level === 1).map((i) => `${i.label} | ${i.description}`).join('\n') === ['keep', 'change', 'remove'].map((n) => `${n} | stopped · .vscode/mcp.json`).join('\n'),
      );
      assert.equal(await wb.dialog({ timeoutMs: 1_000 }), undefined, 'no consent is asked: nothing is starting');
      assert.deepEqual(wb.leftoverProcesses().filter((p) => /tiny\.mjs|server-everything/.test(p.cmdline)), [], 'no server process');
      const hostLog = await wb.outputChannelText('MCP Host', { contains: /Configuration read \(.*\): 3 server\(s\)/, reveal: false });
      assert.doesNotMatch(hostLog, /Starting the configured servers/);
      await wb.screenshot('e2e-start-policy-never');

      await wb.runCommandAndPick('MCP Host: Start Server', 'keep');
      assert.deepEqual(await allowEach(['keep']), ['keep']);
      const items = await waitForTree(wb, 'keep to run', (rows) => isRunning(rows, 'keep'));
      assert.equal(rowOf(items, 'change')?.description, 'stopped · .vscode/mcp.json');
      assert.equal(rowOf(items, 'remove')?.description, 'stopped · .vscode/mcp.json');
      assert.ok(tinyProcess('keep'), 'keep runs');
      assert.equal(tinyProcess('change'), undefined);
      noteServers(wb, servers, /tiny\.mjs/);
    });
  });

  test('editing .vscode/mcp.json on disk starts the added server, restarts the changed one, stops the removed one, leaves the rest', { timeout: 120_000 }, async () => {
    await step(wb, 'file-watch', async () => {
      // The policy switched to onStartup (in the workspace's settings, over the user's "never")
      // starts what is not running yet, at once.
      writeFileSync(join(WS, '.vscode', 'settings.json'), JSON.stringify({ 'mcpHost.startPolicy': 'onStartup' }, null, 2));
      assert.deepEqual(await allowEach(['change', 'remove']), ['change', 'remove']);
      await waitForTree(wb, 'all three to run', (rows) => ['keep', 'change', 'remove'].every((n) => isRunning(rows, n)));
      noteServers(wb, servers, /tiny\.mjs/);
      const before = { keep: tinyProcess('keep'), change: tinyProcess('change'), remove: tinyProcess('remove') };
      for (const [name, p] of Object.entries(before)) assert.ok(p, `${name} runs`);
      const keepLog = await wb.outputChannelText('MCP: keep', { contains: 'started (pid', reveal: false });
      assert.deepEqual(keepLog.match(/started \(pid \d+\)/g), [`started (pid ${before.keep.pid})`]);

      // As a person saving the file: "change" gets another argument, "remove" goes, "added" comes.
      writeFileSync(CONFIG, tinyConfig({ keep: [], change: ['--print-env', 'MCP_E2E_CHANGED'], added: [] }));
      // A changed entry is a new command line: it asks again, as a new one does.
      assert.deepEqual(await allowEach(['change', 'added']), ['added', 'change']);
      const items = await waitForTree(wb, 'keep, change and added to run, remove to go', (rows) =>
        ['keep', 'change', 'added'].every((n) => isRunning(rows, n)) && !rowOf(rows, 'remove'),
      );
      noteServers(wb, servers, /tiny\.mjs/);
      assert.deepEqual(items.filter((i) => i.level === 1).map((i) => i.label), ['keep', 'change', 'added']);
      await until('the old processes of change and remove to end', async () => !stillRunning(before.change.pid, before.change.cmdline) && !stillRunning(before.remove.pid, before.remove.cmdline), 15_000);
      assert.equal(tinyProcess('remove'), undefined, 'remove stopped');
      assert.equal(tinyProcess('keep')?.pid, before.keep.pid, 'keep was left alone');
      const changed = tinyProcess('change');
      assert.ok(changed && changed.pid !== before.change.pid && changed.cmdline.endsWith('--print-env MCP_E2E_CHANGED'), `change runs its new command line: ${JSON.stringify(changed)}`);
      assert.ok(tinyProcess('added'), 'added runs');
      // What a person reads in the channels: one start for keep, two for change.
      assert.deepEqual((await wb.outputChannelText('MCP: keep', { reveal: false })).match(/started \(pid \d+\)/g), [`started (pid ${before.keep.pid})`]);
      const changeLog = await wb.outputChannelText('MCP: change', { contains: `started (pid ${changed.pid})`, reveal: false });
      assert.equal(changeLog.match(/started \(pid \d+\)/g)?.length, 2, changeLog);
      await wb.screenshot('e2e-file-watch');
    });
  });

  test('the status bar shows the view; "Show Output" on a server\'s context menu shows its channel; a syntax error is in Problems at its line and column', { timeout: 90_000 }, async () => {
    await step(wb, 'status-output-problems', async () => {
      const page = wb.page;
      const sideBarTitle = async () => ((await page.locator('.part.sidebar .composite.title h2').first().textContent()) ?? '').trim();
      await wb.runCommand('View: Show Explorer');
      await until('the Explorer', async () => /^explorer/i.test(await sideBarTitle()), 10_000);
      const entry = page.locator('.part.statusbar .statusbar-item', { hasText: /MCP 3 running/ }).first();
      await entry.click();
      await until('the MCP Host view, from the status bar', async () => (await sideBarTitle()).startsWith('MCP Host'), 10_000);
      await wb.waitForTreeItem('keep');

      const row = page.locator('.part.sidebar .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: /^keep$/ }) }).first();
      await row.click({ button: 'right' });
      // Context menus are drawn by the workbench (in a shadow root, which locators pierce).
      const item = page.locator('.context-view .monaco-menu').getByRole('menuitem', { name: 'Show Output', exact: true });
      // The workbench menu runs an item on Enter once the pointer has focused it (a synthetic
      // click's mouseup can be taken for the end of the right-click that opened it).
      await item.hover();
      await until('the menu item to take the focus', async () => item.evaluate((el) => el === document.activeElement || el.contains(document.activeElement) || (el.getRootNode() as ShadowRoot).activeElement === el), 5_000);
      await page.keyboard.press('Enter');
      await item.waitFor({ state: 'hidden', timeout: 5_000 });
      const select = page.locator('.part.panel select[aria-label="Switch Output"]').first();
      await until('the Output panel to show "MCP: keep"', async () => (await select.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent ?? '')) === 'MCP: keep', 10_000);
      await until('its lines on screen', async () => /started \(pid \d+\)/.test((await page.locator('.part.panel .view-lines').first().innerText()).replace(/\u00a0/g, ' ')), 10_000);
      await wb.screenshot('e2e-show-output');

      // A half-typed edit: the comma after "keep"'s entry is missing.
      const keepPid = tinyProcess('keep')?.pid;
      const broken = tinyConfig({ keep: [], change: ['--print-env', 'MCP_E2E_CHANGED'], added: [] }).replace(/\]\n    \},\n    "change"/, ']\n    }\n    "change"');
      assert.notEqual(broken, tinyConfig({ keep: [], change: ['--print-env', 'MCP_E2E_CHANGED'], added: [] }), 'the comma is gone');
      writeFileSync(CONFIG, broken);
      const { line, column } = lineColumnOf(broken, '"change"');
      await waitForTree(wb, 'the problem row', (rows) => rows.some((i) => i.level === 1 && i.label === `mcp.json:${line}:${column} — syntax error: comma expected`));
      await wb.runCommand('Problems: Focus on Problems View');
      const markers = page.locator('.part.panel .markers-panel .monaco-list-row');
      const marker = await until('the diagnostic in the Problems panel', async () => {
        for (const text of await markers.allInnerTexts()) if (text.includes('syntax error: comma expected')) return text.replace(/\s+/g, ' ');
        return undefined;
      }, 15_000);
      assert.ok(marker.includes(`[Ln ${line}, Col ${column}]`), marker);
      assert.ok(marker.includes('MCP Host'), `the diagnostic's source: ${marker}`);
      // Until the file parses again, its servers keep running as they were.
      assert.equal(tinyProcess('keep')?.pid, keepPid, 'keep still runs, untouched');
      await wb.screenshot('e2e-problems');
      noteServers(wb, servers, /tiny\.mjs/);
    });
  });

  test('inputs: a pickString is asked in a quick pick and a promptString in a box, once; "Clear Stored Inputs" and "Forget Consent" make the next start ask again', { timeout: 120_000 }, async () => {
    await step(wb, 'inputs-and-consent', async () => {
      const page = wb.page;
      const greetings = [`hi-${randomBytes(4).toString('hex')}`, `hey-${randomBytes(4).toString('hex')}`];
      // The file fixed again, with one more server that takes a pickString in its arguments (it
      // reports it back as its name) and a promptString in its environment.
      const config = JSON.parse(tinyConfig({ keep: [], change: ['--print-env', 'MCP_E2E_CHANGED'], added: [] })) as { servers: Record<string, unknown>; inputs?: unknown[] };
      config.inputs = [
        { id: 'flavour', type: 'pickString', description: 'Flavour for picky', options: ['vanilla', 'chocolate', 'mint'], default: 'chocolate' },
        { id: 'greeting', type: 'promptString', description: 'Greeting for picky' },
      ];
      config.servers.picky = { command: 'node', args: [TINY, '--name', 'picky-${input:flavour}', '--print-env', 'MCP_E2E_GREETING'], env: { MCP_E2E_GREETING: '${input:greeting}' } };
      const keepPid = tinyProcess('keep')?.pid;
      assert.ok(keepPid, 'keep runs');

      const title = page.locator('.quick-input-widget .quick-input-title');
      const box = page.locator('.quick-input-widget .quick-input-box input');
      const quickRows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
      /** Waits for the input prompt titled `text` (the quick pick and the input box share the widget). */
      const prompted = (text: string) => until(`the prompt "${text}"`, async () => (await box.isVisible()) && (await title.innerText()).trim() === text, 30_000);
      const answerFlavour = async (flavour: string, shot?: string) => {
        await prompted('MCP Host: Flavour for picky');
        const rows = await until('the three options', async () => {
          const shown = await quickRows.evaluateAll((els) => els.map((el) => [el.querySelector('.label-name')?.textContent?.trim() ?? '', el.querySelector('.label-description')?.textContent?.trim() ?? '']));
          return shown.length === 3 ? shown : undefined;
        }, 10_000);
        assert.deepEqual(rows, [['vanilla', ''], ['chocolate', 'default'], ['mint', '']], 'the options in order, the default marked');
        if (shot) await wb.screenshot(shot);
        await wb.pickQuickItem(flavour);
      };
      const answerGreeting = async (greeting: string) => {
        await prompted('MCP Host: Greeting for picky');
        assert.notEqual(await box.getAttribute('type'), 'password', 'a plain promptString is not masked');
        await box.fill(greeting);
        await page.keyboard.press('Enter');
      };
      /** picky runs with `flavour` as its name and `greeting` in its environment: what the real process got. */
      const pickyRuns = async (flavour: string, greeting: string, notPid?: number) => {
        await waitForTree(wb, `picky to run as picky-${flavour}`, (rows) => rowOf(rows, 'picky')?.description === `picky-${flavour} 1.0.0 · .vscode/mcp.json · MCP 2025-11-25`);
        const p = await until('the new picky process', async () => {
          const found = tinyProcess('picky');
          return found && found.pid !== notPid ? found : undefined;
        }, 10_000);
        assert.ok(p.cmdline.includes(`tiny.mjs --name picky-${flavour} --print-env MCP_E2E_GREETING`), p.cmdline);
        const environ = readFileSync(`/proc/${p.pid}/environ`, 'utf8').split('\0');
        assert.ok(environ.includes(`MCP_E2E_GREETING=${greeting}`), 'the greeting is in the server\'s environment');
        noteServers(wb, servers, /tiny\.mjs/);
        return p;
      };

      writeFileSync(CONFIG, JSON.stringify(config, null, 2));
      // A new server starts on its own (onStartup): consent first, showing the inputs unresolved.
      const consent = await wb.dialog({ timeoutMs: 30_000 });
      assert.equal(consent?.message, 'Start the MCP server "picky" defined in this workspace?');
      assert.ok(consent.detail.includes(`tiny.mjs --name 'picky-\${input:flavour}' --print-env MCP_E2E_GREETING`), `nothing is asked before consent: ${consent.detail}`);
      assert.ok(consent.detail.split('\n').includes('Environment variables it sets: MCP_E2E_GREETING'), consent.detail);
      await wb.answerDialog('Allow');
      await answerFlavour('mint', 'e2e-input-pick-string');
      await answerGreeting(greetings[0]);
      const first = await pickyRuns('mint', greetings[0]);
      // Input values are redacted in the server's channel like passwords.
      const log = await wb.outputChannelText('MCP: picky', { contains: 'stderr: MCP_E2E_GREETING is', reveal: false });
      assert.ok(log.includes(`stderr: MCP_E2E_GREETING is ${REDACTED}`) && !log.includes(greetings[0]), log);
      await wb.screenshot('e2e-input-picked');

      // Kept: a restart asks nothing (an unanswered prompt would hold the start back).
      await wb.runCommandAndPick('MCP Host: Restart Server', 'picky');
      const second = await pickyRuns('mint', greetings[0], first.pid);
      assert.equal(await wb.dialog(), undefined, 'no dialog on restart');
      assert.equal(await box.isVisible(), false, 'no prompt on restart');

      // "Clear Stored Inputs": the running server is left alone; its next start asks again.
      await wb.runCommand('MCP Host: Clear Stored Inputs');
      await until('the notification', async () => (await wb.notifications()).some((n) => n.includes('cleared 2 stored input values')), 10_000);
      assert.equal(tinyProcess('picky')?.pid, second.pid, 'clearing does not restart picky');
      await wb.runCommandAndPick('MCP Host: Restart Server', 'picky');
      await answerFlavour('vanilla');
      await answerGreeting(greetings[1]);
      const third = await pickyRuns('vanilla', greetings[1], second.pid);

      // "Forget Consent" for picky: it stops; Start asks consent again, the inputs stay kept.
      await wb.runCommandAndPick('MCP Host: Forget Consent', 'picky');
      await waitForTree(wb, 'picky to stop', (rows) => rowOf(rows, 'picky')?.description === 'stopped · .vscode/mcp.json');
      await until('the picky process to end', async () => !stillRunning(third.pid, third.cmdline), 15_000);
      await wb.runCommandAndPick('MCP Host: Start Server', 'picky');
      const again = await wb.dialog({ timeoutMs: 30_000 });
      assert.equal(again?.message, 'Start the MCP server "picky" defined in this workspace?');
      await wb.answerDialog('Allow');
      await pickyRuns('vanilla', greetings[1], third.pid);
      assert.equal(await box.isVisible(), false, 'the inputs were not asked again');
      assert.equal(tinyProcess('keep')?.pid, keepPid, 'keep was left alone throughout');
    });
  });

  test('after close, no server process is left', { timeout: 60_000 }, async () => {
    await closeAndCheck(wb, servers, 4);
  });
});
