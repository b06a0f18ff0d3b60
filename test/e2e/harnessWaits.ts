// The harness's small parts: MCP Host's protocol log read back, files, steps with a screenshot on
// failure, retried clicks, polling and time limits, ports, bounded child processes.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { Workbench } from './harnessTypes';
import { signal } from './processes';
import { reportRetry } from './retries';

export interface TraceFrame {
  readonly direction: 'send' | 'receive';
  /** The JSON as logged (cut at `mcpHost.log.maxPayloadChars`). */
  readonly json: string;
  /** The parsed message; undefined when the JSON was cut. */
  readonly message: any;
}

/**
 * The frames in a server channel's text, in order: MCP Host logs each at Trace as
 * `[editor → server] 58 B {json}` (or `server → editor`).
 */
export function traceFrames(log: string): TraceFrame[] {
  const frames: TraceFrame[] = [];
  for (const line of log.split('\n')) {
    // Frames replayed from before Trace start with their own time ("2026-11-25 02:13:05.123 [editor → server] …").
    const m = /\[trace\] (?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} )?\[(editor → server|server → editor)\] [\d.]+ (?:B|KiB|MiB) (\{.*)$/.exec(line);
    if (!m) continue;
    let message: unknown;
    try {
      message = JSON.parse(m[2]);
    } catch {
      message = undefined;
    }
    frames.push({ direction: m[1].startsWith('editor') ? 'send' : 'receive', json: m[2], message });
  }
  return frames;
}

// ---------------------------------------------------------------------------------------------
// Small helpers

/**
 * The file name (without `.log`) the extension host gives a channel: the name trimmed, without
 * the characters Windows forbids in file names (`MCP: everything` → `MCP everything`), as in
 * VS Code's extHostOutput.ts.
 */
/** Every file under `dir` (none when it does not exist): the logs a test searches for secrets. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

export function channelLogFileName(channelName: string): string {
  return channelName.trim().replace(/[\\/:*?"<>|]/g, '');
}

/** Polls `check` every 100 ms until it returns true; throws after `timeoutMs`. */
/**
 * Runs one step of a test. On failure it saves test-results/screenshots/<screenshot>.png, runs
 * `cleanup` (to leave the screen as the next test expects it, so one failure stays one), and adds
 * the notifications on screen and any activation errors to the error.
 */
export async function step<T>(wb: Workbench, screenshot: string, fn: () => Promise<T>, cleanup?: () => Promise<void>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    await wb.screenshot(screenshot).catch(() => undefined);
    const toasts = await wb.notifications().catch(() => []);
    const dialog = await wb.dialog().catch(() => undefined);
    await cleanup?.().catch(() => undefined);
    const open = dialog ? `; a dialog is open: ${JSON.stringify(dialog.message)} ${JSON.stringify(dialog.buttons)}` : '';
    const context = `\nnotifications: ${JSON.stringify(toasts)}${open}; activation errors: ${JSON.stringify(wb.activationErrors())}`;
    if (error instanceof Error) {
      error.message += context;
      throw error;
    }
    throw new Error(`${String(error)}${context}`);
  }
}

/**
 * Clicks `target` and makes sure the click reached its page: a click that lands while a webview
 * is being focused or its page rebuilt can be lost without an error, and a test would then wait
 * for what the click should have started. The page counts the clicks it receives; a click it did
 * not receive is tried again (a button's own action runs only on a click it received).
 */
export async function clickReached(target: Locator, what: string, attempts = 3): Promise<void> {
  const received = (): Promise<number> =>
    target.evaluate((el) => {
      const w = el.ownerDocument.defaultView as (Window & { __e2eClicks?: number }) | null;
      if (w && w.__e2eClicks === undefined) {
        w.__e2eClicks = 0;
        el.ownerDocument.addEventListener('click', () => (w.__e2eClicks = (w.__e2eClicks ?? 0) + 1), { capture: true });
      }
      return w?.__e2eClicks ?? 0;
    });
  for (let attempt = 1; ; attempt++) {
    const before = await received();
    await target.click({ timeout: 10_000 });
    const reached = await poll(async () => (await received().catch(() => before)) > before, { timeoutMs: 2_000, what }).then(
      () => true,
      () => false,
    );
    if (reached) return;
    if (attempt >= attempts) throw new Error(`${what}: ${attempts} clicks did not reach the page`);
    reportRetry(`clickReached ${what}: click sent again`, 'the page did not receive the click within 2 s');
  }
}

export async function poll(
  check: () => boolean | Promise<boolean>,
  options: { timeoutMs: number; what: string; detail?: () => string },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() >= deadline) {
      const detail = options.detail ? `\n${options.detail()}` : '';
      throw new Error(`timed out after ${options.timeoutMs} ms waiting for ${options.what}${detail}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Polls `probe` until it returns a truthy value and resolves with it. A probe that throws (an
 * element not there yet) counts as "not yet"; the last error is named when time runs out.
 */
export async function waitUntil<T>(probe: () => Promise<T | undefined | false>, timeoutMs: number, what: string): Promise<T> {
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

export function remaining(deadline: number): number {
  const ms = deadline - Date.now();
  if (ms <= 0) throw new Error('launch timed out');
  return ms;
}

export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export async function waitForHttp(url: string, deadline: number): Promise<boolean> {
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const server = createServer();
    server.once('error', rej);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => res(port));
    });
  });
}

/** Runs a command to completion with a time bound; output is captured, never printed. */
export function runBounded(
  cmd: string,
  args: string[],
  options: { timeoutMs: number; env?: NodeJS.ProcessEnv },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((res, rej) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env, detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      signal(-child.pid!, 'SIGKILL');
      rej(new Error(`${cmd} ${args.join(' ')} timed out after ${options.timeoutMs} ms\n${tail(stderr + stdout, 20)}`));
    }, options.timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      rej(err);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      res({ code, stdout, stderr });
    });
  });
}

export async function nextFrame(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
}

export function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

export function tail(text: string, lines: number): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

