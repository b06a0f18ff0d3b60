// "Call Tool": one webview panel per server and tool, with the form built from the tool's
// inputSchema (JSON one click away), the call with progress and cancellation, the result, and
// the tool's call history (each entry's result can be shown again, or the call re-run). Every
// message from the webview is parsed with zod first.
import * as vscode from 'vscode';
import type { Progress } from '../../client/client';
import type { CallToolResult, Tool } from '../../client/schemas';
import { errorMessage } from '../../protocol/errors';
import { FieldError, FieldModel, buildFormModel, fallbacks } from '../../forms/model';
import { fromValue, initialState, toArguments } from '../../forms/state';
import type { Json } from '../../schema/json';
import { callTool, readToolArguments } from '../../usecases/callTool';
import { looksLikeMarkdown, plainTextHtml, renderMarkdown } from '../../content/markdown';
import { LatestValueThrottle, PROGRESS_INTERVAL_MS } from '../../usecases/uiThrottle';
import { describeTimeoutSource } from '../../usecases/timeouts';
import { toolResultDisplay } from '../../usecases/resultModel';
import { FromHistory, HistoryItem, Input, OutboundMessage, historyItem } from '../../usecases/panelMessages';
import type { UseCaseContext } from './useCaseContext';
import { OpenResource, PanelMessage, ResultStore, receivePanelMessage } from './rawResults';
import { WebviewOutbox, webviewHtml, webviewOptions } from '../webview/webviewPanel';
import { PANEL_ASSETS } from '../webview/webviewPage';
import { truncate } from '../../protocol/text';
import { focusAfterDialogs, onDidChangeOpenDialogs, openDialogCount } from '../webview/openDialogs';
import { PANEL_VIEW_TYPES, PreviewTab, openAsPreview, rememberForRestore } from './panelTabs';
import { ToolPanelApp } from '../apps/toolPanelApp';
import type { PageCspAdditions } from '../../apps/appCsp';
import { summarizeFailure } from '../../usecases/resultModel';
import type { TaskEntry } from '../../usecases/taskStore';
import { isTerminal, toolTaskResult } from '../../client/tasks';
import { describeFailure } from '../../usecases/resultModel';
import { TOOL_PANEL_ORIGIN } from './tasks';
import { revealInvisible } from '../../content/invisibleText';

export const TOOL_PANEL_VIEW_TYPE = PANEL_VIEW_TYPES.tool;

// Why a call was cancelled, as the result and the log say it ("tools/call was cancelled: you pressed Cancel in the panel").
const CANCELLED_IN_PANEL = 'you pressed Cancel in the panel';
const CANCELLED_IN_NOTIFICATION = 'you pressed Cancel in the notification';
const PANEL_CLOSED = 'the panel was closed';
const CANCELLED_TASK_IN_PANEL = 'you pressed Cancel in the panel that follows the task';

export class ToolPanel implements vscode.Disposable {
  private static readonly panels = new Map<string, ToolPanel>();

  /** Opens (or reveals) the panel of a tool; a new one opens as a preview tab (panelTabs.ts). */
  static show(ctx: UseCaseContext, serverId: string, toolName: string, openResource: OpenResource): ToolPanel {
    const existing = ToolPanel.panels.get(ToolPanel.key(serverId, toolName));
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    const panel = ToolPanel.track(new ToolPanel(ctx, serverId, toolName, openResource));
    panel.tab = openAsPreview(panel.panel, TOOL_PANEL_VIEW_TYPE);
    return panel;
  }

  /**
   * Shows a task (the tree's row, the completion notice): its tool's panel follows its status
   * while it runs, then shows its result. A task of no known tool (only listed by its server)
   * shows its result as a read-only document once it has one.
   */
  static showTask(ctx: UseCaseContext, task: TaskEntry, openResource: OpenResource): void {
    if (task.toolName === undefined) {
      void ToolPanel.showUnnamedTask(ctx, task);
      return;
    }
    const panel = ToolPanel.show(ctx, task.serverId, task.toolName, openResource);
    panel.follow(task.taskId);
  }

