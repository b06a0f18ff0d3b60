// `npm run test:desktop`: the desktop VS Code variant of the end-to-end checks, through
// @vscode/test-electron. It downloads VS Code into .vscode-test/ (or uses VSCODE_EXECUTABLE),
// loads the extension from the repository (extensionDevelopmentPath) and runs ./index.
// Machines without a download (like the project's CI sandbox) use the code-server suite instead:
// `npm run test:e2e`.
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';
import { join, resolve } from 'node:path';

const repoRoot = resolve(__dirname, '..', '..', '..', '..');

async function main(): Promise<number> {
  let vscodeExecutablePath = process.env.VSCODE_EXECUTABLE;
  if (!vscodeExecutablePath) {
    try {
      vscodeExecutablePath = await downloadAndUnzipVSCode({
        version: process.env.VSCODE_VERSION ?? 'stable',
        cachePath: join(repoRoot, '.vscode-test'),
        timeout: 30_000,
      });
    } catch (err) {
      console.error(
        `test:desktop: cannot download VS Code (${err instanceof Error ? err.message : String(err)}).\n` +
          'Set VSCODE_EXECUTABLE to an installed VS Code, or run the code-server suite: npm run test:e2e',
      );
      return 2;
    }
  }
  return runTests({
    vscodeExecutablePath,
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath: join(__dirname, 'index'),
    launchArgs: [join(repoRoot, 'test', 'e2e', 'workspaces', 'basic'), '--disable-extensions', '--disable-workspace-trust'],
  });
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`test:desktop failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
