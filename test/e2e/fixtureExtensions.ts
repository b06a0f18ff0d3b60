// Test-only extensions (test/e2e/fixtures/<name>) packaged for `launch({ extensions })`.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { filesUnder, repoRoot } from './harness';

/**
 * The VSIX of a test-only extension under test/e2e/fixtures/<name> (lm-provider, lm-tool-provider,
 * harness-extension, …), for `launch({ extensions })`: it is installed with MCP Host before the
 * window opens, so no suite packages, installs and reloads on its own (that cost 25-35 s a suite).
 * Packaged once per content: the file is named by a hash of the fixture's files, so every suite of a
 * run (each its own process) reuses the first one's, and an edited fixture is packaged again.
 */
export function fixtureExtension(name: string): string {
  const dir = join(repoRoot, 'test', 'e2e', 'fixtures', name);
  const hash = createHash('sha256');
  for (const file of filesUnder(dir).sort()) hash.update(file.slice(dir.length)).update(readFileSync(file));
  const vsix = join(repoRoot, 'out', 'fixture-extensions', `${name}-${hash.digest('hex').slice(0, 12)}.vsix`);
  if (existsSync(vsix)) return vsix;
  mkdirSync(dirname(vsix), { recursive: true });
  // Written beside and renamed, so a suite running at the same time never reads half a file.
  const partial = `${vsix}.${process.pid}.partial`;
  const vsce = join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  const packed = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', partial], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  if (packed.status !== 0) throw new Error(`packaging the fixture extension ${name} failed:\n${packed.stdout}${packed.stderr}`);
  renameSync(partial, vsix);
  return vsix;
}
