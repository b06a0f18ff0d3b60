// What a remote server's lost connection looks like to the user. An HTTP server that goes away
// is noticed by its transport (the GET stream's reconnect is refused) without any call, and the
// registry's crash handling restarts it with back-off: for a remote server that restart is a
// reconnect, and rows, Server Details and the status bar say "reconnecting…" with the reason.
import { ServerEntry } from '../config/types';

/** True for an entry the host connects to over HTTP rather than starts as a process. */
export function isRemote(entry: ServerEntry): boolean {
  return entry.config.type !== 'stdio';
}

/** The word for a status: "reconnecting…" for a remote server waiting to reconnect, else the status kind. */
export function connectionWord(status: { readonly kind: string; readonly reconnecting?: boolean }): string {
  return status.kind === 'error' && status.reconnecting === true ? 'reconnecting…' : status.kind;
}
