// End-to-end: the first ten minutes of a new user, on the demo workspace itself (demo/, with its
// own .vscode/settings.json), in a real VS Code (code-server). The view never says "There is no
// data provider"; the consent dialog shows clean paths and explains Deny and Cancel while the
// status bar says the servers wait for consent; rows lead with the server's name; a click on a
// row does its natural thing (tool → call panel, resource → document, prompt → form, server →
// opened or closed, details from the palette); expansion survives a restart; a sampling request is answered by hand because this
// VS Code has no language model ("Answer yourself"); VS Code's own MCP offers no "Start" in
// .vscode/mcp.json. Screenshots: test-results/screenshots/first-*.png.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { clickReached, defaultVsixPath, launch, repoRoot, step as runStep, type TreeItem, type Workbench, waitUntil } from './harness';

const DEMO = join(repoRoot, 'demo');
const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;
const skip = !existsSync(VSIX) ? `${VSIX} is missing` : !existsSync(join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything')) ? 'server-everything is not installed' : false;
const poll = waitUntil;

describe('first contact: the demo workspace as a new user meets it', { skip }, () => {
  let wb: Workbench;
  const seenInView: string[] = [];
  const consents: Array<{ message: string; detail: string; buttons: string[]; statusBar: string }> = [];

  function webview(title: string, timeoutMs = 20_000): Promise<Frame> {
    return poll(async () => (await wb.webviewFrames(title))[0], timeoutMs, `the webview of ${title}`);
  }

  function step(name: string, fn: () => Promise<void>): Promise<void> {
    return runStep(wb, `first-failed-${name}`, fn, async () => {
      await wb.page.keyboard.press('Escape');
    });
  }

  async function statusBarText(): Promise<string> {
    return (await wb.page.locator('.part.statusbar .statusbar-item', { hasText: /MCP \d+ running/ }).first().innerText().catch(() => '')).trim();
  }

  function row(rows: TreeItem[], label: string): TreeItem | undefined {
    return rows.find((r) => r.label === label);
  }

  /** Clicks a row as a person would (its default action runs), once it is on screen. */
  async function click(label: string): Promise<void> {
    await wb.waitForTreeItem(label, { timeoutMs: 20_000 });
    await wb.clickTreeItem(label);
  }

  /** Expands a group and waits until one of its rows (`child`) is listed. */
  async function open(group: string, child: string): Promise<void> {
    await poll(
      async () => {
        await wb.expandTreeItem(group);
        return (await wb.treeItems()).some((r) => r.label === child);
      },
      30_000,
      `${group} open with ${child} in it`,
    );
  }

  async function activeTabTitle(): Promise<string> {
    return (await wb.page.locator('.part.editor .tabs-container .tab.active').first().innerText().catch(() => '')).trim();
  }

  before(async () => {
    wb = await launch({ workspace: DEMO, vsix: VSIX, timeoutMs: 150_000 });
    // What the view shows from the moment it opens until the servers are listed.
    const body = wb.page.locator('.part.sidebar .pane-body').first();
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const text = (await body.innerText().catch(() => '')).trim();
        if (text && seenInView.at(-1) !== text) seenInView.push(text);
        await new Promise((r) => setTimeout(r, 30));
      }
    })();
    // VS Code draws a view it restores before the extension that provides it has activated, and
    // says "no data provider" until then; that is VS Code's, not ours. What MCP Host controls is
    // everything after activation (its provider is the first thing activate() registers), so the
    // view is opened once it has activated: the status bar item, made in activate() after the
    // provider, shows once the configuration has been read.
    await poll(async () => (await statusBarText()) !== '', 60_000, 'MCP Host to activate (its status bar item)');
    await wb.openView('MCP Host');
    // One consent dialog for the three demo servers (they start together); the status bar is read while it is open.
    await poll(
      async () => {
        const consent = await wb.dialog({ timeoutMs: 1_000 });
        if (consent) {
          // The status bar follows the server's state on its next redraw: give it a moment.
          const deadline = Date.now() + 3_000;
          let statusBar = await statusBarText();
          while (!/waiting for consent/.test(statusBar) && Date.now() < deadline) {
            await new Promise((r) => setTimeout(r, 100));
            statusBar = await statusBarText();
          }
          consents.push({ ...consent, statusBar });
          if (consents.length === 1) await wb.screenshot('first-consent');
          await wb.answerDialog(consent.buttons.includes('Allow All') ? 'Allow All' : 'Allow');
        }
        const rows = await wb.treeItems();
        return rows.filter((r) => r.label === 'Tools').length >= 3;
      },
      90_000,
      'the three demo servers to start',
    );
    watching = false;
    await watcher;
  });

  after(async () => {
    if (!wb) return;
    await wb.close();
    assert.deepEqual(wb.leftoverProcesses(), [], 'nothing of the launch outlives it');
  });

  test('opening: no "no data provider", consent with clean paths and Deny vs Cancel, "waiting for consent", rows lead with the server', { timeout: 60_000 }, async () => {
    await step('opening', async () => {
      assert.ok(!seenInView.some((t) => /no data provider/i.test(t)), `the view said: ${JSON.stringify(seenInView)}`);
      // The workspace has servers: the empty-state welcome never shows, not even before the first read.
      assert.ok(!seenInView.some((t) => /No MCP servers are configured/.test(t)), `the view said: ${JSON.stringify(seenInView)}`);
      assert.equal(consents.length, 1, 'one consent dialog lists the three demo servers');
      assert.equal(consents[0].message, 'Start 3 MCP servers defined in this workspace?');
      for (const c of consents) {
        assert.doesNotMatch(c.detail, /\/\.\.\//, 'paths are normalised for display');
        assert.match(c.detail, /Deny All is remembered.*Cancel decides nothing/s);
        assert.match(c.statusBar, /waiting for consent/, `status bar: ${c.statusBar}`);
      }
      // While the dialog is open every server waits for it; none "starting".
      assert.equal(consents[0].statusBar, 'MCP 0 running, 3 waiting for consent');
      assert.match(consents[0].detail, /node_modules\/@modelcontextprotocol\/server-everything\/dist\/index\.js stdio/);
      const rows = await wb.treeItems();
      assert.match(row(rows, 'everything')?.description ?? '', /^mcp-servers\/everything \S+ · \.vscode\/mcp\.json · MCP 2025-11-25$/);
      assert.match(row(rows, 'notes')?.description ?? '', /· \.vscode\/mcp\.json · MCP 2025-11-25$/);
      assert.match(row(rows, 'clock-app')?.description ?? '', /· \.vscode\/mcp\.json · MCP 2025-11-25$/);
      assert.match(consents[0].detail, /server-basic-vanillajs\/dist\/index\.js --stdio/);
      await open('Tools', 'echo');
      const echo = row(await wb.treeItems(), 'echo');
      assert.ok(echo, 'the echo tool is listed');
      assert.doesNotMatch(echo.description, /^Echo Tool/, 'the title is not repeated before the description');
      await wb.screenshot('first-tree');
    });
  });

  test('a click on a row: tool → its panel (no complaint before typing), resource → its document, prompt → its form, server → opened or closed', { timeout: 120_000 }, async () => {
    await step('default-actions', async () => {
      await click('echo');
      const tool = await webview('echo');
      await tool.locator('#run').waitFor({ timeout: 10_000 });
      await new Promise((r) => setTimeout(r, 800));
      assert.equal(await tool.locator('.field.invalid').count(), 0, 'no error before typing');
      assert.equal((await tool.locator('#problems').innerText()).trim(), '');
      await tool.locator('.field[data-path="/message"] textarea, .field[data-path="/message"] input').first().fill('Hello from the demo');
      await clickReached(tool.locator('#run'), 'Run');
      await poll(async () => /Echo: Hello from the demo/.test(await tool.locator('.result').innerText().catch(() => '')), 20_000, 'the echo result');
      assert.equal(await tool.locator('.result .open-result').count(), 1, 'one "Open in editor"');
      await wb.screenshot('first-tool-call');

      await open('Resources', 'architecture.md');
      const resource = (await wb.treeItems()).find((r) => r.level === 3 && /^demo:\/\/resource\//.test(r.description));
      assert.ok(resource, 'a demo:// resource is listed');
      await click(resource.label);
      await poll(async () => (await activeTabTitle()).startsWith('everything · '), 15_000, 'the resource tab, named by server and URI');

      await open('Prompts', 'args-prompt');
      await click('args-prompt');
      const prompt = await webview('args-prompt');
      await prompt.locator('.field[data-path="/city"]').waitFor({ timeout: 10_000 });

      // A click on a running server's row opens or closes it, nothing else; its details are in
      // its menu and the palette.
      await click('everything');
      await poll(async () => (await wb.treeItems()).find((r) => r.label === 'everything')?.expanded === false, 10_000, 'everything collapsed by the click');
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal((await wb.webviewFrames('server details')).length, 0, 'no Server Details tab from a click that collapses');
      await click('everything');
      await poll(async () => (await wb.treeItems()).find((r) => r.label === 'everything')?.expanded === true, 10_000, 'everything expanded again');
      await wb.runCommandAndPick('MCP Host: Show Server Details', 'everything');
      const details = await webview('server details');
      await poll(async () => /Protocol version\s+2025-11-25/.test(await details.locator('#facts').innerText().catch(() => '')), 15_000, 'the rendered details');
      await wb.screenshot('first-details');
    });
  });

  test('sampling without a language model: "Answer yourself" with a model name of your choice; the server gets both', { timeout: 120_000 }, async () => {
    await step('answer-yourself', async () => {
      await click('trigger-sampling-request');
      const tool = await webview('trigger-sampling-request');
      await tool.locator('.field[data-path="/prompt"] textarea, .field[data-path="/prompt"] input').first().fill('What is 2+2?');
      await clickReached(tool.locator('#run'), 'Run of trigger-sampling-request');
      const dialog = await webview('asks to use a language model');
      await dialog.locator('#self-answer').waitFor({ timeout: 10_000 });
      assert.equal(await dialog.locator('#approve').count(), 0, 'nothing to approve without a model');
      assert.match(await dialog.locator('.lead').innerText(), /No language model is available/);
      await dialog.locator('#self-answer').fill('Four, answered by a person.');
      await dialog.locator('#self-model').fill('demo-human');
      await wb.screenshot('first-answer-yourself');
      await dialog.locator('#send-self').click();
      await poll(async () => /Four, answered by a person\./.test(await tool.locator('.result').innerText().catch(() => '')), 20_000, 'the answer in the tool result');
      assert.match(await tool.locator('.result').innerText(), /demo-human/);
    });
  });

  test('expansion survives a restart of the server', { timeout: 120_000 }, async () => {
    await step('expansion', async () => {
      const opened = (rows: TreeItem[]) => rows.filter((r) => ['Tools', 'Resources', 'Prompts'].includes(r.label) && r.expanded === true).length;
      await open('Prompts', 'args-prompt');
      const before = opened(await wb.treeItems());
      assert.ok(before >= 3, 'Tools, Resources and Prompts of everything are open');
      await wb.runCommandAndPick('MCP Host: Restart Server', 'everything');
      let seen: TreeItem[] = [];
      await poll(
        async () => {
          seen = await wb.treeItems();
          return / · MCP 2025-11-25$/.test(row(seen, 'everything')?.description ?? '') && opened(seen) >= before;
        },
        60_000,
        'everything running again with its groups open',
      ).catch((e: Error) => {
        throw new Error(`${e.message}; ${before} groups were open before; rows now: ${JSON.stringify(seen.filter((r) => r.level <= 2).map((r) => [r.label, r.expanded, r.description]))}`);
      });
      await wb.screenshot('first-after-restart');
    });
  });

  test('VS Code\u2019s own MCP offers no "Start" in .vscode/mcp.json (the demo sets chat.mcp.access to none)', { timeout: 60_000 }, async () => {
    await step('own-mcp', async () => {
      await wb.runCommand('Go to File...');
      await wb.page.keyboard.type('.vscode/mcp.json');
      await poll(async () => (await wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'mcp.json' }).count()) > 0, 10_000, 'mcp.json among Go to File\u2019s results');
      await wb.page.keyboard.press('Enter');
      const editor = wb.page.locator('.part.editor .monaco-editor .view-lines').first();
      await poll(async () => /MCP servers for the demo workspace/.test((await editor.innerText().catch(() => '')).replace(/\u00a0/g, ' ')), 15_000, 'mcp.json open');
      // The positive signal first: the editor's language features answered for this file (the
      // breadcrumbs name the entry under the cursor, from the JSON language service's symbols);
      // VS Code asks for the file's code lenses in the same pass. Then no "Start" among them.
      await editor.locator('.view-line', { hasText: /"everything":\s*\{/ }).first().click();
      await poll(async () => /servers[\s\S]*everything/.test(await wb.page.locator('.part.editor .breadcrumbs-control').first().innerText().catch(() => '')), 15_000, 'the breadcrumbs naming servers › everything');
      const lenses = await wb.page.locator('.part.editor .codelens-decoration').allInnerTexts();
      assert.ok(!lenses.some((l) => /Start/.test(l)), `code lenses: ${JSON.stringify(lenses)}`);
      await wb.screenshot('first-mcp-json');
    });
  });
});
