// The server developer's workbench in a real VS Code, on one launch:
// - Dev mode and "What changed": a server under development is rebuilt (its build file, which
//   the entry's dev.watch names, changes), so MCP Host restarts it; the view lists each change with its path, a click shows the old and new values side by side,
//   and the server's output channel logs the same lines.
// - Saved calls as tests: .vscode/mcp-tests.json in the Testing view; Run All passes one test and
//   fails another with the assertion's expected and actual values.
// Order-dependent: the first test launches the workbench and writes the workspace every later test
// uses (and the saved tests read what the first one's server made). A `--test-name-pattern` run of
// a later test alone fails at once, naming the test it needs (`launched()`).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { defaultVsixPath, launch, repoRoot, waitUntil, type Workbench } from './harness';
import { childrenOf, waitForTree } from './treeRows';

let workbench: Workbench | undefined;
const workspace = mkdtempSync(join(tmpdir(), 'mcp-host-changes-'));
after(async () => {
  await workbench?.close();
  rmSync(workspace, { recursive: true, force: true });
});

const FIRST_TEST = 'dev.watch restarts the server on a rebuild; the What Changed view lists the changes and diffs them';

/** The workbench the first test launched; a later test run alone fails here, naming the test it needs. */
function launched(): Workbench {
  if (!workbench) throw new Error(`this test needs the suite's first test, "${FIRST_TEST}", to run before it (the suite is order-dependent)`);
  return workbench;
}

/** Runs a test's body; on failure a screenshot shows what the screen said. */
async function shotOnFailure(name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    await workbench?.screenshot(`${name}-failed`).catch(() => undefined);
    throw error;
  }
}

test(FIRST_TEST, { timeout: 240_000 }, async () => {
  await shotOnFailure('workbench-what-changed', async () => {
    const buildFile = join(workspace, 'build.txt');
    writeFileSync(buildFile, '1');
    mkdirSync(join(workspace, '.vscode'));
    const server = { command: process.execPath, args: [join(repoRoot, 'test', 'fixtures', 'servers', 'evolving.mjs'), '--build-file', buildFile], dev: { watch: 'build.txt' } };
    writeFileSync(join(workspace, '.vscode', 'mcp.json'), JSON.stringify({ servers: { evolving: server } }, null, 2));
    writeFileSync(
      join(workspace, '.vscode', 'mcp-tests.json'),
      JSON.stringify(
        {
          tests: [
            { name: 'echo answers', server: 'evolving', tool: 'echo', arguments: { message: 'hi there' }, expect: { isError: false, textContains: 'hi there' } },
            { name: 'shout shouts', server: 'evolving', tool: 'shout', arguments: { message: 'hey' }, expect: { json: [{ pointer: '/content/0/text', equals: 'hey!' }] } },
          ],
        },
        null,
        2,
      ),
    );
    const wb = (workbench = await launch({ workspace, vsix: defaultVsixPath, settings: { 'chat.mcp.access': 'none', 'chat.mcp.autostart': 'never' } }));
    await wb.openView('MCP Host');
    await wb.waitForTreeItem('evolving', { view: 'Servers', timeoutMs: 30_000 });
    const consent = await wb.dialog({ timeoutMs: 20_000 });
    assert.ok(consent, 'a consent dialog');
    await wb.answerDialog('Allow');
    await wb.waitForTreeItem('Tools', { view: 'Servers', timeoutMs: 30_000 });
    // The view starts collapsed below Servers: open it as a person would, by its header.
    const header = wb.page.locator('.part.sidebar .pane-header').filter({ hasText: /What Changed/i }).first();
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    // Until something changed the view shows only its welcome text (no tree is drawn yet).
    const pane = wb.page.locator('.part.sidebar .pane').filter({ has: wb.page.locator('.pane-header', { hasText: /What Changed/i }) });
    await waitUntil(async () => /Nothing changed yet/.test(await pane.locator('.welcome-view-content').first().innerText().catch(() => '')), 20_000, 'the empty view');
    await wb.screenshot('what-changed-empty');

    // A "rebuild": dev.watch sees the file change and restarts the server, no command needed.
    writeFileSync(buildFile, '2');
    await waitUntil(async () => (await wb.treeItems({ view: 'What Changed' })).some((i) => i.label === 'evolving'), 30_000, 'a record in What Changed');
    const rows = await wb.treeItems({ view: 'What Changed' });
    const record = rows.find((r) => r.level === 1)!;
    assert.match(record.description, /after a restart · 5 changes/);
    assert.deepEqual(
      rows.filter((r) => r.level === 2).map((r) => `${r.label} | ${r.description}`),
      // Every changed line says from what to what (the instructions too).
      ['instructions | changed ("v1" → "v2")', 'tool echo | inputSchema.properties.message.description changed ("Text to echo" → "Text to send back")', 'tool retire | removed', 'tool evolve | removed', 'tool shout | added'],
    );
    await wb.screenshot('what-changed-view');

    await wb.clickTreeItem('tool echo', { view: 'What Changed' });
    await waitUntil(async () => (await wb.page.locator('.monaco-diff-editor').count()) > 0, 20_000, 'a diff editor');
    await waitUntil(async () => (await wb.page.locator('.monaco-diff-editor').innerText()).replace(/\u00a0/g, ' ').includes('Text to send back'), 20_000, 'the new value in the diff');
    await wb.screenshot('what-changed-diff');

    const log = await wb.outputChannelText('MCP: evolving', { contains: 'what changed since the last session', reveal: false });
    assert.match(log, /dev: watching build\.txt/);
    assert.match(log, /dev: build\.txt changed; restarting/);
    assert.match(log, /tool echo: inputSchema\.properties\.message\.description changed \("Text to echo" → "Text to send back"\)/);
  });
});

