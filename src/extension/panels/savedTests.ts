// Saved calls as tests in VS Code's Testing view: each workspace folder's `.vscode/mcp-tests.json`
// is a group, each test a row; running one calls the server as a hand call would (history, log)
// and reports every failed assertion with what was expected and what came. "Save Call as Test…"
// writes a call from the history into the file. Loaded when a workspace has a test file or the
// user runs or saves a test (savedTestsController.ts owns the controller and its registrations).
import * as vscode from 'vscode';
import { applyEdits, findNodeAtLocation, modify, parseTree } from 'jsonc-parser';
import { errorMessage } from '../../protocol/errors';
import type { ServerHandle } from '../../registry/serverRegistry';
import { SAVED_TESTS_FILE, SavedTest, SavedTestFile, parseSavedTests } from '../../usecases/savedTests';
import type * as SavedTestRunner from '../../usecases/savedTestRunner';

/** The runner (and the tool-call use case under it) loads with the first run, not with the first discovery. */
let runner: Promise<typeof SavedTestRunner> | undefined;
const loadRunner = () => (runner ??= import('../../usecases/savedTestRunner.js'));
import type { UseCaseContext } from './useCaseContext';
import { plainPickText } from '../../content/untrustedText';
import { RunConfirmation, TestServerChoice, serverForSavedTest } from '../../usecases/savedTestPolicy';
import { PlannedCall, describePlannedCall } from '../../usecases/runApproval';

const HISTORY_KIND_LABEL = { tool: 'tool', prompt: 'prompt', resource: 'resource' } as const;

/** The Testing view's tests of saved calls: reads them into the controller, runs them, saves a call as one. */
export class SavedTests implements vscode.Disposable {
  private readonly tests = new Map<string, { test: SavedTest; folder: vscode.WorkspaceFolder }>();

  constructor(
    private readonly controller: vscode.TestController,
    private readonly ctx: UseCaseContext,
  ) {}

