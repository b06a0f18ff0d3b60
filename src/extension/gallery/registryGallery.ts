// "MCP Host: Browse MCP Registry…" and "MCP Host: Set MCP Registry Token…": the VS Code side of
// the gallery. Decisions live in src/gallery/ (client, rows, install plan, file edit); this file
// only shows quick picks, reads the setting and SecretStorage, and writes the file.
import * as vscode from 'vscode';
import { OFFICIAL_REGISTRY_URL, RegistryClient, RegistryError, safeUrl } from '../../gallery/registryClient';
import { ServerResponse } from '../../gallery/serverJson';
import { GalleryRow, choiceRows, failureRow, serverRow } from '../../gallery/galleryRows';
import { describeEntry, planInstall } from '../../gallery/installPlan';
import { ConfigFileKind, addPlannedEntry } from '../../gallery/configWrite';
import { RegistryGalleryCommands } from '../lazyCommands';
import { checkRegistryUpdates, updateFromRegistry, writeUserSetting } from './registryUpdates';
import { GallerySecrets, RegistryClients, RegistrySignIns, registryClients } from './registryAuth';
import { SecretTokenStore } from '../signIn/secretTokenStore';
import { editorRedirect } from '../signIn/signInRedirect';
import { askSignIn, openSignInPage } from '../signIn/signIns';
import { AuthError } from '../../auth/errors';
import { GalleryIcons } from './galleryIcons';

const PAGE = 30;

function registryUrl(): string {
  return vscode.workspace.getConfiguration('mcpHost').get<string>('registry.url')?.trim() || OFFICIAL_REGISTRY_URL;
}

/** SecretStorage key of a registry's token: one per registry origin and path. */
function tokenKey(url: string): string {
  return `mcpHost.registryToken:${safeUrl(url)}`;
}

export function registerRegistryGallery(context: vscode.ExtensionContext, channel: vscode.LogOutputChannel, secrets: GallerySecrets): vscode.Disposable[] {
  // Every line redacted as the editor's own are: a registry's sign-in tokens are known to the redactor.
  const log = {
    info: (text: string) => channel.info(secrets.redact(text)),
    warn: (text: string) => channel.warn(secrets.redact(text)),
    error: (text: string) => channel.error(secrets.redact(text)),
  };
  const run = (id: string, fn: () => Promise<void>) =>
    vscode.commands.registerCommand(id, async () => {
      try {
        await fn();
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log.error(`${id} failed: ${message}`);
        void vscode.window.showErrorMessage(`MCP Host: ${message}`);
      }
    });
  // A registry's token goes to that registry only (it is kept per registry URL).
  const token = (url: string) => context.secrets.get(tokenKey(url));
  // A registry behind OAuth: the servers' sign-in code, its tokens in SecretStorage under the registry's resource.
  const signIns = new RegistrySignIns({
    store: new SecretTokenStore(context.secrets, (...values) => secrets.noteSecret(...values), context.globalStorageUri.fsPath),
    redirect: editorRedirect(undefined, (text) => log.info(`registry sign-in: ${text}`)),
    userAgent: openSignInPage,
    log: (level, text) => log[level](`registry sign-in: ${text}`),
  });
  // One per window: an entry's icon is judged once, and kept on disk beside the servers' icons.
  let icons: GalleryIcons | undefined;
  const galleryIcons = () => (icons ??= new GalleryIcons(vscode.Uri.joinPath(context.globalStorageUri, 'icons').fsPath, (text) => log.info(text)));
  // One decision for every request to a registry: its bearer token, else its sign-in session.
  const clients = registryClients(token, signIns);
  return [
    run(RegistryGalleryCommands.browse, () => browse(context.secrets, signIns, clients, galleryIcons())),
    run(RegistryGalleryCommands.setToken, () => setRegistryToken(context.secrets)),
    run(RegistryGalleryCommands.update, () => updateFromRegistry(clients)),
    // The quiet check after activation: its failures go to the log only.
    vscode.commands.registerCommand(RegistryGalleryCommands.checkUpdates, async () => {
      for (const { entry, check } of await checkRegistryUpdates(clients)) {
        if (check.kind === 'failed') log.warn(`registry update check of "${entry.key}" (${entry.label}): ${check.problem}`);
        else log.info(`registry update check of "${entry.key}" (${entry.label}): ${check.kind === 'newer' ? `${check.latest} is newer than ${check.installed.version}` : 'up to date'}`);
      }
    }),
  ];
}

