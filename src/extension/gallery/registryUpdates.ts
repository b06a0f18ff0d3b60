// "Update Servers from Registry…" and the quiet check behind the rows' "update" mark: the
// entries of the workspace's config files and of the user settings that record the registry they
// came from (config/registrySource.ts) are checked against it; an update rewrites only that entry
// (a jsonc edit of the file, or the setting), then the start gate asks for consent again because
// the command changed. Decisions live in src/gallery/registryUpdate.ts.
import * as vscode from 'vscode';
import { parse } from 'jsonc-parser';
import { ConfigSource, RegistrySource, entryId, folderSources, registrySourceOf, settingsSource } from '../../config';
import { safeUrl } from '../../gallery/registryClient';
import { ConfigFileKind, addPlannedEntry, entryToWrite, newInputs, ConfigWriteError } from '../../gallery/configWrite';
import { InstallPlan, describeEntry } from '../../gallery/installPlan';
import { UpdateCheck, checkUpdate, planUpdate } from '../../gallery/registryUpdate';
import { registryUpdateMarks } from '../tree/registryUpdateMarks';
import type { RegistryClients } from './registryAuth';

/** An entry installed from a registry, and where it is written. */
interface InstalledEntry {
  readonly id: string;
  readonly key: string;
  readonly entry: Record<string, unknown>;
  readonly source: RegistrySource;
  readonly label: string;
  /** A workspace file, or the user settings (`undefined`). */
  readonly file?: { readonly uri: vscode.Uri; readonly kind: ConfigFileKind };
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

function installedIn(servers: unknown, source: ConfigSource, label: string, file?: InstalledEntry['file']): InstalledEntry[] {
  if (typeof servers !== 'object' || servers === null) return [];
  return Object.entries(servers as Record<string, Record<string, unknown>>).flatMap(([key, entry]) => {
    const from = registrySourceOf(entry);
    return from ? [{ id: entryId(source, key), key, entry, source: from, label, ...(file ? { file } : {}) }] : [];
  });
}

/** Every entry of the workspace's config files and of the user settings installed from a registry. */
async function installedEntries(): Promise<InstalledEntry[]> {
  const found = installedIn(vscode.workspace.getConfiguration('mcpHost').inspect<unknown>('servers')?.globalValue, settingsSource('user'), 'User settings');
  for (const folder of (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file')) {
    for (const source of folderSources({ name: folder.name, fsPath: folder.uri.fsPath })) {
      const uri = vscode.Uri.file(source.file!);
      const text = await readText(uri);
      if (text === undefined) continue;
      const kind: ConfigFileKind = source.kind === 'dot-mcp-json' ? 'dot-mcp-json' : 'vscode-mcp-json';
      const value = parse(text, [], { allowTrailingComma: true }) as Record<string, unknown> | undefined;
      found.push(...installedIn(value?.[kind === 'dot-mcp-json' ? 'mcpServers' : 'servers'], source, source.label, { uri, kind }));
    }
  }
  return found;
}

/** Checks every installed entry; the rows' marks follow. */
export async function checkRegistryUpdates(clients: RegistryClients): Promise<{ entry: InstalledEntry; check: UpdateCheck }[]> {
  const entries = await installedEntries();
  const latest = async (s: RegistrySource) => (await clients(s.registryUrl).server(s.name)).server;
  const checks = await Promise.all(entries.map(async (entry) => ({ entry, check: await checkUpdate(entry.source, latest) })));
  registryUpdateMarks.set(new Map(checks.flatMap(({ entry, check }) => (check.kind === 'newer' ? [[entry.id, { installed: check.installed.version, latest: check.latest }] as const] : []))));
  return checks;
}

/** Writes `plan` into the user settings (`mcpHost.servers`, its inputs into `mcpHost.inputs`). */
export async function writeUserSetting(plan: InstallPlan, registryUrl: string, replace: boolean): Promise<void> {
  const settings = vscode.workspace.getConfiguration('mcpHost');
  const servers = { ...(settings.inspect<Record<string, unknown>>('servers')?.globalValue ?? {}) };
  if (!replace && servers[plan.key] !== undefined) throw new ConfigWriteError(`a server named "${plan.key}" is already in your user settings: choose another name, nothing was written`);
  servers[plan.key] = entryToWrite(plan, registryUrl);
  const inputs = settings.inspect<unknown[]>('inputs')?.globalValue ?? [];
  const added = newInputs(plan, inputs);
  if (added.length) await settings.update('inputs', [...inputs, ...added], vscode.ConfigurationTarget.Global);
  await settings.update('servers', servers, vscode.ConfigurationTarget.Global);
}

/** "Update Servers from Registry…": checks, offers the entries with a newer version, rewrites the one picked. */
export async function updateFromRegistry(clients: RegistryClients): Promise<void> {
  const checks = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'MCP Host: checking the registry for newer versions…' }, () => checkRegistryUpdates(clients));
  const failed = checks.filter((c) => c.check.kind === 'failed');
  const newer = checks.flatMap(({ entry, check }) => (check.kind === 'newer' ? [{ entry, latest: check.latest }] : []));
  if (!newer.length) {
    const why = failed.map((f) => `${f.entry.key}: ${f.check.kind === 'failed' ? f.check.problem : ''}`).join('; ');
    void vscode.window.showInformationMessage(checks.length ? `MCP Host: the ${checks.length - failed.length} server(s) installed from a registry are up to date.${why ? ` Not checked: ${why}` : ''}` : 'MCP Host: no configured server was installed from a registry.');
    return;
  }
  const picked = await vscode.window.showQuickPick(
    newer.map((n) => ({ label: n.entry.key, description: `${n.entry.source.version} → ${n.latest}`, detail: `${n.entry.source.name} — ${n.entry.label} — ${safeUrl(n.entry.source.registryUrl)}`, n })),
    { title: 'MCP Host: Update Servers from Registry', placeHolder: 'Update which server? Only its entry is rewritten.' },
  );
  if (!picked) return;
  const { entry } = picked.n;
  const server = (await clients(entry.source.registryUrl).server(entry.source.name)).server;
  const outcome = planUpdate(entry.key, entry.entry, server, entry.file?.kind === 'dot-mcp-json' ? 'environment' : 'inputs');
  if (!outcome.ok) {
    void vscode.window.showErrorMessage(`MCP Host: ${entry.key} was not updated`, { modal: true, detail: outcome.reasons.join('\n') });
    return;
  }
  if (entry.file) {
    const text = (await readText(entry.file.uri)) ?? '';
    await vscode.workspace.fs.writeFile(entry.file.uri, new TextEncoder().encode(addPlannedEntry(text, entry.file.kind, outcome.plan, { replace: true, registryUrl: entry.source.registryUrl })));
  } else await writeUserSetting(outcome.plan, entry.source.registryUrl, true);
  registryUpdateMarks.clear(entry.id);
  void vscode.window.showInformationMessage(`MCP Host: updated "${entry.key}" (${entry.label}) from ${entry.source.version} to ${server.version}: ${describeEntry(outcome.plan.entry)}.${entry.file ? ' A changed command is shown for your consent again before it starts.' : ''}`);
}
