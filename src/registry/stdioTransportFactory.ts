import { ResolvedStdioServer } from '../config/variables';
import { Transport } from '../protocol/transport';
import { StdioTransport, StdioTransportOptions } from '../transport/stdio';

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

/** A `createTransport` for ServerRegistry that spawns resolved servers with StdioTransport. */
export function stdioTransportFactory(
  options: Omit<StdioTransportOptions, 'command' | 'args' | 'env' | 'cwd'> = {},
): (resolved: ResolvedStdioServer) => Transport {
  return (resolved) =>
    new StdioTransport({
      ...options,
      command: resolved.command,
      args: resolved.args,
      cwd: resolved.cwd,
      env: envOverlay(resolved.env),
    });
}
