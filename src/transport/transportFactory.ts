// Builds the transport a resolved server needs: a process for stdio, HTTP for `http`/`sse`, each
// loaded when the server starts (DeferredTransport).
// Injected into ServerRegistry by the extension and the CLI, so the registry knows no transport.
import type { ServerEntry } from '../config/types';
import type { ResolvedRemoteServer, ResolvedServer } from '../config/variables';
import { Transport } from '../protocol/transport';
import { DeferredTransport } from './deferredTransport';
import type { AuthProvider, HttpTransportOptions } from './httpChannel';
import type { HttpTransportMode } from './httpTransport';
import type { StdioTransportOptions } from './stdio';
import type { SandboxPlace } from '../sandbox/bwrapArgs';
import { sandboxPolicyOf, SandboxPolicy, SandboxRequirement } from '../sandbox/policy';
import * as os from 'node:os';

/**
 * The `env` option for StdioTransport (which lays its env over this process's) from a resolved
 * server's full environment: variables of `base` that the resolved env does not have (removed
 * by a `null` in the config) are unset explicitly, so they are not inherited back.
 */
export function envOverlay(full: Readonly<Record<string, string>>, base: Readonly<Record<string, string | undefined>> = process.env, platform: NodeJS.Platform = process.platform): Record<string, string | undefined> {
  const overlay: Record<string, string | undefined> = { ...full };
  const present = new Set(Object.keys(full).map((k) => (platform === 'win32' ? k.toUpperCase() : k)));
  for (const key of Object.keys(base)) {
    if (!present.has(platform === 'win32' ? key.toUpperCase() : key)) overlay[key] = undefined;
  }
  return overlay;
}

export interface TransportFactoryOptions {
  /** Options of every StdioTransport (grace periods, size cap). */
  readonly stdio?: Omit<StdioTransportOptions, 'command' | 'args' | 'env' | 'cwd'>;
  /** The HTTP mode of an `http` entry; default `auto` (Streamable HTTP, falling back to SSE). */
  readonly httpMode?: Exclude<HttpTransportMode, 'sse'>;
  /** Options of every HTTP transport (size cap, timeouts, reconnects). */
  readonly http?: Omit<HttpTransportOptions, 'url' | 'headers'>;
  /** The authorization of each remote server (MCP authorization), over `http.auth`; none when it returns undefined. */
  readonly auth?: (resolved: ResolvedRemoteServer, entry: ServerEntry | undefined) => AuthProvider | undefined;
  /** Whether every workspace-defined server must run in a sandbox (read at each start). */
  readonly sandboxRequirement?: () => SandboxRequirement;
  /** The sandbox of a server started without a config entry (the CLI's `--sandbox` for a command after `--`). */
  readonly commandSandbox?: SandboxPolicy;
  /** The workspace folders a sandboxed server sees (default: the folder of its config, else its working directory). */
  readonly workspaceFolders?: () => readonly string[];
}

/** A `createTransport` for ServerRegistry: StdioTransport for stdio servers, HTTP for remote ones. */
export function transportFactory(options: TransportFactoryOptions = {}): (resolved: ResolvedServer, entry?: ServerEntry) => Transport {
  return (resolved, entry) => {
    if (resolved.type !== 'stdio') {
      const mode: HttpTransportMode = resolved.type === 'sse' ? 'sse' : (options.httpMode ?? 'auto');
      const auth = options.auth?.(resolved, entry);
      const http = { ...options.http, url: resolved.url, headers: resolved.headers, mode, ...(auth ? { auth } : {}) };
      // Loaded with the first remote server, not at activation (the URL was checked when the
      // entry was resolved, so nothing the constructor would refuse reaches it here).
      return new DeferredTransport(async () => (await import('./httpTransport.js')).createHttpTransport(http));
    }
    const policy = entry ? sandboxPolicyOf(entry, options.sandboxRequirement?.()) : options.commandSandbox;
    const folders = options.workspaceFolders?.() ?? [entry?.source.folder?.fsPath ?? resolved.cwd];
    const place: SandboxPlace = { home: os.homedir(), workspaceFolders: folders };
    // The entry's own variables (`env`, `envFile`): those it sets to something this process does not have.
    const passEnv = [...(entry?.config.type === 'stdio' ? Object.keys(entry.config.env) : []), ...Object.keys(resolved.env).filter((k) => process.env[k] !== resolved.env[k])];
    const stdio: StdioTransportOptions = {
      ...options.stdio,
      command: resolved.command,
      args: resolved.args,
      cwd: resolved.cwd,
      env: envOverlay(resolved.env),
      ...(policy ? { sandbox: { policy, place, passEnv } } : {}),
    };
    // Loaded with the first stdio server too (the process code and its sandbox, ~25 KiB of the
    // extension's bundle): activation, which starts no server, does not read it.
    return new DeferredTransport(async () => new (await import('./stdio.js')).StdioTransport(stdio));
  };
}
