// Updates of servers installed from an MCP Registry: whether the registry has a newer version of
// an entry (its `gallery` and `version` fields, config/registrySource.ts), and the plan of the
// new entry, installed the same way as before (the same package type or remote transport) under
// the same name, so its inputs (and the answers kept for them) stay the same.
import type { RegistrySource } from '../config/registrySource';
import { ServerDetail } from './serverJson';
import { InstallChoice, InstallDialect, PlanOutcome, installChoices, planInstall } from './installPlan';

/** The outcome of checking one installed entry against its registry. */
export type UpdateCheck =
  | { readonly kind: 'current'; readonly installed: RegistrySource }
  | { readonly kind: 'newer'; readonly installed: RegistrySource; readonly latest: string }
  | { readonly kind: 'failed'; readonly installed: RegistrySource; readonly problem: string };

/**
 * Orders two versions: semantic versions by their numbers (a pre-release before its release),
 * anything else (dates, free text) by its numeric runs, then as text. Negative when a < b.
 */
export function compareVersions(a: string, b: string): number {
  const split = (v: string) => {
    const plain = v.trim().replace(/^v/i, '').split('+')[0];
    const dash = plain.indexOf('-');
    const core = dash < 0 ? plain : plain.slice(0, dash);
    return { parts: core.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)), pre: dash < 0 ? '' : plain.slice(dash + 1) };
  };
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < Math.max(x.parts.length, y.parts.length); i++) {
    const p = x.parts[i] ?? 0;
    const q = y.parts[i] ?? 0;
    if (p === q) continue;
    if (typeof p === 'number' && typeof q === 'number') return p - q;
    return String(p).localeCompare(String(q), 'en', { numeric: true });
  }
  if (x.pre === y.pre) return 0;
  if (!x.pre) return 1;
  if (!y.pre) return -1;
  return x.pre.localeCompare(y.pre, 'en', { numeric: true });
}

/** Checks `installed` against the registry's latest version (`latest` looks it up; it may throw). */
export async function checkUpdate(installed: RegistrySource, latest: (source: RegistrySource) => Promise<ServerDetail>): Promise<UpdateCheck> {
  try {
    const server = await latest(installed);
    return compareVersions(server.version, installed.version) > 0 ? { kind: 'newer', installed, latest: server.version } : { kind: 'current', installed };
  } catch (error) {
    return { kind: 'failed', installed, problem: error instanceof Error ? error.message : String(error) };
  }
}

/** "npm", "pypi", "nuget", "oci", "remote streamable-http", "remote sse": how an entry was installed, read from what install wrote. */
function installedKind(entry: Readonly<Record<string, unknown>>): string | undefined {
  if (typeof entry.url === 'string') return entry.type === 'sse' ? 'remote sse' : 'remote streamable-http';
  const byCommand: Record<string, string> = { npx: 'npm', uvx: 'pypi', dnx: 'nuget', docker: 'oci' };
  return typeof entry.command === 'string' ? byCommand[entry.command] : undefined;
}

/** The way of installing `server` that matches the installed entry: the same kind, the same package when it is still there. */
export function matchingChoice(entry: Readonly<Record<string, unknown>>, server: ServerDetail): InstallChoice | undefined {
  const kind = installedKind(entry);
  const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
  const candidates = installChoices(server).filter(({ choice }) => {
    if (choice.kind === 'remote') return kind === `remote ${server.remotes![choice.index].type}`;
    return kind === server.packages![choice.index].registryType;
  });
  const samePackage = candidates.find(({ choice }) => choice.kind === 'package' && args.some((a) => a.startsWith(server.packages![choice.index].identifier)));
  return (samePackage ?? candidates[0])?.choice;
}

/** The plan that replaces entry `key` (installed as `entry`) with `server`, the registry's newer version. */
export function planUpdate(key: string, entry: Readonly<Record<string, unknown>>, server: ServerDetail, dialect: InstallDialect): PlanOutcome {
  const choice = matchingChoice(entry, server);
  if (!choice) return { ok: false, reasons: [`${server.name} ${server.version} has no ${installedKind(entry) ?? 'matching'} package or remote any more: install it again by hand`] };
  return planInstall(server, dialect, { choice, key });
}
