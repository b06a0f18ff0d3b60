// Reads the MCP server configuration of the workspace: `.vscode/mcp.json` and `.mcp.json` of
// every workspace folder plus the `mcpHost.servers` setting in each scope, through the config
// layer's parser. Reports problems as Diagnostics at their exact range, watches the files and
// the setting, and fires `onDidChange` (debounced) so the host can re-read. The parser
// (jsonc-parser and the entry reader) is a chunk of its own, loaded by the first read, not at
// activation: the tree's first rows wait for that read either way.
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
// From the config layer's own files, not its index: the index re-exports the parser.
import type { ConfigProblem, ConfigSource, LoadedConfig, ServerEntry } from '../../config/types';
import { folderSources, settingsSource, sourceKey } from '../../config/sources';
import type { LoadedFile } from '../../config/load';
import { loadPartOnce } from '../onDemand';
import { offsetToPosition } from './textPosition';

/** The config layer's readers of a file and of a setting's value. */
interface ConfigParser {
  loadConfigFile(source: ConfigSource): Promise<LoadedFile>;
  parseSettingsValue(value: unknown, source: ConfigSource, inputs?: unknown): LoadedConfig;
}

/** Loads the parser once (again after a failed load, at the next read). */
const configParser = loadPartOnce('the configuration parser', async (): Promise<ConfigParser> => {
  const [{ loadConfigFile }, { parseSettingsValue }] = await Promise.all([import('../../config/load.js'), import('../../config/settingsFormat.js')]);
  return { loadConfigFile, parseSettingsValue };
});

/** What the workspace configures, merged over every source. */
export interface WorkspaceConfig {
  readonly servers: readonly ServerEntry[];
  readonly problems: readonly ConfigProblem[];
  /** Sources that exist (files present, settings set), even when they define no server. */
  readonly sources: readonly ConfigSource[];
  /** Workspace folders on disk: name → fsPath, in workspace order. */
  readonly folders: Readonly<Record<string, string>>;
}

const DEBOUNCE_MS = 250;

