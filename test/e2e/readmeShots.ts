// The pictures of README.md and docs/ come from the suites' screenshots: with MCP_HOST_README_SHOTS=1
// (set by `npm run screenshots`, scripts/screenshots.mjs, which holds the one list) a shot on that
// list is written to its picture under media/readme/ too. Without it nothing here runs.
import { copyFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';

// out/test/e2e → the repository (not imported from the harness, which imports this file).
const repoRoot = resolve(__dirname, '..', '..', '..');

interface ReadmeShot {
  readonly file: string;
  readonly suite: string;
  readonly shot: string;
  readonly part?: string;
}

interface ReadmeShotList {
  README_SHOTS: ReadmeShot[];
  README_SHOTS_VAR: string;
  readmeShotsDir: string;
}

/** The list in scripts/screenshots.mjs (an ES module, so it is imported, not required). */
export function readmeShotList(): Promise<ReadmeShotList> {
  return import(pathToFileURL(join(repoRoot, 'scripts', 'screenshots.mjs')).href) as Promise<ReadmeShotList>;
}

/** After the screenshot `shot` was saved at `saved`: writes it to its README picture when asked to. */
export async function publishReadmeShot(page: Page, shot: string, saved: string): Promise<void> {
  if (process.env.MCP_HOST_README_SHOTS !== '1') return;
  const list = await readmeShotList();
  const entry = list.README_SHOTS.find((s) => s.shot === shot);
  if (!entry) return;
  const target = join(list.readmeShotsDir, entry.file);
  if (entry.part) await page.locator(entry.part).first().screenshot({ path: target });
  else copyFileSync(saved, target);
}