/** A run of the saved tests asks once before their calls of tools not marked read-only (echo, shout), listing them (issue 32 F8); Run Them lets it go on. */
async function allowTestCalls(wb: Workbench): Promise<void> {
  const asked = await waitUntil(async () => wb.dialog({ timeoutMs: 500 }), 60_000, 'the run asking before calls of tools that may change things');
  assert.match(asked.message, /^Run saved tests that call \d+ tools that may change things\?$/);
  assert.match(asked.detail, /echo/);
  assert.match(asked.detail, /shout/);
  await wb.answerDialog('Run Them');
}

test('saved calls as tests: the Testing view runs them; a failure shows expected and actual', { timeout: 240_000 }, async () => {
  await shotOnFailure('workbench-saved-tests', async () => {
    const wb = launched();
    // Record the session while the tests run: the recording holds their calls.
    await wb.runCommandAndPick('MCP Host: Record Session (start/stop)', 'evolving');
    await wb.runCommand('Test: Run All Tests');
    await allowTestCalls(wb);
    await wb.openView('Testing');
    const row = (name: string) => wb.page.locator('.part.sidebar .monaco-list-row').filter({ hasText: name }).first();
    await waitUntil(async () => /Passed/i.test((await row('echo answers').getAttribute('aria-label')) ?? ''), 60_000, 'echo answers passed');
    await waitUntil(async () => /Failed/i.test((await row('shout shouts').getAttribute('aria-label')) ?? ''), 60_000, 'shout shouts failed');
    await wb.screenshot('saved-tests-testing-view');
    // The failure's message names the pointer and both values (the Test Results view shows it).
    await wb.runCommand('Test: Show Output');
    await waitUntil(async () => (await wb.page.locator('.part.panel').innerText()).includes('/content/0/text is "HEY", not "hey!"'), 30_000, 'the failure message in Test Results');
    await wb.screenshot('saved-tests-failure');
    // Both calls are in the server's log like hand calls.
    await wb.outputChannelText('MCP: evolving', { contains: /shout/, reveal: false });
    await wb.runCommandAndPick('MCP Host: Record Session (start/stop)', 'evolving');
    const dir = join(wb.userDataDir, 'User', 'globalStorage', 'mcp-host.mcp-host', 'recordings');
    const file = await waitUntil(async () => readdirSync(dir).find((f) => f.startsWith('evolving-') && f.endsWith('.jsonl')), 20_000, 'a recording file');
    await wb.outputChannelText('MCP: evolving', { contains: 'recording stopped', reveal: false });
    const frames = readFileSync(join(dir, file), 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l) as { dir: string; message: { method?: string; params?: { name?: string } } });
    const called = frames.filter((f) => f.dir === 'send' && f.message.method === 'tools/call').map((f) => f.message.params?.name);
    assert.deepEqual(called.sort(), ['echo', 'shout']);
  });
});

