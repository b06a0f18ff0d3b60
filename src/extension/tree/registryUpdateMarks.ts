// Which configured servers the MCP Registry has a newer version of, by entry id: filled by the
// gallery's update check (a lazy chunk; this module is shared with it), read by the Servers tree
// for its rows. Kept small and free of the gallery's code so activation does not load it.
import * as vscode from 'vscode';

/** A newer version the registry has of an installed entry. */
export interface RegistryUpdateMark {
  readonly installed: string;
  readonly latest: string;
}

export class RegistryUpdateMarks {
  private marks = new Map<string, RegistryUpdateMark>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  /** The newer version of entry `entryId`, if the last check found one. */
  get(entryId: string): RegistryUpdateMark | undefined {
    return this.marks.get(entryId);
  }

  /** Replaces every mark with the outcome of a check. */
  set(marks: ReadonlyMap<string, RegistryUpdateMark>): void {
    this.marks = new Map(marks);
    this.changed.fire();
  }

  /** Forgets the mark of an entry that was just updated. */
  clear(entryId: string): void {
    if (this.marks.delete(entryId)) this.changed.fire();
  }
}

/** The one set of marks of this window. */
export const registryUpdateMarks = new RegistryUpdateMarks();

/**
 * Once the configuration holds a server installed from a registry, checks the registry for newer
 * versions once, a few seconds later (`command` loads the gallery then, not at activation).
 * `mcpHost.registry.checkForUpdates: false` turns it off.
 */
export function checkRegistryUpdatesOnce(servers: () => readonly { readonly entry: { readonly registrySource?: unknown } }[], onDidChange: vscode.Event<void>, command: string): vscode.Disposable {
  let timer: NodeJS.Timeout | undefined;
  const look = () => {
    if (timer || !servers().some((h) => h.entry.registrySource)) return;
    if (vscode.workspace.getConfiguration('mcpHost').get<boolean>('registry.checkForUpdates') === false) return;
    timer = setTimeout(() => void vscode.commands.executeCommand(command), 3000);
    timer.unref?.();
    sub.dispose();
  };
  const sub = onDidChange(look);
  look();
  return new vscode.Disposable(() => {
    sub.dispose();
    clearTimeout(timer);
  });
}
