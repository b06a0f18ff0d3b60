// The configuration-reading part of the `vscode` double (double.ts): Range and Diagnostic as
// VS Code's (what the code builds and a test reads back), a DiagnosticCollection that keeps what
// was set per file, and file system watchers a test fires as the editor would on a save.
import { EventEmitter } from './eventDouble';

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(startLine: number, startCharacter: number, endLine: number, endCharacter: number) {
    this.start = new Position(startLine, startCharacter);
    this.end = new Position(endLine, endCharacter);
  }
}

export enum DiagnosticSeverity {
  Error = 0,
  Warning = 1,
  Information = 2,
  Hint = 3,
}

export class Diagnostic {
  source?: string;
  constructor(
    readonly range: Range,
    readonly message: string,
    readonly severity: DiagnosticSeverity = DiagnosticSeverity.Error,
  ) {}
}

/** As VS Code's: the diagnostics of each file (by its URI's text) until cleared. */
export class DiagnosticCollectionDouble {
  readonly entries = new Map<string, readonly Diagnostic[]>();
  disposed = false;
  constructor(readonly name: string) {}
  set(uri: { toString(): string }, diagnostics: readonly Diagnostic[]): void {
    this.entries.set(uri.toString(), diagnostics);
  }
  clear(): void {
    this.entries.clear();
  }
  dispose(): void {
    this.disposed = true;
    this.entries.clear();
  }
}

export class RelativePattern {
  constructor(
    readonly base: unknown,
    readonly pattern: string,
  ) {}
}

/** A watcher the code under test created; a test fires its events (`created.fire(uri)`). */
export class FileSystemWatcherDouble {
  readonly created = new EventEmitter<unknown>();
  readonly changed = new EventEmitter<unknown>();
  readonly deleted = new EventEmitter<unknown>();
  readonly onDidCreate = this.created.event;
  readonly onDidChange = this.changed.event;
  readonly onDidDelete = this.deleted.event;
  disposed = false;
  constructor(readonly pattern: RelativePattern) {}
  dispose(): void {
    this.disposed = true;
  }
}

/** Every diagnostic collection and watcher the code under test created, in order. */
export const workspaceDoubles = {
  diagnostics: [] as DiagnosticCollectionDouble[],
  watchers: [] as FileSystemWatcherDouble[],
  workspaceFolders: new EventEmitter<unknown>(),
  textDocumentClosed: new EventEmitter<unknown>(),
};

export function createDiagnosticCollection(name: string): DiagnosticCollectionDouble {
  const collection = new DiagnosticCollectionDouble(name);
  workspaceDoubles.diagnostics.push(collection);
  return collection;
}

export function createFileSystemWatcher(pattern: RelativePattern): FileSystemWatcherDouble {
  const watcher = new FileSystemWatcherDouble(pattern);
  workspaceDoubles.watchers.push(watcher);
  return watcher;
}
