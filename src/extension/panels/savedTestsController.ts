// The Testing view's controller of saved calls (`.vscode/mcp-tests.json`), registered at
// activation with its run profiles, file watcher and "Save Call as Test…" command. The tests' code
// (reading the file, running, saving: savedTests.ts) loads when a workspace folder has a test file
// or the user runs or saves one, so a workspace without tests never reads it.
import * as vscode from 'vscode';
import { SAVED_TESTS_FILE } from '../../usecases/savedTestsFile';
import { OnDemand } from '../onDemand';
import type { UseCaseContext } from './useCaseContext';
import type { SavedTests } from './savedTests';

export class SavedTestsController implements vscode.Disposable {
  private readonly controller = vscode.tests.createTestController('mcpHost.savedTests', 'MCP Host: saved calls');
  private readonly savedTests: OnDemand<SavedTests>;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(ctx: UseCaseContext) {
    this.savedTests = new OnDemand(async () => new (await import('./savedTests.js')).SavedTests(this.controller, ctx));
    this.controller.resolveHandler = async () => this.discover();
    this.controller.refreshHandler = async () => this.discover();
    this.controller.createRunProfile('Run', vscode.TestRunProfileKind.Run, async (request, token) => (await this.savedTests.get()).run(request, token, false), true);
    // Debug: each test's server under dev mode's debugger (restarted so unless one is attached), then the same run.
    if (ctx.deps.debugServer) this.controller.createRunProfile('Debug', vscode.TestRunProfileKind.Debug, async (request, token) => (await this.savedTests.get()).run(request, token, true), true);
    const watcher = vscode.workspace.createFileSystemWatcher(`**/${SAVED_TESTS_FILE}`);
    const rediscover = () => void this.discover();
    this.disposables.push(
      this.savedTests,
      this.controller,
      watcher,
      watcher.onDidChange(rediscover),
      watcher.onDidCreate(rediscover),
      watcher.onDidDelete(rediscover),
      vscode.workspace.onDidChangeWorkspaceFolders(rediscover),
      vscode.commands.registerCommand('mcpHost.history.saveAsTest', async () => (await this.savedTests.get()).saveFromHistory()),
    );
    void this.discover();
  }

  /** Reads every folder's test file into the Testing view (none when no folder has one, without loading the tests' code). */
  async discover(): Promise<void> {
    if (!this.savedTests.current && !(await anyTestFile())) {
      this.controller.items.replace([]);
      return;
    }
    await (await this.savedTests.get()).discover();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/** True when a workspace folder has a test file. */
async function anyTestFile(): Promise<boolean> {
  const found = await Promise.all(
    (vscode.workspace.workspaceFolders ?? []).map((folder) =>
      vscode.workspace.fs.stat(vscode.Uri.joinPath(folder.uri, SAVED_TESTS_FILE)).then(
        () => true,
        () => false,
      ),
    ),
  );
  return found.includes(true);
}
