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
  /**
   * A server's health changed in what the views show (its id): a ping that answers as the last
   * one did is not a change, so an idle tree with the ping on is not redrawn at every ping.
   */
  readonly onDidChange: Event<string> = this._onDidChange.event;

  get(id: string): ServerHealth | undefined {
    return this.byId.get(id);
  }

  set(id: string, health: ServerHealth): void {
    const was = this.byId.get(id);
    this.byId.set(id, health);
    if (!sameShown(was, health)) this._onDidChange.fire(id);
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}

/** The tree shows a server's health kind, and how many pings an unresponsive one missed since when. */
function sameShown(a: ServerHealth | undefined, b: ServerHealth): boolean {
  if (!a || a.kind !== b.kind) return false;
  return a.kind !== 'unresponsive' || b.kind !== 'unresponsive' || (a.failures === b.failures && a.since === b.since);
}