  /** Reads every folder's test file into the tree; a broken file is one row with its error. */
  async discover(): Promise<void> {
    const items: vscode.TestItem[] = [];
    this.tests.clear();
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const uri = vscode.Uri.joinPath(folder.uri, SAVED_TESTS_FILE);
      let text: string;
      try {
        text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      } catch {
        continue; // no tests in this folder
      }
      let file: SavedTestFile;
      try {
        file = parseSavedTests(text, SAVED_TESTS_FILE);
      } catch (error) {
        // A broken file is one row with its error; the tests of other folders still show.
        const broken = this.controller.createTestItem(uri.toString(), `${folder.name}: ${SAVED_TESTS_FILE}`, uri);
        broken.error = errorMessage(error);
        items.push(broken);
        continue;
      }
      const tree = parseTree(text);
      const document = await vscode.workspace.openTextDocument(uri);
      const several = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
      file.tests.forEach((test, i) => {
        const id = `${uri.toString()}#${test.name}`;
        const item = this.controller.createTestItem(id, test.name, uri);
        const what = test.action.kind === 'tool' ? test.action.tool : test.action.kind === 'read' ? test.action.uri : test.action.prompt;
        item.description = `${test.server} · ${what}${several ? ` · ${folder.name}` : ''}`;
        const node = tree && findNodeAtLocation(tree, ['tests', i]);
        if (node) item.range = new vscode.Range(document.positionAt(node.offset), document.positionAt(node.offset + node.length));
        this.tests.set(id, { test, folder });
        items.push(item);
      });
    }
    this.controller.items.replace(items);
  }

  async run(request: vscode.TestRunRequest, token: vscode.CancellationToken, debug: boolean): Promise<void> {
    const run = this.controller.createTestRun(request);
    const queue: vscode.TestItem[] = [];
    const add = (item: vscode.TestItem) => {
      if (request.exclude?.includes(item)) return;
      if (this.tests.has(item.id)) queue.push(item);
      else item.children.forEach(add);
    };
    if (request.include) request.include.forEach(add);
    else this.controller.items.forEach(add);
    queue.forEach((item) => run.enqueued(item));
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    // Calls of tools that may change things ask as a hand call asks: once for the run, listing them all.
    const confirmation = this.ctx.setting('confirmDestructiveTools', true)
      ? new RunConfirmation(
          () => queue.map((item) => this.tests.get(item.id)!).map(({ test, folder }) => ({ test, tools: this.serverFor(test.server, folder).server?.tools })),
          (calls) => confirmTestCalls(calls),
        )
      : undefined;
    /** A Debug run's servers under the debugger: each one once, whatever the number of its tests. */
    const debugged = new Map<string, Promise<string | undefined>>();
    try {
      for (const item of queue) {
        if (token.isCancellationRequested) {
          run.skipped(item);
          continue;
        }
        const { test, folder } = this.tests.get(item.id)!;
        run.started(item);
        const choice = this.serverFor(test.server, folder);
        const server = choice.server;
        if (debug && server) {
          if (!debugged.has(server.id)) debugged.set(server.id, this.underDebugger(server, run, abort.signal));
          const failed = await debugged.get(server.id);
          if (failed !== undefined) {
            run.errored(item, new vscode.TestMessage(failed));
            continue;
          }
        }
        const { runSavedTest } = await loadRunner();
        const result = await runSavedTest(test, {
          origin: 'the Testing view',
          signal: abort.signal,
          client: async () => {
            if (!server) throw new Error(`${folder.name}: ${choice.problem}`);
            return server.whenReady({ start: true, signal: abort.signal });
          },
          ...(server ? { record: (entry) => this.ctx.history.add(entry), log: (level, text) => this.ctx.deps.log(server.id, level, text) } : {}),
          ...(confirmation ? { confirm: () => confirmation.confirm() } : {}),
          redact: (text) => this.ctx.redact(text),
        });
        if (result.outcome === 'passed') run.passed(item, result.ms);
        else if (result.outcome === 'error') run.errored(item, new vscode.TestMessage(result.error ?? 'the test could not run'), result.ms);
        else {
          const messages = result.failures.map((f) => {
            const message = vscode.TestMessage.diff(f.message, display(f.expected), display(f.actual));
            if (item.uri && item.range) message.location = new vscode.Location(item.uri, item.range);
            return message;
          });
          run.failed(item, messages, result.ms);
        }
      }
    } finally {
      cancel.dispose();
      run.end();
    }
  }

  /** Puts a test's server under the debugger for a Debug run; resolves with why it could not (undefined when it is). */
  private async underDebugger(server: ServerHandle, run: vscode.TestRun, signal: AbortSignal): Promise<string | undefined> {
    try {
      const debugged = await this.ctx.deps.debugServer!(server.id, signal);
      run.appendOutput(`${server.entry.name} runs under the debugger (session "${debugged.session.name}")\r\n`);
      return undefined;
    } catch (error) {
      const message = `${server.entry.name} could not be put under the debugger: ${errorMessage(error)}`;
      run.appendOutput(`${message}\r\n`);
      this.ctx.deps.log(server.id, 'warn', `Debug run: ${message}`);
      return message;
    }
  }

  /** The server a test names: the workspace's (the test file's folder first); the user's own only when the user allows it. */
  private serverFor(name: string, folder: vscode.WorkspaceFolder): TestServerChoice<ServerHandle> {
    return serverForSavedTest(name, folder.uri.fsPath, this.ctx.deps.servers.list(), this.ctx.setting('tests.allowUserServers', false));
  }

  /** Picks a call from the history and appends it, with what it got, to the folder's test file. */
  async saveFromHistory(): Promise<void> {
    const entries = this.ctx.deps.servers
      .list()
      .flatMap((h) => this.ctx.history.list(h.id).map((entry) => ({ entry, server: h })))
      .filter(({ entry }) => entry.arguments !== undefined || entry.kind === 'resource')
      .sort((a, b) => b.entry.time - a.entry.time);
    if (entries.length === 0) {
      void vscode.window.showInformationMessage('MCP Host: the call history is empty. Call a tool, read a resource or get a prompt first.');
      return;
    }
    const picked = await vscode.window.showQuickPick(
      entries.map(({ entry, server }) => ({ label: plainPickText(`${server.entry.name} › ${entry.name}`), description: `${HISTORY_KIND_LABEL[entry.kind]} · ${entry.outcome} · ${new Date(entry.time).toLocaleTimeString()}`, detail: plainPickText(entry.summary), entry, server })),
      { placeHolder: 'Save which call as a test?', matchOnDetail: true },
    );
    if (!picked) return;
    const folder = (picked.server.entry.source.folder && vscode.workspace.getWorkspaceFolder(vscode.Uri.file(picked.server.entry.source.folder.fsPath))) ?? vscode.workspace.workspaceFolders?.[0];
    if (!folder) {
      void vscode.window.showWarningMessage('MCP Host: open a folder to save tests in its .vscode/mcp-tests.json.');
      return;
    }
    const hasOutputSchema = picked.entry.kind === 'tool' && !!picked.server.tools?.find((t) => t.name === picked.entry.name)?.outputSchema;
    const { assertionKinds, testFromHistory } = await loadRunner();
    // What the test checks: the kinds that survive an answer whose values change come picked.
    const kinds = await vscode.window.showQuickPick(
      assertionKinds(picked.entry, hasOutputSchema).map((k) => ({ label: plainPickText(k.label), picked: k.survives, assertion: k.kind })),
      { canPickMany: true, placeHolder: 'What should the test check? (the picked ones hold when only the values change)' },
    );
    if (!kinds) return;
    const test = testFromHistory(picked.entry, picked.server.entry.name, hasOutputSchema, kinds.map((k) => k.assertion));
    // The test as it will be written, before anything is.
    const save = 'Save Test';
    const preview = await vscode.window.showInformationMessage(`Save this test in ${folder.name}/${SAVED_TESTS_FILE}?`, { modal: true, detail: JSON.stringify(test, null, 2) }, save);
    if (preview !== save) return;
    const uri = vscode.Uri.joinPath(folder.uri, SAVED_TESTS_FILE);
    let text = '{\n  "tests": []\n}\n';
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    } catch {
      // a new file
    }
    const count = (findNodeAtLocation(parseTree(text) ?? { type: 'null', offset: 0, length: 0 }, ['tests'])?.children ?? []).length;
    const edits = modify(text, ['tests', count], test, { formattingOptions: { insertSpaces: true, tabSize: 2 }, isArrayInsertion: true });
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(applyEdits(text, edits)));
    await this.discover();
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: true });
  }

  dispose(): void {
    this.tests.clear();
  }
}

/** The run's one question before calls of tools that may change things (a modal, as a hand call's). */
async function confirmTestCalls(calls: readonly PlannedCall[]): Promise<boolean> {
  if (calls.length === 0) return true;
  const shown = calls.slice(0, 12).map((c) => `• ${describePlannedCall(c)}`);
  const more = calls.length > shown.length ? [`…and ${calls.length - shown.length} more`] : [];
  const run = 'Run Them';
  const answer = await vscode.window.showWarningMessage(
    `Run ${calls.length === 1 ? 'a saved test that calls a tool' : `saved tests that call ${calls.length} tools`} that may change things?`,
    { modal: true, detail: `${[...shown, ...more].join('\n')}\n\n${calls[0].reason}\n\nTo stop being asked for such tools, turn off the setting mcpHost.confirmDestructiveTools.` },
    run,
  );
  return answer === run;
}

function display(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2) ?? 'undefined';
}