async function setRegistryToken(secrets: vscode.SecretStorage): Promise<void> {
  const url = registryUrl();
  const token = await vscode.window.showInputBox({
    title: 'MCP Host: Set MCP Registry Token',
    prompt: `Sent as "Authorization: Bearer …" to ${safeUrl(url)} (the mcpHost.registry.url setting). Kept in VS Code's secret storage only. Leave empty to remove it.`,
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => (/[\r\n]/.test(value) ? 'A token is one line' : undefined),
  });
  if (token === undefined) return;
  if (token.trim()) await secrets.store(tokenKey(url), token.trim());
  else await secrets.delete(tokenKey(url));
}

type Item = vscode.QuickPickItem & { row?: GalleryRow; more?: boolean; offerToken?: boolean; signIn?: boolean };

async function browse(secrets: vscode.SecretStorage, signIns: RegistrySignIns, clients: RegistryClients, icons: GalleryIcons, signedIn = false): Promise<void> {
  const url = registryUrl();
  const client = clients(url);
  const picked = await pickServer(client, url, icons, !signedIn);
  if (!picked) return;
  if (picked.signIn) return (await signInToRegistry(signIns, url)) ? browse(secrets, signIns, clients, icons, true) : undefined;
  if (picked.offerToken) return setRegistryToken(secrets);
  if (picked.row?.serverName) await install(client, picked.row.serverName, url);
}

/** The registry's OAuth sign-in: the prompt that names the authorization server, then the browser. True when signed in. */
async function signInToRegistry(signIns: RegistrySignIns, url: string): Promise<boolean> {
  const request = await signIns.request(url);
  if (!(await askSignIn({ name: `MCP Registry ${safeUrl(url)}`, serverUrl: url, issuer: request.issuer, authorizationEndpoint: request.authorizationEndpoint, reason: 'sign-in', ...(request.scopes ? { scopes: request.scopes } : {}) }))) return false;
  const progress = { location: vscode.ProgressLocation.Notification, title: `MCP Host: signing in to the MCP Registry ${safeUrl(url)} — finish in your browser…`, cancellable: true };
  return vscode.window.withProgress(progress, async (_, token) => {
    const abort = new AbortController();
    const cancelled = token.onCancellationRequested(() => abort.abort());
    try {
      await signIns.signIn(url, abort.signal);
      return true;
    } catch (error) {
      if (AuthError.is(error, 'cancelled')) return false;
      throw error;
    } finally {
      cancelled.dispose();
    }
  });
}

/** The quick pick: searches as you type (latest request wins), pages on "More results…". */
function pickServer(client: RegistryClient, url: string, icons: GalleryIcons, autoSignIn: boolean): Promise<Item | undefined> {
  const pick = vscode.window.createQuickPick<Item>();
  // Icons arrive after the rows: redrawing the rows must not scroll the list.
  pick.keepScrollPosition = true;
  pick.title = `MCP Registry — ${safeUrl(url)}`;
  pick.placeholder = 'Search servers by name';
  pick.matchOnDetail = true;
  let rows: Item[] = [];
  let cursor: string | undefined;
  let current: AbortController | undefined;
  let timer: NodeJS.Timeout | undefined;
  const load = async (search: string, more: boolean) => {
    current?.abort();
    const request = (current = new AbortController());
    pick.busy = true;
    try {
      const page = await client.search({ search, limit: PAGE, ...(more && cursor ? { cursor } : {}) }, request.signal);
      if (request.signal.aborted) return;
      const found: Item[] = page.servers.map((entry) => icons.withIcon(rowItem(serverRow(entry))));
      const skipped: Item[] = page.invalid.map((bad) => ({ label: `$(warning) Skipped a malformed entry${bad.name ? ` "${bad.name}"` : ''}`, detail: bad.problem, alwaysShow: true }));
      rows = [...(more ? rows.filter((r) => !r.more).map((r) => icons.withIcon(r)) : []), ...found, ...skipped];
      cursor = page.nextCursor;
      pick.items = [...rows, ...(cursor ? [{ label: '$(ellipsis) More results…', more: true, alwaysShow: true }] : []), ...(rows.length ? [] : [{ label: 'No servers found', alwaysShow: true }])];
      // Never awaited: the rows are there now, their icons come when they are judged.
      void icons.load(page.servers.map((entry) => entry.server), pick);
    } catch (error) {
      if (request.signal.aborted) return;
      const row = failureRow(error);
      // A 401 that names OAuth metadata starts the sign-in (its prompt asks first); any 401 offers it.
      if (autoSignIn && error instanceof RegistryError && error.signIn) return settle({ label: row.label, signIn: true });
      const signIn: Item[] = row.offerToken ? [{ label: '$(sign-in) Sign in to the registry…', detail: 'Through OAuth, in your browser, when the registry supports it', signIn: true, alwaysShow: true }] : [];
      pick.items = [{ ...rowItem(row), label: `$(error) ${row.label}`, alwaysShow: true, offerToken: row.offerToken }, ...signIn];
    } finally {
      if (current === request) pick.busy = false;
    }
  };
  let settle: (item: Item) => void = () => {};
  return new Promise((resolve) => {
    settle = (item) => {
      resolve(item);
      pick.hide();
    };
    pick.onDidChangeValue((value) => {
      clearTimeout(timer);
      timer = setTimeout(() => void load(value.trim(), false), 250);
    });
    pick.onDidAccept(() => {
      const item = pick.selectedItems[0];
      if (item?.more) return void load(pick.value.trim(), true);
      if (!item?.row?.serverName && !item?.offerToken && !item?.signIn) return;
      settle(item);
    });
    pick.onDidHide(() => {
      clearTimeout(timer);
      current?.abort();
      resolve(undefined);
      pick.dispose();
    });
    pick.show();
    void load('', false);
  });
}