  private static async showUnnamedTask(ctx: UseCaseContext, task: TaskEntry): Promise<void> {
    const client = ctx.runningClient(task.serverId);
    if (task.status !== 'completed' || !client) {
      void vscode.window.showInformationMessage(`MCP Host: task ${task.taskId} of ${ctx.serverName(task.serverId)} is ${task.status}${task.statusMessage ? `: ${task.statusMessage}` : ''}.`);
      return;
    }
    const result = await toolTaskResult(client, task.taskId, { timeoutMs: ctx.timeoutMs(task.serverId) });
    await ctx.documents.open(`task-${task.taskId.slice(0, 8)}-result.json`, JSON.stringify(result, null, 2), { language: 'json' });
  }

  /** Builds the panel of a tool again in a panel VS Code restored after a reload. */
  static restore(ctx: UseCaseContext, restored: vscode.WebviewPanel, serverId: string, toolName: string, openResource: OpenResource): void {
    if (ToolPanel.panels.has(ToolPanel.key(serverId, toolName))) restored.dispose();
    else ToolPanel.track(new ToolPanel(ctx, serverId, toolName, openResource, restored));
  }

  private static key(serverId: string, toolName: string): string {
    return `${serverId}\n${toolName}`;
  }

  private static track(panel: ToolPanel): ToolPanel {
    const key = ToolPanel.key(panel.serverId, panel.toolName);
    ToolPanel.panels.set(key, panel);
    panel.panel.onDidDispose(() => ToolPanel.panels.delete(key));
    return panel;
  }

  /** Every open tool panel (for tests and for refreshing on server changes). */
  static all(): readonly ToolPanel[] {
    return [...ToolPanel.panels.values()];
  }

  static disposeAll(): void {
    for (const p of [...ToolPanel.panels.values()]) p.dispose();
  }

  readonly panel: vscode.WebviewPanel;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly results = new ResultStore();
  private model: FieldModel;
  private schemaKey: string;
  private input: Input;
  private tool: Tool;
  private running: { callId: string; abort: AbortController } | undefined;
  /** The task the panel shows: its own call's (`own`), or one it follows (opened from the tree). */
  private task: { readonly taskId: string; readonly own: boolean; readonly callId: string; readonly shown: vscode.Disposable } | undefined;
  /** The last serverState posted since the page was (re)built. */
  private lastServerState: string | undefined;
  private readonly outbox: WebviewOutbox<OutboundMessage>;
  private readonly skipConfirm = new Set<string>();
  /** Its place as a preview tab (none when restored after a reload: kept). */
  private tab: PreviewTab | undefined;
  /** The server has not listed the tool since the panel opened (a panel restored after a reload). */
  private awaitingTool: boolean;
  /** The user has typed in the form. */
  private edited = false;
  /** The MCP App view of a tool that names one (apps/toolPanelApp.ts). */
  private readonly app: ToolPanelApp;
  /** What the page's policy admits for the app it holds (none until a view is shown). */
  private appCsp: PageCspAdditions | undefined;
  /** Resolves when the rebuilt page says `ready`. */
  private pageReady: (() => void) | undefined;
  private disposed = false;

  private constructor(
    private readonly ctx: UseCaseContext,
    readonly serverId: string,
    readonly toolName: string,
    private readonly openResource: OpenResource,
    restored?: vscode.WebviewPanel,
  ) {
    const listed = this.lookupTool();
    // Restored after a reload, a panel may come before its server lists its tools: the form follows once it does.
    this.awaitingTool = listed === undefined;
    this.tool = listed ?? { name: toolName, inputSchema: { type: 'object' } };
    this.model = buildFormModel(this.tool.inputSchema);
    this.schemaKey = JSON.stringify(this.tool.inputSchema);
    this.input = { mode: 'form', state: initialState(this.model) };
    this.panel = restored ?? vscode.window.createWebviewPanel(TOOL_PANEL_VIEW_TYPE, this.title(), vscode.ViewColumn.Active, webviewOptions(ctx.extensionUri));
    if (restored) restored.webview.options = webviewOptions(ctx.extensionUri);
    this.panel.webview.html = webviewHtml(this.panel.webview, ctx.extensionUri, this.title(), PANEL_ASSETS);
    this.outbox = new WebviewOutbox(this.panel.webview);
    this.app = new ToolPanelApp(ctx, serverId, {
      post: (m) => this.outbox.post(m as unknown as OutboundMessage),
      currentCsp: () => this.appCsp,
      rebuild: (csp) => this.rebuildPage(csp),
      notice: (level, text) => this.post({ type: 'notice', level, text }),
    });
    this.disposables.push(
      this.panel.webview.onDidReceiveMessage((m: unknown) => void this.receive(m)),
      this.panel.onDidDispose(() => this.dispose()),
      this.panel.onDidChangeViewState((e) => e.webviewPanel.active && focusAfterDialogs.panelActivated() && this.post({ type: 'focusBack' })),
    );
    const historySub = ctx.history.onDidChange((id) => {
      if (id === serverId) this.post({ type: 'history', entries: this.historyItems() });
    });
    this.disposables.push({ dispose: () => historySub.dispose() });
    if (ctx.deps.onDidChangeServers) this.disposables.push(ctx.deps.onDidChangeServers(() => this.serverChanged()));
    this.disposables.push(ctx.icons.onDidChange(() => this.showIcon()));
  }