export class WorkspaceConfigReader implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private watchers: vscode.Disposable[] = [];
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('mcpHost');
  private readonly _onDidChange = new vscode.EventEmitter<string>();
  /** Something that may change the config happened; the payload says what, for the log. */
  readonly onDidChange: vscode.Event<string> = this._onDidChange.event;
  private timer: NodeJS.Timeout | undefined;
  private pendingReasons = new Set<string>();
  /** The servers of each file at its last good parse: a file with a syntax error keeps them. */
  private readonly lastGood = new Map<string, readonly ServerEntry[]>();

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.disposables.push(
      this.diagnostics,
      this._onDidChange,
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.watchFolders();
        this.changed('workspace folders changed');
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('mcpHost.servers') || e.affectsConfiguration('mcpHost.inputs')) this.changed('the mcpHost.servers setting changed');
      }),
    );
    this.watchFolders();
  }

  /** Reads every source now. Throws only if the parser could not be loaded: unreadable sources become problems. */
  async read(): Promise<WorkspaceConfig> {
    const { loadConfigFile, parseSettingsValue } = await configParser();
    const fromSetting = (source: ConfigSource, value: unknown, inputs?: unknown) => this.fromSetting(parseSettingsValue(value, source, inputs), source, value);
    const folders: Record<string, string> = {};
    const loaded: { source: ConfigSource; config: LoadedConfig; exists: boolean }[] = [];

    const user = vscode.workspace.getConfiguration('mcpHost').inspect<unknown>('servers');
    // The user settings may define inputs (mcpHost.inputs) for their servers: secrets go to SecretStorage.
    if (user?.globalValue !== undefined) loaded.push(fromSetting(settingsSource('user'), user.globalValue, vscode.workspace.getConfiguration('mcpHost').inspect<unknown>('inputs')?.globalValue));
    if (user?.workspaceValue !== undefined && vscode.workspace.workspaceFile) {
      loaded.push(fromSetting(settingsSource('workspace'), user.workspaceValue));
    }

    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== 'file') {
        this.log.info(`Skipping workspace folder "${folder.name}" (${folder.uri.toString()}): only folders on disk can hold MCP configs or be roots.`);
        continue;
      }
      const info = { name: folder.name, fsPath: folder.uri.fsPath };
      folders[folder.name] = info.fsPath;
      for (const source of folderSources(info)) {
        const file = await loadConfigFile(source);
        if (!file.exists) {
          this.lastGood.delete(sourceKey(source));
          continue;
        }
        let config: LoadedConfig = file;
        if (file.hasSyntaxError) {
          const previous = this.lastGood.get(sourceKey(source));
          if (previous?.length) {
            this.log.warn(`${source.label} has a syntax error; keeping its ${previous.length} previously loaded server(s) until it is fixed.`);
            config = { ...file, servers: [...previous] };
          }
        } else {
          this.lastGood.set(sourceKey(source), file.servers);
        }
        loaded.push({ source, config, exists: true });
      }
      // In a single-folder window the folder's settings are the workspace settings.
      const scoped = vscode.workspace.getConfiguration('mcpHost', folder.uri).inspect<unknown>('servers');
      const folderValue = vscode.workspace.workspaceFile ? scoped?.workspaceFolderValue : scoped?.workspaceValue;
      if (folderValue !== undefined) loaded.push(fromSetting(settingsSource('folder', info), folderValue));
    }

    const servers = loaded.flatMap((l) => l.config.servers);
    const problems = loaded.flatMap((l) => l.config.problems);
    await this.publishDiagnostics(problems);
    return { servers, problems, sources: loaded.filter((l) => l.exists).map((l) => l.source), folders };
  }

  /** A setting's value as parsed; an empty one is no source. */
  private fromSetting(config: LoadedConfig, source: ConfigSource, value: unknown): { source: ConfigSource; config: LoadedConfig; exists: boolean } {
    const empty = value === null || (typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0);
    return { source, config, exists: !empty };
  }

  private async publishDiagnostics(problems: readonly ConfigProblem[]): Promise<void> {
    const byFile = new Map<string, ConfigProblem[]>();
    for (const p of problems) {
      if (!p.source.file || p.offset < 0) continue;
      const list = byFile.get(p.source.file) ?? [];
      list.push(p);
      byFile.set(p.source.file, list);
    }
    this.diagnostics.clear();
    for (const [file, list] of byFile) {
      let text = '';
      try {
        text = (await fs.readFile(file, 'utf8')).replace(/^\uFEFF/, '');
      } catch {
        // Gone meanwhile: the positions below fall back to line/column.
      }
      const diagnostics = list.map((p) => {
        const range = problemRange(p, text);
        const d = new vscode.Diagnostic(range, p.message, p.severity === 'warning' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Error);
        d.source = 'MCP Host';
        return d;
      });
      this.diagnostics.set(vscode.Uri.file(file), diagnostics);
    }
  }

  /** Watches the two config files at the root of every folder on disk. */
  private watchFolders(): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== 'file') continue;
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '{.vscode/mcp.json,.mcp.json}'));
      const fire = (uri: vscode.Uri) => this.changed(`${vscode.workspace.asRelativePath(uri, true)} changed`);
      this.watchers.push(watcher, watcher.onDidCreate(fire), watcher.onDidChange(fire), watcher.onDidDelete(fire));
    }
  }

  /** Collects change reasons and fires once they settle (a save often comes as several events). */
  private changed(reason: string): void {
    this.pendingReasons.add(reason);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const reasons = [...this.pendingReasons].join('; ');
      this.pendingReasons.clear();
      this._onDidChange.fire(reasons);
    }, DEBOUNCE_MS);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const w of this.watchers) w.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** The range of a problem: from its offset and length when the text is at hand, else its line/column. */
export function problemRange(p: ConfigProblem, text: string): vscode.Range {
  if (text && p.offset >= 0 && p.offset <= text.length) {
    const start = offsetToPosition(text, p.offset);
    const end = offsetToPosition(text, Math.min(text.length, p.offset + Math.max(p.length, 0)));
    return new vscode.Range(start.line, start.character, end.line, end.character);
  }
  const line = Math.max(0, p.line - 1);
  const character = Math.max(0, p.column - 1);
  return new vscode.Range(line, character, line, character);
}
