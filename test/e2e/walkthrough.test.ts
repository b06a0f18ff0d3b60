// End-to-end: the Get Started walkthrough in a real VS Code. In a folder with no MCP
// configuration the view's welcome offers the first steps; "MCP Host: Get Started with MCP Host"
// opens the walkthrough with its six steps and their pictures; its first button writes
// .vscode/mcp.json, and the step is then marked done (its completion event is real). Installed
// into a running window, VS Code should open it by itself, once (a todo in code-server).
// Screenshots: test-results/screenshots/walkthrough*.png.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fixtureExtension } from './fixtureExtensions';
import { defaultVsixPath, launch, waitUntil, type Workbench } from './harness';

const VSIX = process.env.MCP_HOST_VSIX ?? defaultVsixPath;
const STEPS = ['Add a server', 'Allow it', 'Call a tool', 'Read its log', 'Try @mcp in chat', "Share with VS Code's chat"];

const workspace = mkdtempSync(join(tmpdir(), 'mcp-host-walkthrough-'));
const installWorkspace = mkdtempSync(join(tmpdir(), 'mcp-host-walkthrough-install-'));
let workbench: Workbench | undefined;
after(async () => {
  await workbench?.close();
  rmSync(workspace, { recursive: true, force: true });
  rmSync(installWorkspace, { recursive: true, force: true });
});

test("an empty workspace: the view's welcome offers Create .vscode/mcp.json and Get Started", { timeout: 240_000 }, async () => {
  assert.ok(existsSync(VSIX), `${VSIX} is missing; run \`node scripts/package.mjs\``);
  const wb = (workbench = await launch({ workspace, vsix: VSIX }));
  const page = wb.page;

  await wb.openView('MCP Host');
  const welcome = await waitUntil(async () => {
    // Read off the screen: with no servers the view has no tree widget yet (welcomeText needs one).
    const text = (await page.locator('.part.sidebar .welcome-view-content').first().innerText().catch(() => '')).trim();
    return text.includes('Get Started with MCP Host') ? text : undefined;
  }, 30_000, "the view's welcome offering Get Started");
  assert.match(welcome, /Create \.vscode\/mcp\.json/);
  await wb.screenshot('walkthrough-welcome');
});

test('the walkthrough opens with its six steps and ticks the first when it ran', { timeout: 180_000 }, async () => {
  const wb = workbench;
  assert.ok(wb, 'the workbench of the test before');
  const page = wb.page;

  await page.locator('.part.sidebar .welcome-view-content .monaco-button', { hasText: 'Get Started with MCP Host' }).first().click();
  const container = page.locator('.part.editor');
  await container.getByText('Get Started with MCP Host').first().waitFor({ timeout: 30_000 }).catch(async (error: unknown) => {
    await wb.screenshot('walkthrough-not-shown');
    throw error;
  });
  for (const title of STEPS) await container.locator('.getting-started-step .step-title').getByText(title, { exact: true }).waitFor({ timeout: 10_000 });
  // The first step is open with its picture (an SVG the step names) and its button.
  const media = container.locator('.getting-started-media');
  await media.locator('img, svg, iframe, .getting-started-media-image').first().waitFor({ state: 'attached', timeout: 10_000 });
  await wb.screenshot('walkthrough');

  // A step's checkbox (`data-done-step-id`) says aria-checked="true" once its completion event came.
  const firstStepDone = container.locator('[data-done-step-id$="#addServer"][aria-checked="true"]');
  assert.equal(await container.locator('[data-done-step-id$="#addServer"]').count(), 1, "the first step's checkbox");
  assert.equal(await firstStepDone.count(), 0, 'the first step is not done yet');
  await container.getByRole('button', { name: 'Create .vscode/mcp.json' }).first().click();
  const config = join(workspace, '.vscode', 'mcp.json');
  await waitUntil(async () => existsSync(config), 20_000, '.vscode/mcp.json written by the step');
  assert.match(readFileSync(config, 'utf8'), /"command": "npx"/);
  // Its completion event (onCommand:mcpHost.createConfig) ticks the step in the walkthrough shown.
  // (No palette here: the new server's consent dialog, modal, is about to open.)
  await firstStepDone.first().waitFor({ state: 'attached', timeout: 20_000 });
  await wb.screenshot('walkthrough-first-step-done');
  assert.deepEqual(wb.activationErrors(), []);
});

// VS Code opens an extension's walkthrough itself when the extension is installed into the running
// window (workbench.welcomePage.walkthroughs.openOnInstall, on by default: from the Extensions view
// or a VSIX alike); not again on the next start.
// TODO: in code-server 4.139.1, after an install through workbench.extensions.installExtension (the
// fixture's command), the walkthrough had not opened 60 s later (one run, no screenshot yet; the
// "Install from VSIX..." file dialog, tried first, stayed open under the test). A todo, so its
// failure is reported with the screenshot and the fixture's log, not hidden.
test('installed from a VSIX into a running window, it opens the walkthrough once', { timeout: 360_000, todo: 'not seen to open on install in code-server yet' }, async () => {
  await workbench?.close();
  workbench = undefined;
  // A window without MCP Host (only the harness's own test extension), as a user's editor is.
  const wb = (workbench = await launch({
    workspace: installWorkspace,
    vsix: fixtureExtension('harness-extension'),
    settings: { 'workbench.welcomePage.walkthroughs.openOnInstall': true },
    env: { HARNESS_FIXTURE_VSIX: VSIX },
  }));
  const page = wb.page;
  const walkthroughTitle = page.locator('.part.editor').getByText('Get Started with MCP Host', { exact: true });
  assert.equal(await walkthroughTitle.count(), 0, 'no walkthrough before the install');

  // The install "Extensions: Install from VSIX..." makes, without its file dialog.
  await wb.runCommand('Harness Fixture: Install the VSIX of HARNESS_FIXTURE_VSIX');
  await walkthroughTitle.first().waitFor({ timeout: 60_000 }).catch(async (error: unknown) => {
    await wb.screenshot('walkthrough-on-install-failed');
    const fixtureLog = await wb.outputChannelText('Fixture Log', { reveal: false, timeoutMs: 5_000 }).catch((e: unknown) => String(e));
    throw new Error(`${(error as Error).message.split('\n')[0]}; the fixture's log: ${fixtureLog}`);
  });
  await page.locator('.part.editor .getting-started-step[data-step-id$="#addServer"]').first().waitFor({ timeout: 10_000 });
  await wb.screenshot('walkthrough-on-install');

  // Closed and started again, the window does not open it a second time.
  await wb.runCommand('View: Close All Editors');
  await walkthroughTitle.first().waitFor({ state: 'detached', timeout: 10_000 });
  await wb.reloadWindow();
  await wb.openView('MCP Host');
  await page.locator('.part.sidebar .welcome-view-content').first().waitFor({ timeout: 30_000 });
  assert.equal(await walkthroughTitle.count(), 0, 'the walkthrough opened again after a restart');
  // The command palette opens it any time.
  await wb.runCommand('MCP Host: Get Started with MCP Host');
  await walkthroughTitle.first().waitFor({ timeout: 30_000 });
  assert.deepEqual(wb.activationErrors(), []);
});