test('the Debug profile runs the saved tests with their server under the debugger', { timeout: 240_000 }, async () => {
  await shotOnFailure('workbench-debug-tests', async () => {
    const wb = launched();
    await wb.runCommand('Test: Clear All Results');
    await wb.runCommand('Test: Debug All Tests');
    await allowTestCalls(wb);
    // The server (no dev.debug of its own) restarts with the inspector, and VS Code's JavaScript
    // debugger attaches: the debug toolbar shows, and the Testing view has the run's results.
    await waitUntil(async () => wb.page.locator('.debug-toolbar').isVisible(), 90_000, 'the debug toolbar');
    await wb.outputChannelText('MCP: evolving', { contains: /dev: attaching the debugger to the inspector on port \d+/, reveal: false, timeoutMs: 30_000 });
    await wb.openView('Testing');
    const row = (name: string) => wb.page.locator('.part.sidebar .monaco-list-row').filter({ hasText: name }).first();
    await waitUntil(async () => /Passed/i.test((await row('echo answers').getAttribute('aria-label')) ?? ''), 60_000, 'echo answers passed under the debugger').catch(async (error: Error) => {
      const log = await wb.outputChannelText('MCP: evolving', { reveal: false });
      throw new Error(`${error.message}; the server's log ends:\n${log.split('\n').slice(-15).join('\n')}`);
    });
    await waitUntil(async () => /Failed/i.test((await row('shout shouts').getAttribute('aria-label')) ?? ''), 60_000, 'shout shouts failed under the debugger');
    // The Call Stack names the server's session.
    await wb.runCommand('View: Show Run and Debug');
    await waitUntil(async () => (await wb.page.locator('.part.sidebar').innerText()).includes('MCP: evolving'), 30_000, 'the session in the Call Stack');
    await wb.screenshot('saved-tests-debug');
    // Stopping the debugger leaves the server running (it detaches).
    await wb.runCommand('Debug: Stop');
    await waitUntil(async () => !(await wb.page.locator('.debug-toolbar').isVisible()), 30_000, 'the debug toolbar to go');
    await wb.openView('MCP Host');
    await wb.waitForTreeItem('Tools', { view: 'Servers', timeoutMs: 30_000 });
  });
});

test('Diagnose on a broken entry: the report says where it breaks and what to do', { timeout: 240_000 }, async () => {
  await shotOnFailure('workbench-diagnose', async () => {
    const wb = launched();
    const configFile = join(workspace, '.vscode', 'mcp.json');
    const config = JSON.parse(readFileSync(configFile, 'utf8')) as { servers: Record<string, unknown> };
    config.servers.broken = { command: 'mcp-host-no-such-server', args: ['--port', '1'] };
    writeFileSync(configFile, JSON.stringify(config, null, 2));
    // The new entry may ask for consent at once (servers start as they come), before the view shows.
    const early = await wb.dialog({ timeoutMs: 10_000 });
    if (early) await wb.answerDialog(early.buttons.find((b) => /^Allow/.test(b)) ?? 'Allow');
    await wb.openView('MCP Host');
    await wb.waitForTreeItem('broken', { view: 'Servers', timeoutMs: 30_000 });
    // A workspace server never starts unasked: the consent came early, or comes now.
    if (!early) {
      const consent = await wb.dialog({ timeoutMs: 20_000 });
      assert.ok(consent, 'the consent dialog for the new workspace server "broken"');
      await wb.answerDialog(consent.buttons.find((b) => /^Allow/.test(b)) ?? 'Allow');
    }
    // The report opens rendered (VS Code's Markdown preview, a webview), not as Markdown source.
    const read = async () => {
      for (const frame of wb.page.frames()) {
        const text = await frame.evaluate(() => (document.querySelector('h1')?.textContent?.includes('Diagnosis of broken') && document.querySelector('pre') ? document.body.innerText : null)).catch(() => null);
        if (text) return text.replace(/\u00a0/g, ' ');
      }
      return '';
    };
    const report = async () => {
      await waitUntil(async () => /broken at: command/.test(await read()), 30_000, 'the diagnosis report');
      const text = await read();
      assert.match(text, /✗ command: .*mcp-host-no-such-server/);
      assert.match(text, /install mcp-host-no-such-server, or give its full path in "command"/);
      assert.doesNotMatch(text, /^# Diagnosis|```/m, 'rendered, not the Markdown source');
      assert.equal(await wb.page.locator('.view-lines', { hasText: /Diagnosis\s+of\s+broken/ }).count(), 0, 'no source editor of the report');
    };
    // A click on the failed server's error row diagnoses it.
    const rows = await waitForTree(wb, 'the error row of broken', (items) => childrenOf(items, 'broken').length > 0, 30_000);
    const errorRow = childrenOf(rows, 'broken')[0];
    await wb.clickTreeItem(errorRow.label, { view: 'Servers' });
    await report();
    await wb.screenshot('diagnose-broken-entry');
    // The command palette's Diagnose, with the server picked, says the same.
    await wb.runCommand('View: Close All Editors');
    await wb.runCommandAndPick('MCP Host: Diagnose Connection', 'broken');
    await report();
  });
});
