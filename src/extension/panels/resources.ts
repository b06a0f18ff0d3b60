// Reading resources: open one as an editor (text with a language, images in the image preview,
// other blobs offered for saving), resource templates through an input flow with completions,
// and subscriptions — an open resource editor is subscribed and refreshed on
// `notifications/resources/updated`, and unsubscribed when its last tab closes; the Subscribe
// toggle keeps a subscription without an editor and tells the user about updates. The state
// (src/usecases/subscriptions.ts) is what the tree's resource rows show.
import * as vscode from 'vscode';
import type { McpClient } from '../../client/client';
import type { ReadResourceResult } from '../../client/schemas';
import { McpLocalError, errorMessage } from '../../protocol/errors';
import { describeFailure, summarizeFailure } from '../../usecases/resultModel';
import { IMAGE_TYPES, normalizeMimeType } from '../../content/mediaTypes';
import { SubscriptionSet, splitSubscriptionKey as splitKey } from '../../usecases/subscriptions';
import { LatestValueThrottle, NoticeCollapser } from '../../usecases/uiThrottle';
import { expandTemplate, parseTemplate, templateVariables } from '../../usecases/uriTemplate';
import { askArguments } from './argumentInput';
import type { UseCaseContext } from './useCaseContext';
import { RESOURCE_SCHEME, contentsBytes, parseResourceEditorUri, resourceEditorUri } from './resourceDocuments';
import { loadViewPanel } from './lazyPanels';

const key = SubscriptionSet.key;
const EDITOR_REFRESH_MS = 500;
/** Updates this close together make one toast. */
const UPDATE_NOTICE_GATHER_MS = 300;

export class ResourceFeatures implements vscode.Disposable {
  /** The toggle, the open editors, and what is subscribed on which client (a restart brings a new client: subscribe again). */
  readonly subscriptionState = new SubscriptionSet<McpClient>();
  private readonly hooked = new WeakSet<McpClient>();
  private readonly disposables: vscode.Disposable[] = [];
  private syncing: Promise<void> = Promise.resolve();
  /** Open editors of a resource read it again at most this often, whatever the server sends. */
  private readonly editorRefresh = new LatestValueThrottle<string, undefined>((k) => this.ctx.files.changed(splitKey(k), this.openEditorUris()), EDITOR_REFRESH_MS);
  private readonly updateNotices = new NoticeCollapser<string>((k, count) => this.showUpdateNotice(k, count), UPDATE_NOTICE_GATHER_MS);

  constructor(private readonly ctx: UseCaseContext) {
    this.disposables.push(
      vscode.window.tabGroups.onDidChangeTabs(() => this.tabsChanged()),
      vscode.workspace.onDidCloseTextDocument(() => this.tabsChanged()),
    );
    if (ctx.deps.onDidChangeServers) this.disposables.push(ctx.deps.onDidChangeServers(() => this.scheduleSync()));
    this.tabsChanged();
  }

  // ---- reading ----