  /** The tool's own icon in the header, for the current theme (after the header is drawn). */
  private showIcon(): void {
    void this.ctx.icons.pageIcon(this.ctx.server(this.serverId), this.tool).then((src) => src && this.post({ type: 'headerIcon', src }));
  }

  private title(): string {
    return `${this.tool?.title ?? this.toolName} — ${this.ctx.serverName(this.serverId)}`;
  }

  private lookupTool(): Tool | undefined {
    return this.ctx.server(this.serverId)?.tools?.find((t) => t.name === this.toolName);
  }

  private post(message: OutboundMessage): void {
    // A task's call outlives a closed panel: what it would show goes nowhere.
    if (this.disposed) return;
    this.outbox.post(message);
  }

  private init(): void {
    const tool = this.tool;
    const description = tool.description === undefined ? undefined : revealInvisible(tool.description);
    this.post({
      type: 'initTool',
      header: {
        serverName: this.ctx.serverName(this.serverId),
        name: tool.name,
        ...(tool.title !== undefined ? { title: tool.title } : {}),
        ...(description !== undefined ? { description, descriptionHtml: looksLikeMarkdown(description) ? renderMarkdown(description) : plainTextHtml(description) } : {}),
        ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
        hasOutputSchema: tool.outputSchema !== undefined,
        fallbacks: fallbacks(this.model),
      },
      model: this.model,
      input: this.input,
      ...this.timeoutFields(),
      history: this.historyItems(),
    });
    this.lastServerState = undefined;
    this.serverChanged();
    this.showIcon();
  }

  /** The server restarted, stopped, or its tool list changed. */
  private serverChanged(): void {
    const client = this.ctx.runningClient(this.serverId);
    const running = client?.state.kind === 'ready';
    const fresh = this.lookupTool();
    if (fresh && JSON.stringify(fresh.inputSchema) !== this.schemaKey) {
      // The schema changed: rebuild the form, keeping what still fits.
      const previous = this.currentValue();
      this.tool = fresh;
      this.model = buildFormModel(fresh.inputSchema);
      this.schemaKey = JSON.stringify(fresh.inputSchema);
      const carried = fromValue(this.model, previous ?? {});
      this.input = carried.exact ? { mode: 'form', state: carried.state } : { mode: 'json', text: JSON.stringify(previous ?? {}, null, 2) };
      this.panel.title = this.title();
      if (this.outbox.isReady) this.init();
      // Said only when the user had typed something: a form nobody touched (one restored after a reload) just follows the server.
      if (!this.awaitingTool && this.edited) this.post({ type: 'notice', level: 'info', text: 'The tool’s input schema changed on the server; the form was rebuilt.' });
      this.awaitingTool = false;
      return;
    }
    if (fresh && this.awaitingTool) {
      this.awaitingTool = false;
      this.tool = fresh;
      this.panel.title = this.title();
      if (this.outbox.isReady) this.init();
      return;
    }
    if (fresh) this.tool = fresh;
    const state: OutboundMessage = {
      type: 'serverState',
      running: running && fresh !== undefined,
      ...this.timeoutFields(),
      ...(running ? (fresh ? {} : { text: `The server no longer lists the tool ${this.toolName}.` }) : { text: `${this.ctx.serverName(this.serverId)} is not running — start it to call this tool.` }),
    };
    // A restart passes through several states that all read "not running": say it once.
    const key = JSON.stringify(state);
    if (key === this.lastServerState) return;
    this.lastServerState = key;
    this.post(state);
  }

