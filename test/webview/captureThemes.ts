// Re-runnable: reads what a webview receives from the real VS Code (code-server 4.139.1) in each
// of the four themes the accessibility checks use, and writes it to test/webview/themes/*.json
// for the page harness (pageHarness.ts). Not a test: run it by hand after a code-server update,
// under the e2e lock, and commit the fixtures it writes:
//   npx tsc -p . && node scripts/package.mjs --no-build
//   flock /tmp/e2e.lock node out/test/webview/captureThemes.js
// What it reads, in the frame of a webview VS Code built: the `--vscode-*` variables on <html>,
// the classes and data-vscode-* attributes on <body>, and VS Code's default stylesheet
// (<style id="_defaultStyles">), which every webview gets before its own styles.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { defaultVsixPath, launch, repoRoot, waitUntil } from '../e2e/harness';
import { THEMES, type ThemeFixture } from './themes';

async function webviewThemeOf(frames: readonly Frame[]): Promise<Omit<ThemeFixture, 'theme' | 'settingId'> | undefined> {
  for (const frame of frames) {
    const read = await frame
      .evaluate(() => {
        if (!document.querySelector('#app') || !document.getElementById('_defaultStyles')) return undefined;
        const style = document.documentElement.style;
        const variables: Record<string, string> = {};
        for (let i = 0; i < style.length; i++) {
          const name = style.item(i);
          if (name.startsWith('--vscode-')) variables[name] = style.getPropertyValue(name).trim();
        }
        const bodyAttributes: Record<string, string> = {};
        for (const a of Array.from(document.body.attributes)) if (a.name.startsWith('data-vscode-')) bodyAttributes[a.name] = a.value;
        return {
          bodyClass: document.body.className,
          bodyAttributes,
          defaultStyles: document.getElementById('_defaultStyles')?.textContent ?? '',
          variables,
        };
      })
      .catch(() => undefined);
    if (read && Object.keys(read.variables).length > 100) return read;
  }
  return undefined;
}

async function main(): Promise<void> {
  const workspace = mkdtempSync(join(tmpdir(), 'mcp-host-themes-'));
  const outDir = join(repoRoot, 'test', 'webview', 'themes');
  mkdirSync(outDir, { recursive: true });
  try {
    for (const theme of THEMES) {
      const wb = await launch({ workspace, vsix: defaultVsixPath, settings: { 'workbench.colorTheme': theme.settingId } });
      try {
        await wb.runCommand('MCP Host: Open Timeline');
        const read = await waitUntil(async () => webviewThemeOf(wb.page.frames()), 60_000, `a webview with the ${theme.name} variables`);
        const fixture: ThemeFixture = { theme: theme.name, settingId: theme.settingId, ...read };
        writeFileSync(join(outDir, `${theme.file}.json`), JSON.stringify(fixture, null, 1) + '\n');
        console.log(`${theme.name}: ${Object.keys(read.variables).length} variables, body "${read.bodyClass}"`);
      } finally {
        await wb.close();
      }
    }
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
