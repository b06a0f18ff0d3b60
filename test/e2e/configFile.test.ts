// End-to-end: the MCP Host extension in a real VS Code (code-server), its configuration files as a person meets them.
// Two launches, each on a temp folder:
//   hostile   untrusted, a .vscode/mcp.json nested 2,000 deep: one problem, the user's server runs.
//   empty     an empty folder with startPolicy "never": MCP Host activates only when its view is
//             shown; the welcome view's button creates .vscode/mcp.json; servers are listed, not
//             started, until Start; edits on disk start, restart and stop exactly the servers they
//             touch; the status bar, "Show Output" on the context menu, a syntax error in Problems;
//             a pickString (quick pick) and a promptString asked once and kept across a restart,
//             asked again after "Clear Stored Inputs"; "Forget Consent" asks consent again.
// After each launch closes, no process of it is left. Screenshots: test-results/screenshots/e2e-*.png.
// Needs `npx tsc -p . && node scripts/package.mjs` first.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { EXAMPLE_MCP_JSON } from '../../src/extension/config/exampleConfig';
import { launch, type TreeItem, type Workbench } from './harness';
import { waitForTree } from './treeRows';
import { closeAndCheck, lineColumnOf, noteServers, REDACTED, statusBarText, step, stillRunning, TINY, until, VIEWPORT, VSIX, widenSideBar } from './extensionSteps';

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
