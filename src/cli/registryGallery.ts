// `mcp-host registry search|show|install`: the MCP Registry from the command line. Searching and
// showing only read; install writes one entry into `.vscode/mcp.json` (inputs for what the user
// must supply) or `.mcp.json` (environment references), never a secret value, and refuses unsafe
// entries with the reasons. The work is in src/gallery/; this is argument parsing and printing.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { OFFICIAL_REGISTRY_URL, RegistryClient, RegistryError, SearchPage } from '../gallery/registryClient';
import { ServerResponse, entryStatus, installKinds } from '../gallery/serverJson';
import { InstallChoice, describeEntry, installChoices, planInstall } from '../gallery/installPlan';
import { ConfigWriteError, addPlannedEntry } from '../gallery/configWrite';
import { UsageError } from './usageError';
import { configFileKind, runRegistryUpdates, targetFile } from './registryUpdates';

interface RegistryIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

interface RegistryArguments {
  readonly verb: 'search' | 'show' | 'install' | 'outdated' | 'update';
  readonly operand?: string;
  readonly registry: string;
  readonly tokenEnv?: string;
  readonly json: boolean;
  readonly limit?: number;
  readonly cursor?: string;
  readonly version?: string;
  readonly target: string;
  readonly use?: number;
  readonly name?: string;
}

const VALUE_FLAGS = new Set(['--registry', '--registry-token-env', '--limit', '--cursor', '--version', '--target', '--use', '--name']);

