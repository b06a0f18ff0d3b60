// End-to-end: the README's two commands as a new user meets them. The repository's HEAD is
// cloned into a temporary folder with nothing beside it (no ../shared), and a cache folder that
// is empty unless MCP_HOST_CACHE names one (`.ci/run` gives the whole `npm test` a new, empty one;
// scripts/test.mjs installs code-server into it before any suite runs, so there the demo finds it,
// and runs this suite after the unit stream, beside the end-to-end stream; run alone on an empty
// cache, `npm run demo` installs code-server, under `npm test` the nested npm of an npm script).
// Then, in the clone:
//   - `npm ci`;
//   - `npm run demo` until the URL it prints serves the workbench with the MCP Host view listing
//     the demo's three servers (trusted, allowed, running; screenshot
//     test-results/screenshots/fresh-clone-demo.png), then Ctrl-C (SIGINT to its process group)
//     and nothing it started is left running;
//   - the clone carries its test data: the suites of test/support (the fixture servers each started
//     and answering, every frame checked against the MCP schemas in test/fixtures/mcp-schema), as
//     the main run compiled them (out/ copied in: no tsc or esbuild again), read only the clone's
//     files. The unit suites themselves run once, in the main run.
// A failure of the README's commands fails this suite, so it fails CI.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ACTIVITY_BAR_ENTRY, CHROMIUM, CHROMIUM_ARGS, findProcesses, freePort, repoRoot, screenshotDir, waitUntil } from './harness';

/** The harness's marker variable: every process the demo starts inherits it, so survivors can be found. */
const MARKER_VAR = 'MCP_HOST_E2E_LAUNCH';
const MINUTE = 60_000;
/** The compiled suites run in the clone: those whose whole job is the repository's test data. */
const CLONE_SUITES = ['support'];

/** Each failed test of a node --test report (TAP): its `not ok` line and the lines of its report after it. */
function failedTests(output: string, linesEach = 30): string {
  const lines = output.split('\n');
  const blocks: string[] = [];
  lines.forEach((line, i) => {
    // Only the innermost failures: a suite's own `not ok` follows its failed tests.
    if (/^\s*not ok \d+ /.test(line) && !lines.slice(i + 1, i + 8).some((l) => l.includes("failureType: 'subtestsFailed'"))) {
      blocks.push(lines.slice(i, i + linesEach).join('\n'));
    }
  });
  return blocks.length ? `the failed tests:\n${blocks.join('\n')}` : '(no failed test named in the report)';
}

interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly output: string;
}

function tail(text: string, lines = 40): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

