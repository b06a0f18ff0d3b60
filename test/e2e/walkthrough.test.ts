// End-to-end: the Get Started walkthrough in a real VS Code. In a folder with no MCP
// configuration the view's welcome offers the first steps; "MCP Host: Get Started with MCP Host"
// opens the walkthrough with its six steps and their pictures; its first button writes
// .vscode/mcp.json beside the walkthrough, and the step is then marked done (its completion event
// is real) while "Allow it" waits for the consent. Installed into a running window that shows the
// Welcome page, the page lists it as new and opens it; the palette does too.
// Screenshots: test-results/screenshots/walkthrough*.png.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fixtureExtension } from './fixtureExtensions';
import { defaultVsixPath, launch, waitUntil, type Workbench } from './harness';
import { retrying } from './retries';

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
  // The file opens beside the walkthrough (command:toSide:), not over it: an editor opened in the
  // walkthrough's group hides it, and VS Code takes a hidden editor's page out of the window, tick
  // and all (the step's tick came at once, then vanished under mcp.json on a slow machine).
  const mcpJsonTab = page.locator('.part.editor .tabs-container .tab', { hasText: 'mcp.json' });
  await mcpJsonTab.first().waitFor({ timeout: 20_000 });
  await waitUntil(async () => (await page.locator('.part.editor .editor-group-container').count()) === 2 || undefined, 10_000, 'mcp.json in a second editor group');
  // Its completion event (onCommand:mcpHost.createConfig) ticks the step in the walkthrough shown.
  // (No palette here: the new server's consent dialog, modal, is about to open.)
  await firstStepDone.first().waitFor({ state: 'visible', timeout: 20_000 });
  await container.getByText('Get Started with MCP Host').first().waitFor({ state: 'visible', timeout: 5_000 });
  // "Allow it" is not done while the new server only waits for its consent (the dialog is open).
  await waitUntil(async () => /waiting for consent/.test(await page.locator('.part.statusbar').innerText().catch(() => '')) || undefined, 20_000, 'the server waiting for consent');
  assert.equal(await container.locator('[data-done-step-id$="#allowServer"][aria-checked="true"]').count(), 0, '"Allow it" done before anything was allowed');
  await wb.screenshot('walkthrough-first-step-done');
  assert.deepEqual(wb.activationErrors(), []);
});

// VS Code is meant to open an extension's walkthrough itself when the extension is installed into
// the running window (workbench.welcomePage.walkthroughs.openOnInstall, on by default). Its
// walkthroughs service (gettingStartedService.ts) notes the install in a listener its constructor
// adds, and the service is made lazily (the Welcome page, a walkthrough, the Remote Explorer's Help
// view): in a window that showed none of them (the harness's `workbench.startupEditor: none`)
// nothing hears the install. With the Welcome page shown, code-server 4.139.1 lists the new
// walkthrough there as "New", and opened it by itself in one run of two; what holds is tested, and
// whether it opened by itself is reported as a diagnostic (docs/user-guide.md, "Get started").
test('installed from a VSIX into a window showing the Welcome page, the page lists the walkthrough and opens it', { timeout: 360_000 }, async (t) => {
  await workbench?.close();
  workbench = undefined;
  // A window without MCP Host (only the harness's own test extension), as a user's editor is.
  const wb = (workbench = await launch({
    workspace: installWorkspace,
    vsix: fixtureExtension('harness-extension'),
    settings: { 'workbench.welcomePage.walkthroughs.openOnInstall': true, 'workbench.startupEditor': 'welcomePage' },
    env: { HARNESS_FIXTURE_VSIX: VSIX },
  }));
  const page = wb.page;
  // The walkthrough's own page (its steps), and its entry in the Welcome page's list.
  const walkthroughSteps = page.locator('.part.editor .getting-started-step[data-step-id$="#addServer"]');
  const listEntry = page.locator('.part.editor .getting-started-category', { hasText: 'Get Started with MCP Host' });
  await page.locator('.part.editor .gettingStartedContainer').first().waitFor({ timeout: 30_000 });
  assert.equal(await listEntry.count(), 0, 'no MCP Host walkthrough before the install');

  // The install "Extensions: Install from VSIX..." makes, without its file dialog.
  await wb.runCommand('Harness Fixture: Install the VSIX of HARNESS_FIXTURE_VSIX');
  await listEntry.first().waitFor({ state: 'visible', timeout: 60_000 }).catch(async (error: unknown) => {
    await wb.screenshot('walkthrough-on-install-failed');
    const fixtureLog = await wb.outputChannelText('Fixture Log', { reveal: false, timeoutMs: 5_000 }).catch((e: unknown) => String(e));
    throw new Error(`${(error as Error).message.split('\n')[0]}; the fixture's log: ${fixtureLog}`);
  });
  assert.match(await listEntry.first().innerText(), /New/, 'listed as new');
  t.diagnostic(`opened by itself on install: ${(await walkthroughSteps.count()) > 0}`);
  await wb.screenshot('walkthrough-on-install');

  // From the Welcome page's list, as a user would.
  if ((await walkthroughSteps.count()) === 0) await listEntry.first().click();
  await walkthroughSteps.first().waitFor({ state: 'visible', timeout: 30_000 });
  // The command palette opens it any time.
  // Closed and opened again from the palette. A palette whose click the list lost takes Enter on
  // its focused row; once (CI) the editors were still open 10 s later: closed again, counted.
  await retrying('walkthrough: View: Close All Editors run again', 3, async () => {
    await wb.runCommand('View: Close All Editors');
    await walkthroughSteps.first().waitFor({ state: 'detached', timeout: 10_000 });
  });
  await wb.runCommand('MCP Host: Get Started with MCP Host');
  await walkthroughSteps.first().waitFor({ state: 'visible', timeout: 30_000 });
  assert.deepEqual(wb.activationErrors(), []);
});