  /** Reads a resource, records it in the history, and shows it the best way for its type. */
  async open(serverId: string, uri: string, hint: { name?: string; mimeType?: string } = {}): Promise<void> {
    const client = await this.ctx.client(serverId);
    this.hook(serverId, client);
    const startedAt = Date.now();
    const started = performance.now();
    let result: ReadResourceResult;
    try {
      result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Reading ${uri}` }, () => client.readResource(uri, { timeoutMs: this.ctx.timeoutMs(serverId) }));
    } catch (error) {
      const failure = describeFailure(error);
      this.ctx.history.add({ serverId, kind: 'resource', name: uri, outcome: McpLocalError.is(error, 'timeout') ? 'timeout' : 'error', summary: summarizeFailure(failure), durationMs: performance.now() - started, time: startedAt });
      throw error;
    }
    const contents = Array.isArray(result.contents) ? result.contents : [];
    const first = (contents.find((c) => c.uri === uri) ?? contents[0]) as { mimeType?: unknown; text?: unknown; blob?: unknown } | undefined;
    const mimeType = normalizeMimeType(first?.mimeType) ?? normalizeMimeType(hint.mimeType);
    const { bytes, isText } = contentsBytes(result, uri);
    this.ctx.history.add({
      serverId,
      kind: 'resource',
      name: uri,
      arguments: {},
      outcome: 'ok',
      summary: `${contents.length} content${contents.length === 1 ? '' : 's'}${mimeType ? `, ${mimeType}` : ''}, ${bytes.byteLength} bytes`,
      durationMs: performance.now() - started,
      time: startedAt,
    });
    if (contents.length === 0) {
      void vscode.window.showInformationMessage(`${uri}: the server returned no contents.`);
      return;
    }
    // Several contents (a directory-like resource): show them together.
    if (contents.length > 1) {
      (await loadViewPanel()).show(this.ctx, `resource:${serverId}:${uri}`, hint.name ?? uri, `Resource of ${this.ctx.serverName(serverId)}`, serverId, (s, u) => this.open(s, u)).showResource(uri, result);
      return;
    }
    const editorUri = resourceEditorUri(serverId, this.ctx.serverName(serverId), uri, mimeType);
    if (isText) {
      this.ctx.files.prime(editorUri, result, uri);
      const doc = await vscode.workspace.openTextDocument(editorUri);
      await vscode.window.showTextDocument(doc, { preview: false });
    } else if (mimeType && IMAGE_TYPES.has(mimeType)) {
      // A snapshot in a file: the image preview needs a file; updates do not reach it.
      await vscode.commands.executeCommand('vscode.open', await this.ctx.files.writeFile(editorUri.path.split('/').pop() ?? 'image', bytes));
    } else {
      const save = 'Save As…';
      const show = 'Show Details';
      const answer = await vscode.window.showInformationMessage(`${uri} is binary (${mimeType ?? 'no type'}, ${bytes.byteLength} bytes).`, save, show);
      if (answer === save) {
        const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
        const name = editorUri.path.split('/').pop() ?? 'resource.bin';
        const target = await vscode.window.showSaveDialog({ defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined, title: `Save ${uri}` });
        if (target) await vscode.workspace.fs.writeFile(target, bytes);
      } else if (answer === show) {
        (await loadViewPanel()).show(this.ctx, `resource:${serverId}:${uri}`, hint.name ?? uri, `Resource of ${this.ctx.serverName(serverId)}`, serverId, (s, u) => this.open(s, u)).showResource(uri, result);
      }
    }
    this.scheduleSync();
  }

  /** Asks for the template's variables (with completions), expands it and reads the resource. */
  async readTemplate(serverId: string, uriTemplate: string, name?: string): Promise<void> {
    const client = await this.ctx.client(serverId);
    const parsed = parseTemplate(uriTemplate);
    if (parsed.errors.length) throw new Error(`The template ${uriTemplate} is not a valid URI template: ${parsed.errors.join('; ')}`);
    const template = this.ctx.server(serverId)?.templates?.find((t) => t.uriTemplate === uriTemplate);
    const vars = templateVariables(uriTemplate);
    const values = await askArguments({
      title: `${name ?? template?.name ?? uriTemplate}`,
      args: vars.map((v) => ({ name: v, required: true, description: uriTemplate })),
      client,
      ref: { type: 'ref/resource', uri: uriTemplate },
      log: (text) => this.ctx.deps.log(serverId, 'debug', text),
    });
    if (!values) return;
    const uri = expandTemplate(uriTemplate, values);
    await this.open(serverId, uri, { name: template?.name, mimeType: template?.mimeType });
  }

  // ---- subscriptions ----

  isSubscribed(serverId: string, uri: string): boolean {
    return this.subscriptionState.isExplicit(serverId, uri);
  }

  /** The Subscribe toggle of a resource row. */
  async toggleSubscription(serverId: string, uri: string): Promise<boolean> {
    return this.setSubscribed(serverId, uri, !this.isSubscribed(serverId, uri));
  }

  /** Subscribe / Unsubscribe of a resource row; returns whether it is subscribed now. */
  async setSubscribed(serverId: string, uri: string, on: boolean): Promise<boolean> {
    const client = await this.ctx.client(serverId);
    if (!client.serverCapabilities?.resources?.subscribe) {
      throw new McpLocalError('capability', `${this.ctx.serverName(serverId)} does not support resource subscriptions (resources.subscribe)`);
    }
    this.subscriptionState.setExplicit(serverId, uri, on);
    await this.runSync();
    const state = this.subscriptionState.state(serverId, uri);
    if (on && state?.error !== undefined) throw new Error(`resources/subscribe ${uri} failed: ${state.error}`);
    const kept = !on && state?.open ? ' (an editor still shows it: it stays subscribed until that closes)' : '';
    void vscode.window.setStatusBarMessage(on ? `Subscribed to ${uri}` : `Unsubscribed from ${uri}${kept}`, 4000);
    return on;
  }

  private tabsChanged(): void {
    const now = new Set<string>();
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        const input = tab.input;
        const uri = input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom ? input.uri : undefined;
        if (!uri || uri.scheme !== RESOURCE_SCHEME) continue;
        const address = parseResourceEditorUri(uri);
        if (address) now.add(key(address.serverId, address.uri));
      }
    }
    if (this.subscriptionState.setOpen(now)) this.scheduleSync();
  }

  private scheduleSync(): void {
    void this.runSync();
  }

  /** Queues a sync after the one running (syncs never overlap), resolving when it is done. */
  private runSync(): Promise<void> {
    this.syncing = this.syncing.then(() => this.sync()).catch(() => undefined);
    return this.syncing;
  }

  /** Subscribes what is wanted and not yet subscribed on the current client; unsubscribes the rest. */
  private async sync(): Promise<void> {
    const state = this.subscriptionState;
    const wanted = state.wanted();
    for (const k of wanted) {
      const { serverId, uri } = splitKey(k);
      const client = this.ctx.runningClient(serverId);
      if (!client || client.state.kind !== 'ready' || !client.serverCapabilities?.resources?.subscribe) {
        state.markInactive(k);
        continue;
      }
      this.hook(serverId, client);
      if (state.activeOn(k) === client) continue;
      try {
        await client.subscribeResource(uri, { timeoutMs: this.ctx.timeoutMs(serverId) });
        state.markActive(k, client);
        this.ctx.deps.log(serverId, 'info', `Subscribed to ${uri}.`);
      } catch (error) {
        const message = errorMessage(error);
        state.markInactive(k, message);
        this.ctx.deps.log(serverId, 'warn', `resources/subscribe ${uri} failed: ${message}`);
      }
    }
    for (const [k, client] of state.activeEntries()) {
      if (state.wanted().has(k)) continue;
      state.markInactive(k);
      const { serverId, uri } = splitKey(k);
      if (client.state.kind !== 'ready') continue;
      try {
        await client.unsubscribeResource(uri, { timeoutMs: this.ctx.timeoutMs(serverId) });
        this.ctx.deps.log(serverId, 'info', `Unsubscribed from ${uri}.`);
      } catch (error) {
        this.ctx.deps.log(serverId, 'warn', `resources/unsubscribe ${uri} failed: ${errorMessage(error)}`);
      }
    }
  }

  /** Listens for updates from a client once. */
  private hook(serverId: string, client: McpClient): void {
    if (this.hooked.has(client)) return;
    this.hooked.add(client);
    const sub = client.onResourceUpdated((uri) => this.updated(serverId, uri));
    const closed = client.onClose(() => sub.dispose());
    this.disposables.push({ dispose: () => (sub.dispose(), closed.dispose()) });
  }

  private updated(serverId: string, uri: string): void {
    this.ctx.deps.log(serverId, 'debug', `Resource updated: ${uri}`);
    const k = key(serverId, uri);
    this.editorRefresh.push(k, undefined);
    const sub = this.subscriptionState.state(serverId, uri);
    if (sub?.explicit && !sub.open) this.updateNotices.add(k);
  }

  /** One toast per resource, however many updates it stands for; the next only after it closes. */
  private showUpdateNotice(k: string, count: number): Thenable<unknown> {
    const { serverId, uri } = splitKey(k);
    const times = count > 1 ? ` (${count.toLocaleString('en-US')} times)` : '';
    return vscode.window.showInformationMessage(`${this.ctx.serverName(serverId)}: ${uri} was updated${times}.`, 'Open').then((a) => {
      if (a === 'Open') void this.open(serverId, uri).catch((e: unknown) => void vscode.window.showErrorMessage(errorMessage(e)));
    });
  }

  private openEditorUris(): vscode.Uri[] {
    const out: vscode.Uri[] = [];
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        const input = tab.input;
        if ((input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom) && input.uri.scheme === RESOURCE_SCHEME) out.push(input.uri);
      }
    }
    for (const doc of vscode.workspace.textDocuments) if (doc.uri.scheme === RESOURCE_SCHEME && !out.some((u) => u.toString() === doc.uri.toString())) out.push(doc.uri);
    return out;
  }

  /** Subscriptions right now, for tests and the details view. */
  subscriptions(): Array<{ serverId: string; uri: string; explicit: boolean; open: boolean; active: boolean }> {
    return this.subscriptionState.all().map(({ serverId, uri, explicit, open, active }) => ({ serverId, uri, explicit, open, active }));
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.editorRefresh.dispose();
    this.updateNotices.dispose();
    this.subscriptionState.dispose();
  }
}