  private currentValue(): Json | undefined {
    if (this.input.mode === 'form') return toArguments(this.model, this.input.state).value;
    try {
      return JSON.parse(this.input.text) as Json;
    } catch {
      return undefined;
    }
  }

  /** The timeout the field starts with when the user has not set one, and where it comes from. */
  private timeoutFields(): { timeoutSeconds: number; timeoutNote: string } {
    const t = this.ctx.timeout(this.serverId);
    return { timeoutSeconds: t.seconds, timeoutNote: describeTimeoutSource(t.source) };
  }

  private historyItems(): HistoryItem[] {
    return this.ctx.history.list(this.serverId, { kind: 'tool', name: this.toolName }).map((e) => historyItem(e, TOOL_PANEL_ORIGIN));
  }

  // ---- messages ----

  /** Builds the page again so its policy admits an app's view (appCsp.ts); resolves when it is ready. */
  private rebuildPage(csp: PageCspAdditions): Promise<void> {
    this.appCsp = csp;
    this.outbox.reset();
    const ready = new Promise<void>((resolve) => (this.pageReady = resolve));
    this.panel.webview.html = webviewHtml(this.panel.webview, this.ctx.extensionUri, this.title(), PANEL_ASSETS, { csp });
    return ready;
  }

  private receive(raw: unknown): Promise<void> {
    if (ToolPanelApp.accepts(raw)) return Promise.resolve(this.app.receive(raw));
    const panel = { ctx: this.ctx, results: this.results, serverId: this.serverId, openResource: this.openResource, description: 'the tool panel', post: (m: OutboundMessage) => this.post(m) };
    return receivePanelMessage(panel, raw, (m) => this.handle(m));
  }

  /** The panel's own messages (results and malformed ones are handled by `receivePanelMessage`). */
  private async handle(m: PanelMessage): Promise<void> {
    switch (m.type) {
      case 'ready':
        this.outbox.open(() => this.init());
        this.pageReady?.();
        this.pageReady = undefined;
        rememberForRestore(this.panel, { kind: 'tool', serverId: this.serverId, name: this.toolName });
        return;
      case 'edited':
        // Typed in: no longer a preview the next click may replace.
        this.edited = true;
        this.tab?.keep();
        return;
      case 'validate': {
        this.input = m.input;
        const checked = this.check(m.input);
        this.post({ type: 'validation', errors: checked.errors, ...(checked.errors.length === 0 ? { preview: JSON.stringify(checked.value, null, 2) } : {}) });
        return;
      }
      case 'switchMode':
        this.switchMode(m.input);
        return;
      case 'run':
        this.input = m.input;
        this.tab?.keep();
        await this.run(m.input, m.timeoutSeconds);
        return;
      case 'cancel':
        if (this.running) this.running.abort.abort(CANCELLED_IN_PANEL);
        else if (this.task) void this.ctx.tasks.cancel(this.serverId, this.task.taskId, CANCELLED_TASK_IN_PANEL);
        return;
      case 'loadHistory':
      case 'rerun': {
        const rerun = this.ctx.history.rerun(m.historyId);
        if (!rerun || rerun.serverId !== this.serverId || rerun.name !== this.toolName) return;
        this.tab?.keep();
        this.putInForm(rerun.arguments);
        if (m.type === 'rerun') await this.run(this.input, undefined);
        return;
      }
      case 'showHistory':
        this.showHistory(m.historyId);
        return;
      case 'complete':
        // Tools have no completions (only prompts and resource templates do).
        return;
      case 'clearHistory': {
        // Only this tool's entries: the rest of the server's history stays.
        this.ctx.history.clear(this.serverId, { kind: 'tool', name: this.toolName });
        return;
      }
      default: {
        const never: never = m;
        return never;
      }
    }
  }

