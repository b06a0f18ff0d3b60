// What the periodic health ping last said about each server, kept beside the registry so every
// view (the tree, Server Details) reads one store. No `vscode`: the ping lives in the use cases.
import { Emitter, Event } from '../protocol/events';

/** A periodic ping's verdict on a server. */
export type ServerHealth =
  | { readonly kind: 'unknown' }
  | { readonly kind: 'ok'; readonly rttMs: number; readonly time: number }
  | { readonly kind: 'unresponsive'; readonly since: number; readonly failures: number; readonly error: string };

/** The last health of each server, by id. */
export class ServerHealthStore {
  private readonly byId = new Map<string, ServerHealth>();
  private readonly _onDidChange = new Emitter<string>();
  /** A server's health changed (its id). */
  readonly onDidChange: Event<string> = this._onDidChange.event;

  get(id: string): ServerHealth | undefined {
    return this.byId.get(id);
  }

  set(id: string, health: ServerHealth): void {
    this.byId.set(id, health);
    this._onDidChange.fire(id);
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}
