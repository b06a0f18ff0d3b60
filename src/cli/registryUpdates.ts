// `mcp-host registry outdated|update`: the entries of a config file that were installed from an
// MCP Registry (their `gallery` and `version` fields) checked against it, and one of them
// rewritten at the registry's newer version — only that entry, comments elsewhere kept. Also where
// `--target` points: a workspace file, a settings.json, or `user` (VS Code's user settings).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parse } from 'jsonc-parser';
import { RegistrySource, registrySourceOf } from '../config/registrySource';
import { RegistryClient, safeUrl } from '../gallery/registryClient';
import { ConfigFileKind, addPlannedEntry } from '../gallery/configWrite';
import { checkUpdate, planUpdate } from '../gallery/registryUpdate';
import { describeEntry } from '../gallery/installPlan';

/** What `registry outdated|update` reads of the parsed arguments. */
export interface UpdateArguments {
  readonly verb: 'outdated' | 'update';
  /** update: the entry's name in the file. */
  readonly operand?: string;
  readonly target: string;
  /** The registry --registry names: the only one the token goes to. */
  readonly registry: string;
  readonly tokenEnv?: string;
}

/** The file `--target` names: `user` is VS Code's user settings.json of this platform. */
export function targetFile(target: string, cwd: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (target !== 'user') return resolve(cwd, target);
  const home = env.HOME ?? homedir();
  const base = platform === 'win32' ? (env.APPDATA ?? join(home, 'AppData', 'Roaming')) : platform === 'darwin' ? join(home, 'Library', 'Application Support') : (env.XDG_CONFIG_HOME ?? join(home, '.config'));
  return join(base, 'Code', 'User', 'settings.json');
}

/** The format of a config file, by its name. */
export function configFileKind(file: string): ConfigFileKind {
  const name = basename(file);
  return name === '.mcp.json' ? 'dot-mcp-json' : name === 'settings.json' ? 'settings-json' : 'vscode-mcp-json';
}

const SERVERS_KEY: Record<ConfigFileKind, string> = { 'vscode-mcp-json': 'servers', 'dot-mcp-json': 'mcpServers', 'settings-json': 'mcpHost.servers' };

/** Runs `registry outdated` or `registry update NAME` on `file`; the exit status. */
export async function runRegistryUpdates(args: UpdateArguments, io: { stdout(text: string): void; stderr(text: string): void }, file: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<number> {
  const kind = configFileKind(file);
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const servers = ((parse(text || '{}', [], { allowTrailingComma: true }) as Record<string, unknown> | undefined)?.[SERVERS_KEY[kind]] ?? {}) as Record<string, Record<string, unknown>>;
  const installed = Object.entries(servers).flatMap(([key, entry]) => {
    const source = registrySourceOf(entry);
    return source ? [{ key, entry, source }] : [];
  });
  // The token goes only to the registry it is for: --registry (or MCP_HOST_REGISTRY_URL).
  const latest = (source: RegistrySource) => {
    const own = safeUrl(source.registryUrl) === safeUrl(args.registry) && args.tokenEnv;
    return new RegistryClient({ baseUrl: source.registryUrl, ...(own ? { token: () => env[args.tokenEnv!] } : {}) }).server(source.name, 'latest', signal).then((r) => r.server);
  };
  if (args.verb === 'outdated') {
    const lines: string[] = [];
    for (const { key, source } of installed) {
      const check = await checkUpdate(source, latest);
      const from = `${key}  ${source.name}  ${source.version}`;
      lines.push(check.kind === 'newer' ? `${from} → ${check.latest}  (mcp-host registry update ${key})` : check.kind === 'current' ? `${from}  up to date` : `${from}  not checked: ${check.problem}`);
    }
    io.stdout((lines.length ? lines.join('\n') : `no entry of ${args.target} was installed from a registry`) + '\n');
    return 0;
  }
  const found = installed.find((i) => i.key === args.operand);
  if (!found) {
    io.stderr(`mcp-host: ${args.target} has no entry "${args.operand}" installed from a registry (its "gallery" and "version" fields say where from)\n`);
    return 2;
  }
  const server = await latest(found.source);
  if (server.version === found.source.version) {
    io.stdout(`${found.key} is up to date: ${server.name} ${server.version}\n`);
    return 0;
  }
  const outcome = planUpdate(found.key, found.entry, server, kind === 'dot-mcp-json' ? 'environment' : 'inputs');
  if (!outcome.ok) {
    io.stderr(`mcp-host: ${found.key} was not updated to ${server.version}:\n${outcome.reasons.map((r) => `  - ${r}`).join('\n')}\n`);
    return 2;
  }
  writeFileSync(file, addPlannedEntry(text, kind, outcome.plan, { replace: true, registryUrl: found.source.registryUrl }));
  const lines = [`updated "${found.key}" in ${args.target}: ${server.name} ${found.source.version} → ${server.version}`, `  ${describeEntry(outcome.plan.entry)}`];
  for (const warning of outcome.plan.warnings) lines.push(`  note: ${warning}`);
  lines.push('  a changed command or URL is shown for your consent again before the server starts');
  io.stdout(lines.join('\n') + '\n');
  return 0;
}