  /** Opens the panel of a history entry's tool and shows the entry (the timeline's "Show in History"). */
  static showHistoryEntry(ctx: UseCaseContext, historyId: string, openResource: OpenResource): boolean {
    const entry = ctx.history.get(historyId);
    if (!entry || entry.kind !== 'tool') return false;
    const panel = ToolPanel.show(ctx, entry.serverId, entry.name, openResource);
    panel.tab?.keep();
    panel.showHistory(historyId);
    return true;
  }

  /** Shows a history entry's kept result (or failure) as a fresh one is shown, marked as from the history. */
  private showHistory(historyId: string): void {
    const entry = this.ctx.history.get(historyId);
    if (!entry || entry.serverId !== this.serverId || entry.kind !== 'tool' || entry.name !== this.toolName) return;
    const fromHistory: FromHistory = {
      time: entry.time,
      ...(entry.arguments !== undefined ? { arguments: truncate(JSON.stringify(entry.arguments, null, 2), 2000) } : {}),
      cut: entry.resultCut === true,
    };
    if (entry.result !== undefined && typeof entry.result === 'object' && entry.result !== null) {
      const result = entry.result as CallToolResult;
      const callId = this.results.add({ kind: 'tool', serverId: this.serverId, name: this.toolName, result });
      const display = toolResultDisplay(result, (this.lookupTool() ?? this.tool).outputSchema, this.ctx.validator);
      this.post({ type: 'toolResult', callId, display, durationMs: entry.durationMs, fromHistory });
      return;
    }
    if (entry.failure) {
      this.post({ type: 'failure', callId: 'history', failure: entry.failure, durationMs: entry.durationMs, fromHistory });
      return;
    }
    this.post({ type: 'notice', level: 'info', text: entry.resultOmitted ? 'The result of that call was too large to keep in the history.' : 'That call’s result was not kept.' });
  }

  /** Puts a call's arguments in the form (as JSON when they do not fit it). */
  private putInForm(args: Record<string, unknown>): void {
    const fit = fromValue(this.model, args);
    this.input = fit.exact ? { mode: 'form', state: fit.state } : { mode: 'json', text: JSON.stringify(args, null, 2) };
    this.post({ type: 'setInput', input: this.input, ...(fit.exact ? {} : { note: 'These arguments do not fit the form; they are shown as JSON.' }) });
  }

  /** Reads and checks the input against the tool's inputSchema (the use case's own check). */
  check(input: Input): { value: Record<string, unknown>; errors: FieldError[] } {
    return readToolArguments(this.model, input, this.ctx.validator);
  }

  private switchMode(input: Input): void {
    if (input.mode === 'form') {
      const value = toArguments(this.model, input.state).value ?? {};
      this.input = { mode: 'json', text: JSON.stringify(value, null, 2) };
      this.post({ type: 'setInput', input: this.input });
      return;
    }
    let value: unknown;
    try {
      value = input.text.trim() === '' ? {} : JSON.parse(input.text);
    } catch (e) {
      this.post({ type: 'notice', level: 'warning', text: `Fix the JSON first: ${errorMessage(e)}` });
      return;
    }
    const fit = fromValue(this.model, value);
    if (!fit.exact) {
      this.post({ type: 'notice', level: 'warning', text: 'These arguments have values the form cannot show (unknown keys or values of another type); keep editing them as JSON.' });
      return;
    }
    this.input = { mode: 'form', state: fit.state };
    this.post({ type: 'setInput', input: this.input });
  }

  // ---- the call ----

