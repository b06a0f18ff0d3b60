// `--config FILE [--server NAME]...`: the servers of a `.vscode/mcp.json` or `.mcp.json` file,
// read and resolved by the config layer exactly as the extension reads and resolves them.
import * as os from 'node:os';
import * as path from 'node:path';
import { promises as fs } from 'node:fs';
import { ConfigSource, ConfigSourceKind, ServerEntry, loadConfigFile } from '../config';
import { ResolvedServer, VariableContext, headerSecrets, resolveEntry } from '../config/variables';
import type { SandboxPolicy } from '../sandbox/policy';
import type { CliConfigServers, CliServer, CliSignIn } from './arguments';

/** A server of the config file, ready to connect to. */
export interface ConfiguredServer {
  /** Its name in the file. */
  readonly name: string;
  readonly entry: ServerEntry;
  readonly resolved: ResolvedServer;
}

/** The config file could not give the servers asked for; the message says why. */
export class ConfigServersError extends Error {
  override readonly name = 'ConfigServersError';
}

/** The environment variable that gives `${input:id}` its value on the command line (no prompt there). */
export function inputVariableName(id: string): string {
  return `MCP_HOST_INPUT_${id.replace(/[^A-Za-z0-9]/g, '_').toUpperCase()}`;
}

/**
 * The source `file` is read as. `.vscode/mcp.json` and any file with a `servers` map take VS Code's
 * format (and variables); `.mcp.json` and files with `mcpServers` take Claude's. The workspace folder
 * is the one the extension would give it: the parent of `.vscode`, else the file's directory.
 */
export async function configSourceFor(file: string): Promise<ConfigSource> {
  const absolute = path.resolve(file);
  const dir = path.dirname(absolute);
  const inVscode = path.basename(dir) === '.vscode';
  let kind: ConfigSourceKind;
  if (inVscode && path.basename(absolute) === 'mcp.json') kind = 'vscode-mcp-json';
  else if (path.basename(absolute) === '.mcp.json') kind = 'dot-mcp-json';
  else kind = (await sniffsClaudeFormat(absolute)) ? 'dot-mcp-json' : 'vscode-mcp-json';
  const folderPath = inVscode ? path.dirname(dir) : dir;
  const folder = { name: path.basename(folderPath) || folderPath, fsPath: folderPath };
  return { kind, label: `${path.basename(absolute)} (${absolute})`, file: absolute, folder, workspaceDefined: true };
}

/** True when the file's text has an `mcpServers` key and no `servers` key (a cheap look, not a parse). */
async function sniffsClaudeFormat(file: string): Promise<boolean> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    return false; // loadConfigFile reports the file as missing or unreadable.
  }
  return /"mcpServers"\s*:/.test(text) && !/"servers"\s*:/.test(text);
}