function rowItem(row: GalleryRow): Item {
  return { label: row.label, description: row.description, detail: row.detail, row, alwaysShow: true };
}

type Target = { label: string; description: string; fileKind?: ConfigFileKind; parts: string[]; folder?: vscode.WorkspaceFolder };

/** Where to write: the workspace files of a folder (the folder asked for first when there are several), or the user settings. */
async function pickTarget(title: string, name: string): Promise<Target | undefined> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  const folder = folders.length <= 1 ? folders[0] : (await vscode.window.showQuickPick(folders.map((f) => ({ label: f.name, description: f.uri.fsPath, folder: f })), { placeHolder: `Install ${name} into which folder?` }))?.folder;
  if (folders.length > 1 && !folder) return undefined;
  const files: Target[] = folder
    ? [
        { label: '.vscode/mcp.json', description: 'VS Code format: what you supply is asked for once, secrets kept in SecretStorage', fileKind: 'vscode-mcp-json', parts: ['.vscode', 'mcp.json'], folder },
        { label: '.mcp.json', description: 'mcpServers format: what you supply is read from environment variables', fileKind: 'dot-mcp-json', parts: ['.mcp.json'], folder },
      ]
    : [];
  const user: Target = { label: 'User settings', description: 'mcpHost.servers of your user settings: for every workspace; secrets kept in SecretStorage', parts: [] };
  return vscode.window.showQuickPick([...files, user], { title, placeHolder: 'Write the entry where?' });
}

async function install(client: RegistryClient, name: string, registry: string): Promise<void> {
  const entry: ServerResponse = await client.server(name);
  const target = await pickTarget(`Install ${entry.server.title ?? name} ${entry.server.version}`, name);
  if (!target) return;
  const dialect = target.fileKind === 'dot-mcp-json' ? 'environment' : 'inputs';
  const rows = choiceRows(entry, dialect);
  if (!rows.length) throw new Error(`${name} has no package or remote to install${entry.server.websiteUrl ? ` (see ${entry.server.websiteUrl})` : ''}`);
  const chosen = rows.length === 1 ? rows[0] : await vscode.window.showQuickPick(rows, { title: `Install ${name}`, placeHolder: 'Run it how?' });
  if (!chosen) return;
  const outcome = planInstall(entry.server, dialect, { choice: chosen.choice });
  if (!outcome.ok) {
    void vscode.window.showErrorMessage(`MCP Host: ${name} was not installed`, { modal: true, detail: outcome.reasons.join('\n') });
    return;
  }
  const uri = target.folder && target.fileKind ? vscode.Uri.joinPath(target.folder.uri, ...target.parts) : undefined;
  if (uri && target.fileKind) {
    let before = '';
    try {
      before = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    } catch {
      // a new file
    }
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(addPlannedEntry(before, target.fileKind, outcome.plan, { registryUrl: registry })));
  } else await writeUserSetting(outcome.plan, registry, false);
  const plan = outcome.plan;
  const asks = plan.inputs.length ? ` Asks for ${plan.inputs.map((i) => i.id).join(', ')} when it starts.` : plan.environment.length ? ` Reads ${plan.environment.map((e) => '$' + e.name).join(', ')} from the environment.` : '';
  const notes = plan.warnings.length ? ` Note: ${plan.warnings.join('; ')}.` : '';
  const open = await vscode.window.showInformationMessage(`MCP Host: installed ${name} ${entry.server.version} as "${plan.key}" in ${target.label}: ${describeEntry(plan.entry)}.${asks}${notes}${uri ? ' It starts after you allow it.' : ''}`, ...(uri ? ['Open File'] : []));
  if (open && uri) await vscode.window.showTextDocument(uri);
}
