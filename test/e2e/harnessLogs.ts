// Output channels and the extension host's logs of a launch (harness.ts's `Launched`): functions with the launch as `this`, set on
// the class as its methods, so a suite calls `wb.outputChannelText(…)` as before.
import type { Launched } from './harness';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { extensionErrors } from '../support/extensionHostLog';
import type { LogLevelName } from './harnessTypes';
import { channelLogFileName, poll, safeReaddir, tail } from './harnessWaits';


export async function outputChannelText(this: Launched, channelName: string, options: { contains?: string | RegExp | ((text: string) => boolean); timeoutMs?: number; reveal?: boolean } = {}): Promise<string> {
  const contains = options.contains;
  const matches = (text: string): boolean =>
    contains === undefined ? true : typeof contains === 'string' ? text.includes(contains) : typeof contains === 'function' ? contains(text) : contains.test(text);
  let text: string | undefined;
  // The file appears when the extension creates the channel, which may be after startup.
  await poll(
    () => {
      text = this.readChannelLog(channelName);
      return text !== undefined && matches(text);
    },
    {
      timeoutMs: options.timeoutMs ?? 20_000,
      what: `output channel "${channelName}"${contains ? ` to contain ${typeof contains === 'function' ? 'what the test wants' : String(contains)}` : ''}`,
      detail: () => {
        const failed = this.activationErrors();
        const why = failed.length ? `; activation failed: ${failed.join('; ')}` : '';
        return text === undefined ? `no log file for the channel${why}` : `text:\n${tail(text, 20)}`;
      },
    },
  );
  if (options.reveal === false) return text!;
  await this.showOutputChannel(channelName);
  return this.readChannelLog(channelName) ?? text!;
}

/** Selects the channel in the Output panel (so screenshots show it). */
export async function showOutputChannel(this: Launched, channelName: string): Promise<void> {
  const select = this.page.locator('.part.panel select[aria-label="Switch Output"]').first();
  const selected = async (): Promise<boolean> =>
    (await select.isVisible()) && (await select.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent ?? '')) === channelName;
  if (await selected()) return;
  await this.runCommandAndPick('Output: Show Output Channels...', channelName);
  await poll(selected, { timeoutMs: 10_000, what: `the Output view to show "${channelName}"` });
}

export async function setLogLevel(this: Launched, channelName: string, level: LogLevelName): Promise<void> {
  await this.runCommandAndPick('Developer: Set Log Level...', channelName);
  // The first step lists the default levels too; wait for the second, which lists only the
  // channel's levels, before picking one.
  const rows = this.page.locator('.quick-input-widget .quick-input-list .monaco-list-row .label-name');
  await poll(async () => !(await rows.allInnerTexts()).some((t) => t.trim() === channelName), { timeoutMs: 10_000, what: `the log levels of "${channelName}"` });
  await this.pickQuickItem(level);
}

/**
 * The extension host writes every output channel to a file under the user-data-dir:
 *   logs/<session>/exthost<N>/<publisher.name>/<channel>.log           (LogOutputChannel)
 *   logs/<session>/exthost<N>/output_logging_<time>/<n>-<channel>.log  (plain OutputChannel)
 * A new window gets a new exthost<N>; the newest file wins. `<channel>` is the name without
 * the characters file names cannot hold (see channelLogFileName()).
 */
export function readChannelLog(this: Launched, channelName: string): string | undefined {
  const fileName = `${channelLogFileName(channelName)}.log`;
  const logs = join(this.userDataDir, 'logs');
  let best: { path: string; mtime: number } | undefined;
  const consider = (path: string): void => {
    const mtime = statSync(path).mtimeMs;
    if (!best || mtime > best.mtime) best = { path, mtime };
  };
  for (const session of safeReaddir(logs)) {
    for (const host of safeReaddir(join(logs, session)).filter((d) => /^exthost\d+$/.test(d))) {
      const hostDir = join(logs, session, host);
      for (const sub of safeReaddir(hostDir)) {
        const dir = join(hostDir, sub);
        for (const file of safeReaddir(dir)) {
          if (file === fileName || (sub.startsWith('output_logging_') && file.replace(/^\d+-/, '') === fileName)) {
            consider(join(dir, file));
          }
        }
      }
    }
  }
  return best ? readFileSync(best.path, 'utf8') : undefined;
}

/** The text of each extension host log of the launch (one per extension host started). */
export function extensionHostLogs(this: Launched): string[] {
  const texts: string[] = [];
  const logs = join(this.userDataDir, 'logs');
  for (const session of safeReaddir(logs)) {
    for (const host of safeReaddir(join(logs, session)).filter((d) => /^exthost\d+$/.test(d))) {
      try {
        texts.push(readFileSync(join(logs, session, host, 'remoteexthost.log'), 'utf8'));
      } catch {
        // this host wrote no log (yet)
      }
    }
  }
  return texts;
}

export function activationErrors(this: Launched): string[] {
  const errors: string[] = [];
  for (const text of this.extensionHostLogs()) {
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      const failed = /\[error\] Activating extension (\S+) failed/.exec(line);
      // The next line holds the error message; the stack follows it.
      if (failed) errors.push(`${failed[1]}: ${(lines[i + 1] ?? '').replace(/^.*?\[error\] /, '')}`);
    });
  }
  return errors;
}

export function extensionHostErrors(this: Launched): string[] {
  return this.extensionHostLogs().flatMap((text) => extensionErrors(text));
}