  /** Runs the tool-call use case (inspect/callTool.ts); the panel shows each step. */
  private async run(input: Input, timeoutSeconds: number | undefined): Promise<void> {
    if (this.running) return;
    const abort = new AbortController();
    // Claimed before the first await: a second Run while confirming is ignored.
    this.running = { callId: '', abort };
    const tool = this.lookupTool() ?? this.tool;
    const serverName = this.ctx.serverName(this.serverId);
    const timeout = this.ctx.timeout(this.serverId, timeoutSeconds);
    let callId = '';
    let progressShown: LatestValueThrottle<string, Progress> | undefined;
    let notification: ProgressNotification | undefined;
    const endAttempt = () => {
      // The last progress is shown before the outcome.
      progressShown?.flush(callId);
      progressShown?.dispose();
      notification?.dispose();
    };
    try {
      // A tool with an MCP App: its view is read and shown first, then told the call's input and end.
      const view = await this.app.prepare(tool);
      const outcome = await callTool(
        { serverId: this.serverId, tool, model: this.model, arguments: input, timeout: { seconds: timeout.seconds, note: describeTimeoutSource(timeout.source) }, origin: TOOL_PANEL_ORIGIN, signal: abort.signal },
        {
          client: () => this.ctx.client(this.serverId),
          validator: this.ctx.validator,
          redact: (text) => this.ctx.redact(text),
          confirm: (t, why, value) => this.confirm(t, why, value),
          onStart: (attempt) => {
            // Running a tool by hand approves its definition as shown: @mcp pins it if not pinned yet.
            this.ctx.toolApproved(this.serverId, tool);
            this.stopShowingTask();
            callId = this.results.add({ kind: 'tool', serverId: this.serverId, name: tool.name, result: { content: [] } });
            this.running = { callId, abort };
            this.post({ type: 'running', callId, startedAt: attempt.startedAt, arguments: JSON.stringify(attempt.arguments, null, 2) });
            view?.toolInput(attempt.arguments);
            // The notification (with its Cancel button) appears when the call takes longer than a moment.
            notification = new ProgressNotification(`${tool.name} (${serverName})`, abort);
            // A server may send progress far faster than anyone can read it: the panel and the
            // notification get the newest value at most every PROGRESS_INTERVAL_MS.
            progressShown = new LatestValueThrottle<string, Progress>((id, p) => {
              this.post({ type: 'progress', callId: id, progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message !== undefined ? { message: p.message } : {}) });
              notification?.report(p);
            }, PROGRESS_INTERVAL_MS);
          },
          onProgress: (p) => progressShown?.push(callId, p),
          onTimeoutPaused: (paused) => this.post({ type: 'timeoutPaused', callId, paused }),
          // A modern server asks for input by answering "input required": the panel says the call waits on it.
          onInputRound: (r) => this.post({ type: 'waitingForInput', callId, waiting: r.waiting, round: r.round, requests: Object.values(r.requests), ...(r.taskId ? { taskId: r.taskId } : {}) }),
          // The call runs as a task: the panel shows it from the task store (the tree shows the same).
          tasks: this.ctx.tasks,
          onTaskStatus: (u) => {
            // Once the panel is closed the task goes on unwatched (its end is then told in a notice).
            if (!this.disposed && this.task?.taskId !== u.task.taskId) this.showTask(u.task.taskId, true, callId);
          },
          onEnd: (end) => {
            endAttempt();
            const task = this.task?.own ? this.taskNote() : undefined;
            this.stopShowingTask();
            if (end.kind === 'failed') {
              this.post({ type: 'failure', callId, failure: end.failure, durationMs: end.durationMs, ...(task ? { task } : {}) });
              view?.toolCancelled(summarizeFailure(end.failure));
              return;
            }
            view?.toolResult(end.result);
            this.results.replace(callId, { kind: 'tool', serverId: this.serverId, name: tool.name, result: end.result });
            if (end.display) this.post({ type: 'toolResult', callId, display: end.display, durationMs: end.durationMs, ...(task ? { task } : {}) });
          },
          record: (entry) => this.ctx.history.add(entry),
          log: (level, text) => this.ctx.deps.log(this.serverId, level, text),
          ...(this.ctx.deps.resolveUrlElicitation ? { resolveUrlElicitation: (error) => this.ctx.deps.resolveUrlElicitation!(error, this.serverId) } : {}),
        },
      );
      if (outcome.kind === 'invalid') this.post({ type: 'validation', errors: [...outcome.errors] });
      else if (outcome.kind === 'unavailable') this.post({ type: 'failure', callId: 'none', failure: outcome.failure, durationMs: 0 });
    } finally {
      endAttempt();
      this.running = undefined;
    }
  }

  /** Asks before a call of a tool that may change things, unless the user said not to for this tool. */
  private async confirm(tool: Tool, why: string, value: Record<string, unknown>): Promise<boolean> {
    if (!this.ctx.setting('confirmDestructiveTools', true) || this.skipConfirm.has(tool.name)) return true;
    const run = 'Run';
    const always = 'Run, and don’t ask again for this tool';
    const answer = await vscode.window.showWarningMessage(
      `Run ${tool.name} on ${this.ctx.serverName(this.serverId)}?`,
      { modal: true, detail: `${why}\n\nArguments:\n${truncate(JSON.stringify(value, null, 2), 600)}\n\nTo stop being asked for such tools, turn off the setting mcpHost.confirmDestructiveTools.` },
      run,
      always,
    );
    if (answer === undefined) return false;
    if (answer === always) this.skipConfirm.add(tool.name);
    return true;
  }

  // ---- tasks ----

  /** Follows a task opened from the tree or a notice: its status while it runs, then its result. */
  private follow(taskId: string): void {
    if (this.task?.taskId === taskId) return;
    const entry = this.ctx.tasks.get(this.serverId, taskId);
    if (!entry) return;
    if (this.running) {
      this.post({ type: 'notice', level: 'info', text: `A call of ${this.toolName} is running in this panel; task ${taskId} is shown in the MCP Host view.` });
      return;
    }
    // The form shows what the task's call sent (Open Result of a task started in a closed panel).
    if (entry.arguments) this.putInForm(entry.arguments);
    const callId = this.results.add({ kind: 'tool', serverId: this.serverId, name: this.toolName, result: { content: [] } });
    this.post({ type: 'running', callId, startedAt: entry.createdAt, arguments: entry.arguments ? JSON.stringify(entry.arguments, null, 2) : '' });
    this.showTask(taskId, false, callId);
  }

  /**
   * Shows a task's state in the status area as the store reports it (at most every
   * PROGRESS_INTERVAL_MS), and marks it watched so its end needs no notice while the panel is open.
   * A followed task's end shows its result here.
   */
  private showTask(taskId: string, own: boolean, callId: string): void {
    this.stopShowingTask();
    if (this.disposed) return;
    const watch = this.ctx.tasks.watch(this.serverId, taskId);
    const throttle = new LatestValueThrottle<string, TaskEntry>((_id, entry) => this.postTaskState(entry, callId, own), PROGRESS_INTERVAL_MS);
    let ended = false;
    const changes = this.ctx.tasks.onDidChange((serverId) => {
      const entry = serverId === this.serverId ? this.ctx.tasks.get(this.serverId, taskId) : undefined;
      if (!entry || ended) return;
      throttle.push(taskId, entry);
      if (!own && isEnded(entry)) {
        ended = true;
        throttle.flush(taskId);
        void this.showFollowedEnd(entry, callId);
      }
    });
    this.task = { taskId, own, callId, shown: vscode.Disposable.from(watch, { dispose: () => (changes.dispose(), throttle.dispose()) }) };
    const entry = this.ctx.tasks.get(this.serverId, taskId);
    if (!entry) return;
    this.postTaskState(entry, callId, own);
    if (!own && isEnded(entry)) {
      ended = true;
      void this.showFollowedEnd(entry, callId);
    }
  }

  private postTaskState(entry: TaskEntry, callId: string, own: boolean): void {
    const running = !isEnded(entry);
    this.post({
      type: 'taskStatus',
      callId,
      task: {
        taskId: entry.taskId,
        status: entry.status,
        ...(entry.statusMessage !== undefined ? { statusMessage: entry.statusMessage } : {}),
        ...(entry.progress ? { progress: entry.progress.progress, ...(entry.progress.total !== undefined ? { total: entry.progress.total } : {}) } : {}),
        canCancel: running && (own || entry.followed || entry.origin === 'tasks/list'),
        followed: !own,
      },
    });
  }

  /** A followed task ended: its outcome as this window saw it, else tasks/result for a completed one. */
  private async showFollowedEnd(entry: TaskEntry, callId: string): Promise<void> {
    const task = { id: entry.taskId, status: entry.status };
    const durationMs = (entry.endedAt ?? Date.now()) - entry.createdAt;
    const tool = this.lookupTool() ?? this.tool;
    const show = (result: CallToolResult) => {
      this.results.replace(callId, { kind: 'tool', serverId: this.serverId, name: this.toolName, result });
      this.post({ type: 'toolResult', callId, display: toolResultDisplay(result, tool.outputSchema, this.ctx.validator), durationMs, task });
    };
    try {
      if (entry.outcome?.kind === 'answered') show(entry.outcome.result);
      else if (entry.outcome?.kind === 'failed') this.post({ type: 'failure', callId, failure: entry.outcome.failure, durationMs, task });
      else if (entry.status === 'completed') show(await toolTaskResult(await this.ctx.client(this.serverId), entry.taskId, { timeoutMs: this.ctx.timeoutMs(this.serverId) }));
      else this.post({ type: 'failure', callId, failure: { kind: 'other', message: `The task ${entry.status === 'cancelled' ? 'was cancelled' : 'failed'}${entry.statusMessage ? `: ${entry.statusMessage}` : ''}.` }, durationMs, task });
    } catch (error) {
      this.post({ type: 'failure', callId, failure: describeFailure(error), durationMs, task });
    } finally {
      if (this.task?.callId === callId) this.stopShowingTask();
    }
  }

  /** The task of the panel's own call as the result header names it. */
  private taskNote(): { id: string; status: string } | undefined {
    const entry = this.task && this.ctx.tasks.get(this.serverId, this.task.taskId);
    return entry ? { id: entry.taskId, status: entry.status } : undefined;
  }

  private stopShowingTask(): void {
    this.task?.shown.dispose();
    this.task = undefined;
  }

  /** For tests and commands: whether a call is in flight, and its abort. */
  get isRunning(): boolean {
    return this.running !== undefined;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    // A call that runs as a task goes on without the panel (the tree shows it, a notice tells of its end).
    if (this.running && this.task?.own) this.ctx.deps.log(this.serverId, 'info', `The panel of ${this.toolName} was closed; task ${this.task.taskId} goes on (see the MCP Host view).`);
    else this.running?.abort.abort(PANEL_CLOSED);
    this.stopShowingTask();
    this.app.dispose();
    const disposables = this.disposables.splice(0);
    for (const d of disposables) d.dispose();
    this.panel.dispose();
  }
}


