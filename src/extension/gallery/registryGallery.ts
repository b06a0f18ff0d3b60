// "MCP Host: Browse MCP Registry…" and "MCP Host: Set MCP Registry Token…": the VS Code side of
// the gallery. Decisions live in src/gallery/ (client, rows, install plan, file edit); this file
// only shows quick picks, reads the setting and SecretStorage, and writes the file.
import * as vscode from 'vscode';
import { OFFICIAL_REGISTRY_URL, RegistryClient, safeUrl } from '../../gallery/registryClient';
import { ServerResponse } from '../../gallery/serverJson';
import { GalleryRow, choiceRows, failureRow, serverRow } from '../../gallery/galleryRows';
import { describeEntry, planInstall } from '../../gallery/installPlan';
import { ConfigFileKind, addPlannedEntry } from '../../gallery/configWrite';

const PAGE = 30;

function registryUrl(): string {
  return vscode.workspace.getConfiguration('mcpHost').get<string>('registry.url')?.trim() || OFFICIAL_REGISTRY_URL;
}

/** SecretStorage key of a registry's token: one per registry origin and path. */
function tokenKey(url: string): string {
  return `mcpHost.registryToken:${safeUrl(url)}`;
}

export function registerRegistryGallery(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): vscode.Disposable[] {
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
  return [run('mcpHost.registry.browse', () => browse(context.secrets)), run('mcpHost.registry.setToken', () => setRegistryToken(context.secrets))];
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

type Item = vscode.QuickPickItem & { row?: GalleryRow; more?: boolean; offerToken?: boolean };

async function browse(secrets: vscode.SecretStorage): Promise<void> {
  const url = registryUrl();
  const client = new RegistryClient({ baseUrl: url, token: () => secrets.get(tokenKey(url)) });
  const picked = await pickServer(client, url);
  if (!picked) return;
  if (picked.offerToken) return setRegistryToken(secrets);
  if (picked.row?.serverName) await install(client, picked.row.serverName);
}

/** The quick pick: searches as you type (latest request wins), pages on "More results…". */
function pickServer(client: RegistryClient, url: string): Promise<Item | undefined> {
  const pick = vscode.window.createQuickPick<Item>();
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
      const found: Item[] = page.servers.map((entry) => rowItem(serverRow(entry)));
      const skipped: Item[] = page.invalid.map((bad) => ({ label: `$(warning) Skipped a malformed entry${bad.name ? ` "${bad.name}"` : ''}`, detail: bad.problem, alwaysShow: true }));
      rows = [...(more ? rows.filter((r) => !r.more) : []), ...found, ...skipped];
      cursor = page.nextCursor;
      pick.items = [...rows, ...(cursor ? [{ label: '$(ellipsis) More results…', more: true, alwaysShow: true }] : []), ...(rows.length ? [] : [{ label: 'No servers found', alwaysShow: true }])];
    } catch (error) {
      if (request.signal.aborted) return;
      const row = failureRow(error);
      pick.items = [{ ...rowItem(row), label: `$(error) ${row.label}`, alwaysShow: true, offerToken: row.offerToken }];
    } finally {
      if (current === request) pick.busy = false;
    }
  };
  return new Promise((resolve) => {
    pick.onDidChangeValue((value) => {
      clearTimeout(timer);
      timer = setTimeout(() => void load(value.trim(), false), 250);
    });
    pick.onDidAccept(() => {
      const item = pick.selectedItems[0];
      if (item?.more) return void load(pick.value.trim(), true);
      if (!item?.row?.serverName && !item?.offerToken) return;
      resolve(item);
      pick.hide();
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

async function install(client: RegistryClient, name: string): Promise<void> {
  const entry: ServerResponse = await client.server(name);
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  if (!folders.length) throw new Error('open a folder first: the server is installed into its .vscode/mcp.json or .mcp.json');
  const folder = folders.length === 1 ? folders[0] : (await vscode.window.showQuickPick(folders.map((f) => ({ label: f.name, description: f.uri.fsPath, folder: f })), { placeHolder: `Install ${name} into which folder?` }))?.folder;
  if (!folder) return;
  const target = await vscode.window.showQuickPick(
    [
      { label: '.vscode/mcp.json', description: 'VS Code format: what you supply is asked for once, secrets kept in SecretStorage', fileKind: 'vscode-mcp-json' as ConfigFileKind, parts: ['.vscode', 'mcp.json'] },
      { label: '.mcp.json', description: 'mcpServers format: what you supply is read from environment variables', fileKind: 'dot-mcp-json' as ConfigFileKind, parts: ['.mcp.json'] },
    ],
    { title: `Install ${entry.server.title ?? name} ${entry.server.version}`, placeHolder: 'Write the entry into which file?' },
  );
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
  const uri = vscode.Uri.joinPath(folder.uri, ...target.parts);
  let before = '';
  try {
    before = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    // a new file
  }
  const after = addPlannedEntry(before, target.fileKind, outcome.plan);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(after));
  const plan = outcome.plan;
  const asks = plan.inputs.length ? ` Asks for ${plan.inputs.map((i) => i.id).join(', ')} when it starts.` : plan.environment.length ? ` Reads ${plan.environment.map((e) => '$' + e.name).join(', ')} from the environment.` : '';
  const notes = plan.warnings.length ? ` Note: ${plan.warnings.join('; ')}.` : '';
  const open = await vscode.window.showInformationMessage(`MCP Host: installed ${name} ${entry.server.version} as "${plan.key}" in ${target.label}: ${describeEntry(plan.entry)}.${asks}${notes} It starts after you allow it.`, 'Open File');
  if (open) await vscode.window.showTextDocument(uri);
}