/** Parses the words after `registry`. Throws UsageError on a mistake. */
export function parseRegistryArguments(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): RegistryArguments {
  const [verb, ...rest] = argv;
  if (verb !== 'search' && verb !== 'show' && verb !== 'install' && verb !== 'outdated' && verb !== 'update') throw new UsageError(`registry takes search, show, install, outdated or update${verb ? `, not "${verb}"` : ''}`);
  const values = new Map<string, string>();
  const positionals: string[] = [];
  let json = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === '--json') json = true;
    else if (VALUE_FLAGS.has(arg.split('=')[0])) {
      const eq = arg.indexOf('=');
      const value = eq > 0 ? arg.slice(eq + 1) : rest[++i];
      if (value === undefined) throw new UsageError(`${arg} needs a value`);
      values.set(eq > 0 ? arg.slice(0, eq) : arg, value);
    } else if (arg.startsWith('-')) throw new UsageError(`registry ${verb}: unknown option ${arg}`);
    else positionals.push(arg);
  }
  if ((verb === 'show' || verb === 'install') && positionals.length !== 1) throw new UsageError(`registry ${verb} takes one server name (such as io.github.user/weather)`);
  if (verb === 'update' && positionals.length !== 1) throw new UsageError('registry update takes the name of one entry of --target (such as weather-mcp)');
  if (verb === 'outdated' && positionals.length) throw new UsageError('registry outdated takes no name: it checks every entry of --target');
  if (positionals.length > 1) throw new UsageError('registry search takes one query (quote it)');
  const number = (flag: string): number | undefined => {
    const raw = values.get(flag);
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} takes a whole number above 0, not "${raw}"`);
    return n;
  };
  const target = values.get('--target') ?? '.vscode/mcp.json';
  if (target !== 'user' && !/(^|[\\/])(\.vscode[\\/]mcp\.json|\.mcp\.json|settings\.json)$/.test(target)) throw new UsageError(`--target is a .vscode/mcp.json, .mcp.json or settings.json file, or "user" (your VS Code user settings), not "${target}"`);
  const tokenEnv = values.get('--registry-token-env');
  if (tokenEnv !== undefined && env[tokenEnv] === undefined) throw new UsageError(`--registry-token-env ${tokenEnv}: that environment variable is not set`);
  const limit = number('--limit');
  const use = number('--use');
  return {
    verb,
    ...(positionals[0] !== undefined ? { operand: positionals[0] } : {}),
    registry: values.get('--registry') ?? env.MCP_HOST_REGISTRY_URL ?? OFFICIAL_REGISTRY_URL,
    ...(tokenEnv ? { tokenEnv } : {}),
    json,
    ...(limit ? { limit } : {}),
    ...(values.has('--cursor') ? { cursor: values.get('--cursor')! } : {}),
    ...(values.has('--version') ? { version: values.get('--version')! } : {}),
    target,
    ...(use ? { use } : {}),
    ...(values.has('--name') ? { name: values.get('--name')! } : {}),
  };
}

/** Runs `mcp-host registry …`; returns the exit status (0, or 2 for usage, registry and install failures). */
export async function runRegistryCli(argv: readonly string[], io: RegistryIo, options: { cwd?: string; env?: NodeJS.ProcessEnv; signal?: AbortSignal } = {}): Promise<number> {
  const env = options.env ?? process.env;
  try {
    const args = parseRegistryArguments(argv, env);
    const client = new RegistryClient({ baseUrl: args.registry, ...(args.tokenEnv ? { token: () => env[args.tokenEnv!] } : {}) });
    switch (args.verb) {
      case 'search': {
        const page = await client.search({ ...(args.operand ? { search: args.operand } : {}), limit: args.limit ?? 30, ...(args.cursor ? { cursor: args.cursor } : {}) }, options.signal);
        io.stdout((args.json ? JSON.stringify(page, null, 2) : renderSearch(page)) + '\n');
        return 0;
      }
      case 'show': {
        const entry = await client.server(args.operand!, args.version ?? 'latest', options.signal);
        io.stdout((args.json ? JSON.stringify(entry, null, 2) : renderShow(entry)) + '\n');
        return 0;
      }
      case 'install':
        return await install(client, args, io, resolve(options.cwd ?? process.cwd()), env, options.signal);
      case 'outdated':
      case 'update':
        return await runRegistryUpdates({ ...args, verb: args.verb }, io, targetFile(args.target, resolve(options.cwd ?? process.cwd()), env), env, options.signal);
    }
  } catch (error) {
    const lines = error instanceof UsageError ? [error.message, `Run 'mcp-host --help' for usage.`] : [error instanceof Error ? error.message : String(error)];
    if (error instanceof RegistryError && error.reason === 'unauthorized') lines.push('give the token in an environment variable: --registry-token-env VAR');
    io.stderr(lines.map((l, i) => (i === 0 ? `mcp-host: ${l}` : l)).join('\n') + '\n');
    return 2;
  }
}

async function install(client: RegistryClient, args: RegistryArguments, io: RegistryIo, cwd: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<number> {
  const { server } = await client.server(args.operand!, args.version ?? 'latest', signal);
  const file = targetFile(args.target, cwd, env);
  const kind = configFileKind(file);
  const choices = installChoices(server);
  let choice: InstallChoice | undefined;
  if (args.use !== undefined) {
    choice = choices[args.use - 1]?.choice;
    if (!choice) throw new UsageError(`--use ${args.use}: ${server.name} has ${choices.length} way(s) to install (see registry show)`);
  }
  const outcome = planInstall(server, kind === 'dot-mcp-json' ? 'environment' : 'inputs', { ...(choice ? { choice } : {}), ...(args.name ? { key: args.name } : {}) });
  if (!outcome.ok) {
    io.stderr(`mcp-host: ${server.name} ${server.version} was not installed:\n${outcome.reasons.map((r) => `  - ${r}`).join('\n')}\n`);
    return 2;
  }
  const plan = outcome.plan;
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
  let after: string;
  try {
    after = addPlannedEntry(before, kind, plan, { registryUrl: args.registry });
  } catch (error) {
    if (error instanceof ConfigWriteError) throw new Error(`${args.target}: ${error.message}`);
    throw error;
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, after);
  const where = args.target === 'user' ? `your user settings (${file})` : args.target;
  const lines = [`installed ${server.name} ${server.version} as "${plan.key}" in ${where}:`, `  ${describeEntry(plan.entry)}`];
  for (const input of plan.inputs) lines.push(`  asks for ${input.id}${input.password ? ' (secret: kept in SecretStorage)' : ''}: ${input.description}`);
  for (const variable of plan.environment) lines.push(`  reads $${variable.name} from the environment${variable.secret ? ' (secret)' : ''}: ${variable.description}`);
  for (const warning of plan.warnings) lines.push(`  note: ${warning}`);
  lines.push('  the server starts only after you allow it (consent shows the command)');
  io.stdout(lines.join('\n') + '\n');
  return 0;
}

function renderSearch(page: SearchPage): string {
  const lines = page.servers.map((entry) => {
    const s = entry.server;
    const status = entryStatus(entry);
    return `${s.name}  ${s.version}  [${installKinds(s).join(', ') || 'no package'}]${status === 'active' ? '' : ` (${status})`}\n    ${s.title ? `${s.title}: ` : ''}${s.description}${s.repository ? `\n    ${s.repository.url}` : ''}`;
  });
  if (!lines.length) lines.push('no servers found');
  for (const bad of page.invalid) lines.push(`skipped entry ${bad.index + 1}${bad.name ? ` "${bad.name}"` : ''}: malformed (${bad.problem})`);
  if (page.nextCursor) lines.push(`more: --cursor ${page.nextCursor}`);
  return lines.join('\n');
}

function renderShow(entry: ServerResponse): string {
  const s = entry.server;
  const lines = [`${s.name} ${s.version}${entryStatus(entry) === 'active' ? '' : ` (${entryStatus(entry)})`}`];
  if (s.title) lines.push(`title: ${s.title}`);
  lines.push(`description: ${s.description}`);
  if (s.repository) lines.push(`repository: ${s.repository.url}${s.repository.subfolder ? ` (${s.repository.subfolder})` : ''}`);
  if (s.websiteUrl) lines.push(`website: ${s.websiteUrl}`);
  const choices = installChoices(s);
  lines.push(choices.length ? 'install with --use N:' : 'nothing to install (no package or remote)');
  choices.forEach((c, i) => {
    const outcome = planInstall(s, 'inputs', { choice: c.choice });
    lines.push(`  ${i + 1}. ${c.label}${outcome.ok ? `\n     ${describeEntry(outcome.plan.entry)}` : `\n     refused: ${outcome.reasons.join('; ')}`}`);
  });
  return lines.join('\n');
}