export interface ConfigServersOptions {
  /** The environment variables resolve against and stdio servers inherit; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly userHome?: string;
  readonly platform?: NodeJS.Platform;
}

/**
 * Reads `file` and resolves the servers named in `names` (every server of the file when empty),
 * in the file's order. Problems of the file that touch a chosen server, a missing file, an unknown
 * name or a variable that cannot be resolved throw a ConfigServersError naming them.
 * `${input:id}` takes its value from the environment variable `inputVariableName(id)`.
 */
export async function loadConfigServers(file: string, names: readonly string[], options: ConfigServersOptions = {}): Promise<ConfiguredServer[]> {
  const source = await configSourceFor(file);
  const loaded = await loadConfigFile(source);
  if (!loaded.exists) throw new ConfigServersError(`--config: ${source.file} does not exist`);
  const fatal = loaded.problems.filter((p) => p.severity === 'error' && (p.kind === 'syntax' || p.serverName === undefined || names.length === 0 || names.includes(p.serverName)));
  if (fatal.length) {
    // The parser may report one fault twice (as syntax and as shape); each is said once.
    const described = [...new Set(fatal.map((p) => `${p.line}:${p.column} ${p.message}`))];
    throw new ConfigServersError(`--config: ${source.file} has ${described.length === 1 ? 'a problem' : `${described.length} problems`}: ${described.slice(0, 5).join('; ')}`);
  }
  const available = loaded.servers.map((s) => s.name);
  for (const name of names) {
    if (!available.includes(name)) throw new ConfigServersError(`--server ${JSON.stringify(name)}: ${source.file} defines ${available.length ? `only ${available.map((n) => JSON.stringify(n)).join(', ')}` : 'no servers'}`);
  }
  const chosen = names.length ? loaded.servers.filter((s) => names.includes(s.name)) : loaded.servers;
  if (chosen.length === 0) throw new ConfigServersError(`--config: ${source.file} defines no servers`);

  const env = options.env ?? process.env;
  const folder = source.folder!;
  const ctx: VariableContext = {
    workspaceFolder: folder.fsPath,
    folders: { [folder.name]: folder.fsPath },
    userHome: options.userHome ?? os.homedir(),
    env,
    ...(options.platform ? { platform: options.platform } : {}),
    resolveInput: async (id) => {
      const value = env[inputVariableName(id)];
      if (value === undefined) throw new ConfigServersError(`\${input:${id}} has no value on the command line: set the environment variable ${inputVariableName(id)}`);
      return value;
    },
  };
  const servers: ConfiguredServer[] = [];
  for (const entry of chosen) {
    try {
      servers.push({ name: entry.name, entry, resolved: await resolveEntry(entry, ctx) });
    } catch (error) {
      throw new ConfigServersError(`--server ${JSON.stringify(entry.name)}: ${(error as Error).message}`);
    }
  }
  return servers;
}

/** One server a CLI command connects to, resolved as the config layer resolves servers. */
export interface CliTarget {
  /** Its name in the config file (absent for a server given by `--` or `--url`). */
  readonly name?: string;
  readonly resolved: ResolvedServer;
  /** `http` when `--transport http` asked for Streamable HTTP only. */
  readonly httpMode: 'auto' | 'http';
  /** Sign-in for a remote server without an Authorization header. */
  readonly signIn?: CliSignIn;
  /** The config entry it comes from (`--config`): its `sandboxEnabled` and `sandbox` block apply. */
  readonly entry?: ServerEntry;
  /** The sandbox it runs in: `--sandbox`'s policy for a command after `--`, or `required` for every stdio entry of `--config`. */
  readonly sandbox?: SandboxPolicy | 'required';
}

/** The servers a command line names: the one after `--` or `--url`, or those of `--config`. */
export async function cliTargets(server: CliServer | CliConfigServers, options: ConfigServersOptions = {}): Promise<CliTarget[]> {
  switch (server.kind) {
    case 'stdio': {
      const env: Record<string, string> = {};
      for (const [name, value] of Object.entries(options.env ?? process.env)) if (value !== undefined) env[name] = value;
      // This process's environment and directory, as a shell would give them.
      const resolved: ResolvedServer = { type: 'stdio', command: server.command, args: [...server.args], env, cwd: process.cwd(), secretValues: [], envNames: [], removedEnvNames: [], warnings: [] };
      return [{ resolved, httpMode: 'auto', ...(server.sandbox ? { sandbox: server.sandbox } : {}) }];
    }
    case 'remote': {
      const secret = headerSecrets(server.headers);
      const resolved: ResolvedServer = { type: server.mode === 'sse' ? 'sse' : 'http', url: server.url, headers: server.headers, secretValues: secret.values, secretHeaderNames: secret.names, warnings: [] };
      return [{ resolved, httpMode: server.mode === 'http' ? 'http' : 'auto', ...(server.signIn ? { signIn: server.signIn } : {}) }];
    }
    case 'config': {
      const servers = await loadConfigServers(server.file, server.names, options);
      return servers.map(({ name, entry, resolved }) => {
        const hasAuthorization = resolved.type !== 'stdio' && Object.keys(resolved.headers).some((h) => h.toLowerCase() === 'authorization');
        // A pre-registered client of the entry is used unless --client-id names another.
        const clientId = resolved.type !== 'stdio' && resolved.oauth && !server.signIn.clientId ? { clientId: resolved.oauth.clientId } : {};
        return { name, resolved, entry, httpMode: 'auto', ...(server.requireSandbox ? { sandbox: 'required' as const } : {}), ...(resolved.type !== 'stdio' && !hasAuthorization ? { signIn: { ...server.signIn, ...clientId } } : {}) };
      });
    }
    default: {
      const never: never = server;
      throw new Error(`unknown server kind ${JSON.stringify(never)}`);
    }
  }
}