describe("the README's commands in a fresh clone, with an empty cache and no ../shared", { timeout: 60 * MINUTE }, () => {
  let base: string;
  let clone: string;
  let cache: string;
  let cacheWasEmpty: boolean;
  const env: NodeJS.ProcessEnv = { ...process.env };

  /** Runs an npm command in the clone to its end; the output is kept (both streams). */
  function npm(args: string[], timeoutMs: number): Promise<Run> {
    return run('npm', args, timeoutMs);
  }

  /** Runs a command in the clone to its end; the output is kept (both streams). */
  function run(command: string, args: string[], timeoutMs: number): Promise<Run> {
    return new Promise((resolve) => {
      const child = spawn(command, args, { cwd: clone, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const timer = setTimeout(() => {
        output += `\n(killed after ${timeoutMs} ms)`;
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // gone
        }
      }, timeoutMs);
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, output });
      });
    });
  }

  before(() => {
    base = mkdtempSync(join(tmpdir(), 'mcp-host-fresh-'));
    clone = join(base, 'mcp-host');
    const cloned = spawnSync('git', ['clone', '--quiet', '--no-hardlinks', repoRoot, clone], { encoding: 'utf8' });
    assert.equal(cloned.status, 0, `git clone failed: ${cloned.stderr}`);
    assert.equal(existsSync(join(dirname(clone), 'shared')), false, 'nothing named shared beside the clone');
    cache = process.env.MCP_HOST_CACHE ?? join(base, 'cache');
    cacheWasEmpty = !existsSync(cache) || readdirSync(cache).length === 0;
    env.MCP_HOST_CACHE = cache;
    // Nothing may point the clone's tests at data outside it.
    delete env.MCP_SCHEMA_DIR;
    delete env.MCP_HOST_VSIX;
    // Set by this test runner for its children: a nested `node --test` would skip every file.
    delete env.NODE_TEST_CONTEXT;
  });

  after(() => {
    if (process.env.MCP_HOST_E2E_KEEP) console.log(`kept ${base}`);
    else if (base) rmSync(base, { recursive: true, force: true });
  });

  test('npm ci', { timeout: 15 * MINUTE }, async () => {
    const r = await npm(['ci', '--no-audit', '--no-fund'], 15 * MINUTE);
    assert.equal(r.code, 0, `npm ci failed:\n${tail(r.output)}`);
  });

  test('npm run demo: the printed URL serves VS Code with the MCP Host view listing the demo servers; Ctrl-C leaves nothing running', { timeout: 40 * MINUTE }, async () => {
    const marker = randomBytes(8).toString('hex');
    const demo = spawn('npm', ['run', 'demo'], {
      cwd: clone,
      // A desktop `code` on this machine would be used instead; the URL is what is checked here.
      env: { ...env, MCP_HOST_DEMO: 'code-server', PORT: String(await freePort()), [MARKER_VAR]: marker },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, as a terminal's foreground job
    });
    let output = '';
    demo.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    demo.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => demo.on('exit', (code, signal) => resolve({ code, signal })));
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    void exited.then((e) => (exit = e));
    let browser: Browser | undefined;
    try {
      // The install of code-server (about 2–3 minutes on a quiet machine, much longer on a busy one).
      const url = await waitUntil(
        async () => {
          if (exit) throw new Error(`npm run demo exited (${exit.code ?? exit.signal}) before printing a URL:\n${tail(output)}`);
          return /^\s+(http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+)$/m.exec(output)?.[1];
        },
        35 * MINUTE,
        'the URL npm run demo prints',
      ).catch((error: unknown) => {
        throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- npm run demo ---\n${tail(output)}`);
      });
      if (cacheWasEmpty) assert.match(output, /installing code-server/, 'the empty cache got code-server from npm run demo');
      assert.match(output, /Press Ctrl\+C to stop\./);

      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
      await page.goto(url);
      await page.locator(ACTIVITY_BAR_ENTRY).first().waitFor({ timeout: 2 * MINUTE });
      // The demo asks about trust on opening (its servers are the workspace's), then one consent
      // dialog that lists the three servers.
      const answered = await openDemoServers(page);
      assert.ok(answered.some((a) => /trust/i.test(a)), `the trust question was asked: ${JSON.stringify(answered)}`);
      assert.deepEqual(answered.filter((a) => a.startsWith('Allow')), ['Allow All'], `one consent for the demo servers: ${JSON.stringify(answered)}`);
      mkdirSync(screenshotDir, { recursive: true });
      await page.screenshot({ path: join(screenshotDir, 'fresh-clone-demo.png') });
      await browser.close();
      browser = undefined;

      // Ctrl-C in the terminal: SIGINT to the foreground process group (npm and the demo script).
      process.kill(-demo.pid!, 'SIGINT');
      let bound: ReturnType<typeof setTimeout> | undefined;
      const end = await Promise.race([exited, new Promise<undefined>((r) => {
        bound = setTimeout(() => r(undefined), 30_000);
      })]);
      // The bound's timer would keep this file's process alive for the rest of the 30 s.
      clearTimeout(bound);
      assert.ok(end, `npm run demo did not stop within 30 s of Ctrl-C:\n${tail(output)}`);
      assert.match(output, /stopping code-server/);
      const left = await waitUntil(async () => (findProcesses(marker, demo.pid).length === 0 ? 'none' : undefined), 15_000, 'every process of the demo to end').catch(() => findProcesses(marker, demo.pid));
      assert.equal(left, 'none', `left running after Ctrl-C: ${JSON.stringify(left)}`);
    } finally {
      await browser?.close().catch(() => undefined);
      if (!exit) {
        try {
          process.kill(-demo.pid!, 'SIGKILL');
        } catch {
          // gone
        }
      }
      for (const p of findProcesses(marker)) {
        try {
          process.kill(p.pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
    }
  });

  // The main run's compiled suites (out/ resolves every path from its own folder), copied into
  // the clone: what they read is the clone's. Compiling again in the clone would take minutes of
  // CI time without checking more of the clone.
  test('the clone carries its test data: the fixture servers and the MCP schemas, read from the clone, pass their suites', { timeout: 10 * MINUTE }, async () => {
    const compiled = join(repoRoot, 'out');
    assert.ok(existsSync(join(compiled, 'test', 'support')), `${compiled}/test/support is missing: scripts/test.mjs compiles before it runs this suite`);
    cpSync(compiled, join(clone, 'out'), { recursive: true, filter: (src) => !src.includes(`${join('out', 'fixture-extensions')}`) });
    const files = CLONE_SUITES.flatMap((dir) => readdirSync(join(clone, 'out', 'test', dir)).filter((f) => f.endsWith('.test.js')).map((f) => join('out', 'test', dir, f)));
    const r = await run(process.execPath, ['--test', ...files], 10 * MINUTE);
    assert.equal(r.code, 0, `the test-data suites failed in the fresh clone:\n${failedTests(r.output)}\n--- the run's end ---\n${tail(r.output, 40)}`);
    assert.match(r.output, /^# fail 0$/m, tail(r.output));
    const passed = Number(/^# pass (\d+)$/m.exec(r.output)?.[1] ?? 0);
    assert.ok(passed > 50, `${passed} tests passed in the clone: the suites ran`);
  });
});

/**
 * Opens the MCP Host view as a new user would: trusts the workspace, allows each server's consent,
 * and waits until the three demo servers are listed and started. Returns the dialog buttons it pressed.
 */
async function openDemoServers(page: Page): Promise<string[]> {
  const pressed: string[] = [];
  const dialog = page.locator('.monaco-dialog-box').first();
  const press = async (): Promise<void> => {
    if (!(await dialog.isVisible().catch(() => false))) return;
    const buttons = (await dialog.locator('.dialog-buttons .monaco-button').allInnerTexts()).map((t) => t.trim());
    const choice = buttons.find((b) => /^Yes, I trust/.test(b)) ?? buttons.find((b) => /^Allow( All)?$/.test(b));
    if (!choice) throw new Error(`an unexpected dialog: ${buttons.join(' | ')}`);
    await dialog.locator('.dialog-buttons .monaco-button', { hasText: choice }).first().click();
    pressed.push(choice);
    await page.waitForTimeout(300);
  };
  const entry = page.locator('.part.activitybar .action-item a.action-label[aria-label^="MCP Host"]');
  let rows: string[] = [];
  await waitUntil(
    async () => {
      await press();
      if (!(await page.locator('.part.sidebar .composite.title h2', { hasText: /MCP Host/i }).isVisible().catch(() => false))) {
        if (await entry.isVisible().catch(() => false)) await entry.click();
        return false;
      }
      // Label and description, as the tree shows them ("Tools" "17").
      rows = await page
        .locator('.part.sidebar .monaco-list-row')
        .evaluateAll((els) => els.map((r) => `${r.querySelector('.label-name')?.textContent?.trim() ?? ''}|${r.querySelector('.label-description')?.textContent?.trim() ?? ''}`));
      // The three servers listed and started: each shows its Tools group with the count listed.
      const labels = rows.map((r) => r.split('|')[0]);
      return ['everything', 'notes', 'clock-app'].every((name) => labels.includes(name)) && rows.filter((r) => /^Tools\|\d+/.test(r)).length >= 3;
    },
    5 * MINUTE,
    'the MCP Host view listing the demo servers everything, notes and clock-app, all started',
  ).catch(async (error: unknown) => {
    mkdirSync(screenshotDir, { recursive: true });
    await page.screenshot({ path: join(screenshotDir, 'fresh-clone-demo-failed.png') }).catch(() => undefined);
    throw new Error(`${error instanceof Error ? error.message : String(error)}; rows: ${JSON.stringify(rows)}; pressed: ${JSON.stringify(pressed)}`);
  });
  return pressed;
}