function isEnded(entry: TaskEntry): boolean {
  return isTerminal(entry.status);
}

/**
 * The progress notification of a call (with its Cancel button), shown once the call takes longer
 * than a moment, and hidden while a server's dialog asks the user something (openDialogs.ts); it
 * comes back, with the latest progress, when the dialog closes. It closes when disposed.
 */
class ProgressNotification {
  private due = false;
  private disposed = false;
  private latest: Progress | undefined;
  private shown: { readonly close: () => void; report?: (p: Progress) => void } | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly dialogs: vscode.Disposable;

  constructor(
    private readonly title: string,
    private readonly abort: AbortController,
    delayMs = 400,
  ) {
    this.timer = setTimeout(() => {
      this.due = true;
      this.update();
    }, delayMs);
    this.dialogs = onDidChangeOpenDialogs(() => this.update());
  }

  private update(): void {
    const wanted = this.due && !this.disposed && openDialogCount() === 0;
    if (wanted && !this.shown) this.show();
    else if (!wanted && this.shown) {
      this.shown.close();
      this.shown = undefined;
    }
  }

  private show(): void {
    let close!: () => void;
    const closed = new Promise<void>((resolve) => (close = resolve));
    const shown: { readonly close: () => void; report?: (p: Progress) => void } = { close };
    this.shown = shown;
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: this.title, cancellable: true }, async (progress, token) => {
      token.onCancellationRequested(() => this.abort.abort(CANCELLED_IN_NOTIFICATION));
      let last = 0;
      shown.report = (p) => {
        const pct = p.total && p.total > 0 ? Math.min(100, (p.progress / p.total) * 100) : undefined;
        progress.report({ message: p.message ?? `${p.progress}${p.total ? ` / ${p.total}` : ''}`, ...(pct !== undefined && pct > last ? { increment: pct - last } : {}) });
        if (pct !== undefined) last = Math.max(last, pct);
      };
      if (this.latest) shown.report(this.latest);
      await closed;
    });
  }

  report(p: Progress): void {
    this.latest = p;
    this.shown?.report?.(p);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.disposed = true;
    this.dialogs.dispose();
    this.update();
  }
}
