// End-to-end: using a server from the editor in a real VS Code (code-server). Calls `echo`
// through the generated form, shows `get-tiny-image`'s image, runs and cancels
// `trigger-long-running-operation` with progress, opens a demo:// resource, and gets
// `args-prompt` with its arguments. Screenshots land in test-results/screenshots/inspect-*.png.
// Skipped until the inspect commands are in the VSIX's package.json (see src/extension/inspect/contributes.json).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { defaultVsixPath, launch, repoRoot, type Workbench } from './harness';

const WORKSPACE = join(repoRoot, 'test', 'e2e', 'workspaces', 'basic');
const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;

/** The inspect commands are contributed by the VSIX under test (they are merged by the lead). */
function integrated(): boolean {
  if (process.env.MCP_HOST_VSIX) return true;
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { contributes?: { commands?: Array<{ command: string }> } };
  return (pkg.contributes?.commands ?? []).some((c) => c.command === 'mcpHost.tool.call');
}

const skip = !integrated() ? 'the inspect commands are not in package.json yet' : !existsSync(VSIX) ? `${VSIX} is missing` : false;

async function poll<T>(probe: () => Promise<T | undefined | false>, timeoutMs: number, what: string): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('inspect features in a real VS Code', { skip }, () => {
  let wb: Workbench;

  /** The webview frame whose header shows `title` (tool name or view title). */
  async function webview(title: string, timeoutMs = 20_000): Promise<Frame> {
    return poll(
      async () => {
        for (const frame of wb.page.frames()) {
          const text = await frame
            .evaluate(() => {
              const h = document.querySelector('#app header h1');
              return h ? h.textContent : null;
            })
            .catch(() => null);
          if (text && text.includes(title)) return frame;
        }
        return undefined;
      },
      timeoutMs,
      `the webview of ${title}`,
    );
  }

  /**
   * Runs a command from the palette with the focus on the side bar first: when a webview had it,
   * VS Code may hand it back to the webview between the palette and the command's own quick
   * pick, which then closes.
   */
  async function command(title: string): Promise<void> {
    await wb.page.locator('.part.sidebar .composite.title').first().click();
    await wb.runCommand(title);
  }

  /** Picks from the open quick pick, typing first (long lists are virtualised). */
  async function pick(label: string): Promise<void> {
    const input = wb.page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    // The command palette hands over to the command's own quick pick: wait for that one.
    await poll(async () => !((await input.inputValue()) || '').startsWith('>') && (await input.isEditable()), 10_000, 'the quick pick');
    await input.fill(label);
    // The filtered list's first row is the one (checked), and Enter takes it: steadier than a click.
    const first = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name').first();
    await poll(async () => ((await first.innerText().catch(() => '')) || '').trim() === label, 10_000, `"${label}" first in the quick pick`);
    await wb.page.keyboard.press('Enter');
  }

  /** Runs a step; on failure saves a screenshot and adds the notifications on screen to the error. */
  async function step(name: string, fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (error) {
      await wb.screenshot(`inspect-failed-${name}`).catch(() => undefined);
      const notes = await wb.notifications().catch(() => []);
      throw new Error(`${error instanceof Error ? error.message : String(error)}\nnotifications: ${JSON.stringify(notes)}`);
    }
  }

  /** The text lines of the editor in the active group. */
  function activeEditor() {
    return wb.page.locator('.part.editor .editor-group-container.active .monaco-editor .view-lines').first();
  }

  /** Its text, with the editor's non-breaking spaces as spaces. */
  async function activeEditorText(): Promise<string> {
    return ((await activeEditor().innerText().catch(() => '')) || '').replace(/\u00a0/g, ' ');
  }

  async function callTool(name: string): Promise<Frame> {
    await command('MCP Host: Call Tool…');
    await pick(name);
    const frame = await webview(name);
    await frame.locator('#run').waitFor({ state: 'visible', timeout: 10_000 });
    return frame;
  }

  before(async () => {
    wb = await launch({ workspace: WORKSPACE, vsix: VSIX, timeoutMs: 150_000 });
    await wb.openView('MCP Host');
    await wb.waitForTreeItem('everything', { timeoutMs: 30_000 });
    const consent = await wb.dialog({ timeoutMs: 20_000 });
    if (consent) await wb.answerDialog('Allow');
    await wb.waitForTreeItem('Tools', { timeoutMs: 30_000 });
  });

  after(async () => {
    if (!wb) return;
    await wb.close();
    assert.deepEqual(wb.leftoverProcesses(), [], 'nothing of the launch outlives it');
  });

  test('echo: the form, a required-field error, the text result, opened in an editor', { timeout: 90_000 }, async () => {
    await step('echo', async () => {
      const frame = await callTool('echo');
      const field = frame.locator('.field[data-path="/message"]');
      await field.waitFor({ timeout: 10_000 });
      assert.match(await field.locator('label').first().innerText(), /message\s*\*/, 'required mark');
      // Empty required field: an error next to it, and Run is disabled.
      await poll(async () => (await field.locator('.error').innerText()).includes('required'), 10_000, 'the required error');
      assert.equal(await frame.locator('#run').isDisabled(), true);
      await field.locator('textarea, input').first().fill('hello from the e2e test');
      await poll(async () => !(await frame.locator('#run').isDisabled()), 10_000, 'Run to be enabled');
      await frame.locator('#run').click();
      const text = frame.locator('.result .part-text pre.text, .result .part-text .markdown');
      await poll(async () => ((await text.first().innerText().catch(() => '')) || '').includes('Echo: hello from the e2e test'), 20_000, 'the echo result');
      assert.match(await frame.locator('.result .status').innerText(), /OK/);
      await poll(async () => (await frame.locator('.history-item').count()) >= 1, 10_000, 'a history entry');
      await wb.screenshot('inspect-echo');
      // The text part opens as a read-only document.
      await frame.locator('.result .part-text .open-part').first().click();
      await wb.page.locator('.tabs-container .tab', { hasText: 'echo-result-1.txt' }).first().waitFor({ timeout: 15_000 });
      await poll(async () => /Echo: hello from the e2e test/.test(await activeEditorText()), 10_000, 'the opened text');
    });
  });

  test('get-tiny-image: the image is shown from a data: URI', { timeout: 60_000 }, async () => {
    await step('get-tiny-image', async () => {
      const frame = await callTool('get-tiny-image');
      await frame.locator('#run').click();
      const img = frame.locator('.result .part-image img');
      await img.waitFor({ timeout: 20_000 });
      assert.match((await img.getAttribute('src')) ?? '', /^data:image\/png;base64,/);
      const width = await poll(async () => img.evaluate((el) => (el as HTMLImageElement).naturalWidth), 10_000, 'the image to decode');
      assert.ok(width > 0);
      await wb.screenshot('inspect-tiny-image');
    });
  });

  test('trigger-long-running-operation: progress in the panel and a notification, then cancelled', { timeout: 90_000 }, async () => {
    await step('trigger-long-running-operation', async () => {
      const frame = await callTool('trigger-long-running-operation');
      await frame.locator('.field[data-path="/duration"] input').fill('20');
      await frame.locator('.field[data-path="/steps"] input').fill('20');
      await poll(async () => !(await frame.locator('#run').isDisabled()), 10_000, 'Run to be enabled');
      await frame.locator('#run').click();
      const progressText = frame.locator('#progress .progress-text');
      await poll(async () => /\d+ \/ 20/.test(await progressText.innerText().catch(() => '')), 20_000, 'progress in the panel');
      await poll(async () => (await wb.notifications()).some((n) => n.includes('trigger-long-running-operation')), 10_000, 'the progress notification');
      await wb.screenshot('inspect-long-running-progress');
      await frame.locator('#cancel').click();
      await poll(async () => /Cancelled/.test(await frame.locator('.result .status').innerText().catch(() => '')), 15_000, 'the cancelled result');
      await poll(async () => (await frame.locator('.history-item.cancelled').count()) >= 1, 10_000, 'a cancelled history entry');
      await poll(async () => !(await wb.notifications()).some((n) => n.includes('trigger-long-running-operation')), 10_000, 'the notification to go');
      await wb.screenshot('inspect-long-running-cancelled');
    });
  });

  test('get-structured-content: a titled select, then the structured content checked against the outputSchema', { timeout: 60_000 }, async () => {
    await step('structured', async () => {
      const frame = await callTool('get-structured-content');
      await frame.locator('.field[data-path="/location"] select').selectOption({ label: 'Chicago' });
      await poll(async () => !(await frame.locator('#run').isDisabled()), 10_000, 'Run to be enabled');
      await frame.locator('#run').click();
      const verdict = frame.locator('.result .verdict');
      await poll(async () => /Valid against the tool’s outputSchema/.test(await verdict.innerText().catch(() => '')), 20_000, 'the outputSchema verdict');
      assert.match(await frame.locator('.result .part-structured').innerText(), /temperature/);
      await wb.screenshot('inspect-structured');
    });
  });

  test('get-sum in JSON mode: an invalid value is shown and never sent, a fixed one runs', { timeout: 60_000 }, async () => {
    await step('json-mode', async () => {
      const frame = await callTool('get-sum');
      await frame.locator('#toggle-mode').click();
      const json = frame.locator('#json-input');
      await json.waitFor({ timeout: 10_000 });
      await json.fill('{ "a": 1, "b": "two" }');
      await poll(async () => /b: expected a number/.test(await frame.locator('.field[data-path=""] > .error').innerText().catch(() => '')), 10_000, 'the error at /b');
      assert.equal(await frame.locator('#run').isDisabled(), true, 'invalid input cannot be run');
      await wb.screenshot('inspect-json-invalid');
      await json.fill('{ "a": 1, "b": 2 }');
      await poll(async () => !(await frame.locator('#run').isDisabled()), 10_000, 'Run to be enabled');
      await frame.locator('#run').click();
      await poll(async () => /3/.test(await frame.locator('.result .part-text').first().innerText().catch(() => '')), 20_000, 'the sum');
      // Back to the form: the values carry over.
      await frame.locator('#toggle-mode').click();
      await poll(async () => (await frame.locator('.field[data-path="/b"] input').inputValue().catch(() => '')) === '2', 10_000, 'the form with b = 2');
    });
  });

  test('a demo:// resource opens as a read-only editor', { timeout: 60_000 }, async () => {
    await step('a-demo', async () => {
      await command('MCP Host: Open Resource');
      await pick('architecture.md');
      const tab = wb.page.locator('.tabs-container .tab', { hasText: 'architecture.md' });
      await tab.first().waitFor({ timeout: 20_000 });
      await poll(async () => /# Everything Server/.test(await activeEditorText()), 15_000, 'the resource text');
      await wb.screenshot('inspect-resource');
    });
  });

  test('the open resource is subscribed, and unsubscribed when its tab closes', { timeout: 60_000 }, async () => {
    await step('subscription', async () => {
      const uri = 'demo://resource/static/document/architecture.md';
      await wb.outputChannelText('MCP: everything', { contains: `Subscribed to ${uri}`, timeoutMs: 15_000 });
      const tab = wb.page.locator('.tabs-container .tab', { hasText: 'architecture.md' }).first();
      await tab.click();
      await tab.locator('.tab-actions .action-label').first().click();
      await tab.waitFor({ state: 'detached', timeout: 10_000 });
      await wb.outputChannelText('MCP: everything', { contains: `Unsubscribed from ${uri}`, timeoutMs: 15_000 });
      // Give the editor its height back (editors only render the lines on screen).
      await wb.runCommand('View: Hide Panel');
    });
  });

  test('a resource template: the variable asked for, the expanded URI read', { timeout: 60_000 }, async () => {
    await step('template', async () => {
      await command('MCP Host: Read Resource from Template…');
      await pick('Dynamic Text Resource');
      const input = wb.page.locator('.quick-input-widget .quick-input-box input');
      await poll(async () => /resourceId \(required\)/.test((await input.getAttribute('placeholder')) ?? ''), 10_000, 'the resourceId step');
      await input.fill('3');
      await wb.page.waitForTimeout(400); // the completion request (debounced) may refresh the list
      await wb.page.keyboard.press('Enter');
      await wb.page.locator('.tabs-container .tab', { hasText: '3.txt' }).first().waitFor({ timeout: 20_000 });
      await poll(async () => /Resource 3: This is a plaintext resource/.test(await activeEditorText()), 15_000, 'the resource text');
      await wb.screenshot('inspect-template');
    });
  });

  test('Server Details: pid, protocol, per-method latencies', { timeout: 60_000 }, async () => {
    await step('details', async () => {
      await command('MCP Host: Show Server Details');
      await wb.page.locator('.tabs-container .tab', { hasText: 'everything details.md' }).first().waitFor({ timeout: 20_000 });
      await poll(async () => /\| tools\/call \|/.test(await activeEditorText()), 15_000, 'the per-method table');
      const text = await activeEditorText();
      assert.match(text, /PID/);
      assert.match(text, /2025-11-25/);
      await wb.screenshot('inspect-details');
    });
  });

  test('args-prompt: arguments asked one by one, then the messages', { timeout: 60_000 }, async () => {
    await step('args-prompt', async () => {
      await command('MCP Host: Get Prompt…');
      await pick('args-prompt');
      const input = wb.page.locator('.quick-input-widget .quick-input-box input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await poll(async () => /city \(required\)/.test((await input.getAttribute('placeholder')) ?? ''), 10_000, 'the city step');
      await input.fill('Paris');
      await wb.page.keyboard.press('Enter');
      await poll(async () => /state \(optional/.test((await input.getAttribute('placeholder')) ?? ''), 10_000, 'the state step');
      await input.fill('Texas');
      await wb.page.keyboard.press('Enter');
      const frame = await webview('Prompt: args-prompt');
      await poll(async () => /Paris/.test(await frame.locator('.result .message').first().innerText().catch(() => '')), 15_000, 'the prompt messages');
      assert.match(await frame.locator('.result .message .role').first().innerText(), /user/i);
      await wb.screenshot('inspect-prompt');
    });
  });
});

describe('a destructive tool asks first (server-filesystem)', { skip }, () => {
  let wb: Workbench;
  const folder = mkdtempSync(join(tmpdir(), 'mcp-inspect-e2e-fs-'));

  before(async () => {
    mkdirSync(join(folder, '.vscode'));
    const server = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
    writeFileSync(join(folder, '.vscode', 'mcp.json'), JSON.stringify({ servers: { files: { type: 'stdio', command: 'node', args: [server, '${workspaceFolder}'] } } }));
    wb = await launch({ workspace: folder, vsix: VSIX, timeoutMs: 150_000 });
    await wb.openView('MCP Host');
    await wb.waitForTreeItem('files', { timeoutMs: 30_000 });
    const consent = await wb.dialog({ timeoutMs: 20_000 });
    if (consent) await wb.answerDialog('Allow');
    await wb.waitForTreeItem('Tools', { timeoutMs: 30_000 });
  });

  after(async () => {
    if (wb) {
      await wb.close();
      assert.deepEqual(wb.leftoverProcesses(), []);
    }
    rmSync(folder, { recursive: true, force: true });
  });

  test('write_file: Cancel sends nothing; Run writes the file', { timeout: 90_000 }, async () => {
    const target = join(folder, 'written.txt');
    await wb.page.locator('.part.sidebar .composite.title').first().click();
    await wb.runCommand('MCP Host: Call Tool…');
    const input = wb.page.locator('.quick-input-widget .quick-input-box input');
    await poll(async () => !((await input.inputValue()) || '').startsWith('>') && (await input.isEditable()), 10_000, 'the tool pick');
    await input.fill('write_file');
    const first = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name').first();
    await poll(async () => ((await first.innerText().catch(() => '')) || '').trim() === 'write_file', 10_000, 'write_file first');
    await wb.page.keyboard.press('Enter');
    const frame = await poll(
      async () => {
        for (const f of wb.page.frames()) {
          const t = await f.evaluate(() => document.querySelector('#app header h1')?.textContent ?? null).catch(() => null);
          if (t && t.includes('write_file')) return f;
        }
        return undefined;
      },
      20_000,
      'the write_file panel',
    );
    await frame.locator('.badge.destructive').waitFor({ timeout: 10_000 });
    await frame.locator('.field[data-path="/path"] textarea, .field[data-path="/path"] input').first().fill(target);
    await frame.locator('.field[data-path="/content"] textarea, .field[data-path="/content"] input').first().fill('written from the tool panel');
    await poll(async () => !(await frame.locator('#run').isDisabled()), 10_000, 'Run to be enabled');

    await frame.locator('#run').click();
    const asked = await wb.dialog({ timeoutMs: 10_000 });
    assert.ok(asked, 'a confirmation dialog');
    assert.match(asked.message, /Run write_file on files\?/);
    assert.match(asked.detail, /destructive/);
    await wb.screenshot('inspect-destructive-confirm');
    await wb.answerDialog('Cancel');
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(existsSync(target), false, 'nothing was sent');
    assert.equal(await frame.locator('.history-item').count(), 0);

    await frame.locator('#run').click();
    await wb.dialog({ timeoutMs: 10_000 });
    await wb.answerDialog('Run');
    await poll(async () => existsSync(target), 15_000, 'the file to be written');
    assert.equal(readFileSync(target, 'utf8'), 'written from the tool panel');
    await poll(async () => /OK/.test(await frame.locator('.result .status').innerText().catch(() => '')), 15_000, 'the result');
  });
});
