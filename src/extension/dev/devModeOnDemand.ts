// Dev mode (devMode.ts: watchers, debugger attach, inspector ports) loads when a server entry has
// `dev.watch` or `dev.debug`, or a Debug run of saved tests asks for a debugger: until then a
// server starts as resolved and nothing is watched, which is what dev mode itself does for such
// entries, without its code being read at activation.
import type * as vscode from 'vscode';
import type { ResolvedServer, ServerEntry } from '../../config';
import type { McpClient } from '../../client/client';
import type { ServerHandle } from '../../registry/serverRegistry';
import type { DebuggedServer, DevMode, DevModeHost } from './devMode';
import { OnDemand } from '../onDemand';

/** {@link DevMode}'s surface, loading it on the first entry or Debug run that needs it. */
export class DevModeOnDemand implements vscode.Disposable {
  private readonly devMode: OnDemand<DevMode>;

  constructor(private readonly host: DevModeHost) {
    this.devMode = new OnDemand(async () => new (await import('./devMode.js')).DevMode(host));
  }

  /** Follows the configuration (see DevMode.sync): loads dev mode once an entry has `dev.watch`. */
  sync(): void {
    if (this.devMode.current) this.devMode.current.sync();
    else if (this.host.servers().some((h) => h.entry.dev?.watch)) void this.devMode.get().then((d) => d.sync());
  }

  /** What a server starts with (see DevMode.prepare): as resolved unless it has `dev.debug` or dev mode is loaded. */
  async prepare(entry: ServerEntry, resolved: ResolvedServer): Promise<ResolvedServer> {
    if (!this.devMode.current && !entry.dev?.debug) return resolved;
    return (await this.devMode.get()).prepare(entry, resolved);
  }

  /** See DevMode.attach. Synchronous: a server to attach to went through `prepare`, which loaded dev mode. */
  attach(h: ServerHandle, client: McpClient): void {
    this.devMode.current?.attach(h, client);
  }

  /** See DevMode.debugWhile (a Debug run forces a debugger, so it loads dev mode). */
  async debugWhile(id: string, signal?: AbortSignal): Promise<DebuggedServer> {
    return (await this.devMode.get()).debugWhile(id, signal);
  }

  dispose(): void {
    this.devMode.dispose();
  }
}
