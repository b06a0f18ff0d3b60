// Variable substitution for server definitions (stdio: command, args, env, cwd, envFile;
// remote: url and headers). Two dialects:
// - `vscode` (.vscode/mcp.json, settings): ${workspaceFolder}, ${workspaceFolder:name},
//   ${workspaceFolderBasename}, ${userHome}, ${env:NAME}, ${input:id}, ${pathSeparator}, ${/}.
// - `claude` (.mcp.json): the above, plus ${NAME} and ${NAME:-default} for environment
//   variables, as Claude Code expands them in the same file.
// A leading `~` in command, args, cwd and envFile means the user's home directory.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseDotenv } from './dotenv';
import { ConfigSource, RemoteServerConfig, ServerEntry, StdioServerConfig } from './types';

export type VariableDialect = 'vscode' | 'claude';

/** What variables resolve against. The VS Code layer builds it; tests build it by hand. */
export interface VariableContext {
  /** What `${workspaceFolder}` means; `resolveEntry` sets it to the folder holding the config. */
  readonly workspaceFolder?: string;
  /** Workspace folders by name, in workspace order: `${workspaceFolder:name}`. */
  readonly folders: Readonly<Record<string, string>>;
  readonly userHome: string;
  /** The environment the child inherits and `${env:NAME}` reads (usually `process.env`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * The value of `${input:id}`. The VS Code layer asks once and remembers (passwords in
   * SecretStorage); a rejection (the user cancelled) aborts the resolution with that error.
   */
  resolveInput(id: string): Promise<string>;
  /** Defaults to `process.platform`; on win32 env names are case-insensitive. */
  readonly platform?: NodeJS.Platform;
}

/** A stdio server ready to spawn: every variable substituted, every path absolute. */
export interface ResolvedStdioServer {
  readonly type: 'stdio';
  readonly command: string;
  readonly args: string[];
  /** The child's full environment: inherited, then envFile, then the config's env. */
  readonly env: Record<string, string>;
  /** Absolute working directory. */
  readonly cwd: string;
  /** Non-empty values that came from `${input:…}`: redact them from logs. */
  readonly secretValues: string[];
  /** Names of the variables the config sets (env and envFile), sorted: for the consent prompt. */
  readonly envNames: string[];
  /** Names the config removes from the inherited environment (`null` values), sorted. */
  readonly removedEnvNames: string[];
  /** The absolute envFile path, when there is one. */
  readonly envFile?: string;
  /** Non-fatal notes, e.g. envFile lines that were skipped. */
  readonly warnings: string[];
}

/** A remote server ready to connect to: `url` and `headers` substituted. */
export interface ResolvedRemoteServer {
  readonly type: 'http' | 'sse';
  /** An absolute http(s) URL. */
  readonly url: string;
  /** Sent on every request; values may be secret (see `secretHeaderNames`). */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Values never to show: non-empty `${input:…}` values, and the whole value (and the
   * credentials after the scheme) of every secret header.
   */
  readonly secretValues: string[];
  /** Headers whose value is secret: `Authorization`-like names, or a value built from an input. Sorted. */
  readonly secretHeaderNames: string[];
  readonly warnings: string[];
}

/** What `resolveEntry` gives: a stdio server to spawn or a remote one to connect to. */
export type ResolvedServer = ResolvedStdioServer | ResolvedRemoteServer;

/** Header names whose values are credentials whatever they contain. */
const CREDENTIAL_HEADER = /^(authorization|proxy-authorization|cookie)$|api[-_]?key|token|secret|password/i;

/** True when a header's value must never be shown: a credential name, or a value taken from an input. */
export function isSecretHeader(name: string, configValue: string): boolean {
  return CREDENTIAL_HEADER.test(name) || findInputReferences(configValue).length > 0;
}

/** One or more variables could not be resolved; `issues` says where and why. */
export class VariableError extends Error {
  override readonly name = 'VariableError';
  constructor(readonly issues: readonly { readonly field: string; readonly message: string }[]) {
    super(issues.map((i) => `${i.field}: ${i.message}`).join('; '));
  }
}

/** A `${…}` occurrence in a string. */
export interface VariableReference {
  /** The text between the braces. */
  readonly name: string;
  /** Offset of `$` in the string. */
  readonly start: number;
  /** Offset after `}`. */
  readonly end: number;
}

const VARIABLE = /\$\{([^}]*)\}/g;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const CLAUDE_ENV = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

/** Every `${…}` in `text`, in order. */
export function findVariables(text: string): VariableReference[] {
  const out: VariableReference[] = [];
  for (const m of text.matchAll(VARIABLE)) out.push({ name: m[1], start: m.index!, end: m.index! + m[0].length });
  return out;
}

/** The ids of `${input:id}` references in `text`, in order (repeats included). */
export function findInputReferences(text: string): string[] {
  return findVariables(text)
    .filter((v) => v.name.startsWith('input:'))
    .map((v) => v.name.slice('input:'.length));
}

/** How a variable name will resolve, decided without asking anyone. */
type Classified =
  | { kind: 'value'; value: string }
  | { kind: 'input'; id: string }
  | { kind: 'error'; message: string };

/** Static check of one variable name for the parser's warnings: undefined when it is known. */
export function checkVariableName(name: string, dialect: VariableDialect): string | undefined {
  const c = classify(name, dialect, undefined);
  return c.kind === 'error' && !c.message.startsWith('needs context:') ? c.message : undefined;
}

function classify(name: string, dialect: VariableDialect, ctx: VariableContext | undefined): Classified {
  const need = (): Classified => ({ kind: 'error', message: 'needs context: resolved later' });
  const colon = name.indexOf(':');
  const head = colon < 0 ? name : name.slice(0, colon);
  const arg = colon < 0 ? undefined : name.slice(colon + 1);
  switch (head) {
    case 'workspaceFolder':
    case 'workspaceFolderBasename': {
      if (!ctx) return need();
      let folder: string | undefined;
      if (arg === undefined) {
        folder = ctx.workspaceFolder;
        if (folder === undefined) return { kind: 'error', message: `\${${name}} needs an open workspace folder` };
      } else {
        folder = ctx.folders[arg];
        if (folder === undefined) {
          const known = Object.keys(ctx.folders);
          return { kind: 'error', message: `\${${name}}: no workspace folder is named "${arg}"${known.length ? ` (folders: ${known.map((k) => `"${k}"`).join(', ')})` : ''}` };
        }
      }
      return { kind: 'value', value: head === 'workspaceFolder' ? folder : path.basename(folder) };
    }
    case 'userHome':
      if (arg !== undefined) break;
      return ctx ? { kind: 'value', value: ctx.userHome } : need();
    case 'pathSeparator':
    case '/':
      if (arg !== undefined) break;
      return { kind: 'value', value: (ctx?.platform ?? process.platform) === 'win32' ? '\\' : '/' };
    case 'env':
      if (!arg || !ENV_NAME.test(arg)) return { kind: 'error', message: `\${${name}}: expected \${env:NAME}` };
      // Like VS Code: an unset variable becomes the empty string.
      return ctx ? { kind: 'value', value: getEnv(ctx.env, arg, ctx.platform) ?? '' } : need();
    case 'input':
      if (!arg) return { kind: 'error', message: `\${${name}}: expected \${input:id}` };
      return { kind: 'input', id: arg };
    case 'command':
    case 'config':
      return { kind: 'error', message: `\${${name}}: ${head} variables are not supported` };
  }
  if (dialect === 'claude') {
    const m = CLAUDE_ENV.exec(name);
    if (m) {
      if (!ctx) return need();
      const value = getEnv(ctx.env, m[1], ctx.platform);
      // Shell semantics: `:-` applies when the variable is unset or empty.
      if (m[2] !== undefined) return { kind: 'value', value: value ? value : m[2] };
      if (value !== undefined) return { kind: 'value', value };
      return { kind: 'error', message: `\${${name}}: the environment variable ${m[1]} is not set (write \${${m[1]}:-default} for a fallback)` };
    }
  }
  return { kind: 'error', message: `unknown variable \${${name}}` };
}

/** Reads a variable, case-insensitively on Windows. */
function getEnv(env: Readonly<Record<string, string | undefined>>, name: string, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform !== 'win32') return env[name];
  const key = Object.keys(env).find((k) => k.toUpperCase() === name.toUpperCase());
  return key === undefined ? undefined : env[key];
}

/** Sets or deletes `name`, replacing a differently-cased twin on Windows. */
function setEnv(env: Record<string, string>, name: string, value: string | null, platform: NodeJS.Platform): void {
  if (platform === 'win32') {
    for (const key of Object.keys(env)) if (key !== name && key.toUpperCase() === name.toUpperCase()) delete env[key];
  }
  if (value === null) delete env[name];
  else env[name] = value;
}

function expandTilde(value: string, home: string, platform: NodeJS.Platform): string {
  if (value === '~') return home;
  if (value.startsWith('~/') || (platform === 'win32' && value.startsWith('~\\'))) return path.join(home, value.slice(2));
  return value;
}

/**
 * Substitutes variables in a stdio server definition, reads its envFile and builds the child's
 * environment. Every unresolvable variable is reported at once (a VariableError) before any
 * input is asked for, so the user is never prompted for a server that cannot start anyway.
 * @param defaultCwd the working directory when the config has none, and the base of relative `cwd`/`envFile`.
 */
export async function resolveServer(
  config: StdioServerConfig,
  ctx: VariableContext,
  defaultCwd: string,
  options: { dialect?: VariableDialect } = {},
): Promise<ResolvedStdioServer> {
  const dialect = options.dialect ?? 'vscode';
  const platform = ctx.platform ?? process.platform;

  // Every string that takes variables, with the field name used in error messages.
  const fields: { field: string; value: string }[] = [{ field: 'command', value: config.command }];
  config.args.forEach((value, i) => fields.push({ field: `args[${i}]`, value }));
  for (const [name, value] of Object.entries(config.env)) if (value !== null) fields.push({ field: `env.${name}`, value });
  if (config.cwd !== undefined) fields.push({ field: 'cwd', value: config.cwd });
  if (config.envFile !== undefined) fields.push({ field: 'envFile', value: config.envFile });

  const { substitute, secretValues } = await substituteFields(fields, dialect, ctx);
  const pathLike = (value: string): string => expandTilde(substitute(value), ctx.userHome, platform);

  const command = pathLike(config.command);
  const args = config.args.map(pathLike);
  const cwd = config.cwd !== undefined ? path.resolve(defaultCwd, pathLike(config.cwd)) : defaultCwd;

  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.env)) if (value !== undefined) env[name] = value;
  const warnings: string[] = [];
  const setNames = new Set<string>();
  let envFile: string | undefined;
  if (config.envFile !== undefined) {
    envFile = path.resolve(defaultCwd, pathLike(config.envFile));
    let text: string;
    try {
      text = await fs.readFile(envFile, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new Error(`envFile ${envFile}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
    }
    const parsed = parseDotenv(text);
    for (const w of parsed.warnings) warnings.push(`envFile ${envFile}:${w.line}: ${w.message}`);
    for (const [name, value] of Object.entries(parsed.values)) {
      setEnv(env, name, value, platform);
      setNames.add(name);
    }
  }
  const removed: string[] = [];
  for (const [name, value] of Object.entries(config.env)) {
    // The explicit env wins over the envFile.
    setEnv(env, name, value === null ? null : substitute(value), platform);
    if (value === null) {
      removed.push(name);
      setNames.delete(name);
    } else setNames.add(name);
  }

  return {
    type: 'stdio',
    command,
    args,
    env,
    cwd,
    secretValues,
    envNames: [...setNames].sort(),
    removedEnvNames: removed.sort(),
    envFile,
    warnings,
  };
}

/**
 * Checks every variable of `fields` (all problems reported at once, as a VariableError, before
 * any input is asked for), then asks for the inputs, once each, in the order they are used.
 * Returns the substitution and the non-empty input values (to redact).
 */
async function substituteFields(
  fields: readonly { field: string; value: string }[],
  dialect: VariableDialect,
  ctx: VariableContext,
): Promise<{ substitute: (value: string) => string; secretValues: string[] }> {
  // Pass 1: classify everything without asking the user anything.
  const issues: { field: string; message: string }[] = [];
  const inputOrder: string[] = [];
  const classified = new Map<string, Classified>();
  for (const { field, value } of fields) {
    for (const ref of findVariables(value)) {
      let c = classified.get(ref.name);
      if (!c) classified.set(ref.name, (c = classify(ref.name, dialect, ctx)));
      if (c.kind === 'error') issues.push({ field, message: c.message });
      else if (c.kind === 'input' && !inputOrder.includes(c.id)) inputOrder.push(c.id);
    }
  }
  if (issues.length) throw new VariableError(issues);

  // Pass 2: ask for inputs, once each, in the order they are used.
  const inputValues = new Map<string, string>();
  for (const id of inputOrder) inputValues.set(id, await ctx.resolveInput(id));
  const secretValues = [...new Set([...inputValues.values()].filter((v) => v.length > 0))];

  const substitute = (value: string): string =>
    value.replace(VARIABLE, (_, name: string) => {
      const c = classified.get(name)!;
      return c.kind === 'value' ? c.value : c.kind === 'input' ? inputValues.get(c.id)! : '';
    });
  return { substitute, secretValues };
}

/**
 * Substitutes variables in a remote server's `url` and `headers`. The URL must then be an
 * absolute http(s) URL; a header value must not contain a line break. `preview` skips those
 * checks: a preview resolves inputs to their `${input:…}` text, which is no host name.
 */
export async function resolveRemoteServer(
  config: RemoteServerConfig,
  ctx: VariableContext,
  options: { dialect?: VariableDialect; preview?: boolean } = {},
): Promise<ResolvedRemoteServer> {
  const configHeaders = Object.entries(config.headers ?? {});
  const fields = [{ field: 'url', value: config.url }, ...configHeaders.map(([name, value]) => ({ field: `headers.${name}`, value }))];
  const { substitute, secretValues } = await substituteFields(fields, options.dialect ?? 'vscode', ctx);

  const issues: { field: string; message: string }[] = [];
  const url = substitute(config.url).trim();
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    issues.push({ field: 'url', message: `${JSON.stringify(url)} is not a URL` });
  }
  if (parsed && parsed.protocol !== 'http:' && parsed.protocol !== 'https:') issues.push({ field: 'url', message: `${JSON.stringify(url)} is not an http:// or https:// URL` });
  const headers: Record<string, string> = {};
  for (const [name, configValue] of configHeaders) {
    headers[name] = substitute(configValue);
    if (/[\r\n]/.test(headers[name])) issues.push({ field: `headers.${name}`, message: 'a header value must not contain a line break' });
  }
  if (issues.length && !options.preview) throw new VariableError(issues);
  const secret = headerSecrets(headers, config.headers);
  return { type: config.type, url, headers, secretValues: [...new Set([...secretValues, ...secret.values])], secretHeaderNames: secret.names, warnings: [] };
}

/**
 * Which of `headers` are secret (see `isSecretHeader`; `configHeaders` are the values as written,
 * where input references show) and the values to redact: each secret value whole, and the
 * credentials after its scheme ("Bearer abc…" also redacts "abc…", which may show up alone).
 */
export function headerSecrets(headers: Readonly<Record<string, string>>, configHeaders: Readonly<Record<string, string>> = headers): { names: string[]; values: string[] } {
  const names: string[] = [];
  const values = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    if (!isSecretHeader(name, configHeaders[name] ?? value)) continue;
    names.push(name);
    if (value.length > 0) values.add(value);
    const credentials = /^\S+\s+(.+)$/.exec(value)?.[1];
    if (credentials) values.add(credentials);
  }
  return { names: names.sort(), values: [...values] };
}

/**
 * The working directory a server of `source` gets when its config has none: the folder holding
 * the config; for user/workspace settings the first workspace folder, else the home directory.
 */
export function defaultCwdFor(source: ConfigSource, ctx: Pick<VariableContext, 'folders' | 'userHome'>): string {
  return source.folder?.fsPath ?? Object.values(ctx.folders)[0] ?? ctx.userHome;
}

/**
 * `resolveServer` for an entry: `${workspaceFolder}` is the folder holding the config (for
 * user/workspace settings, `ctx.workspaceFolder`), the default cwd comes from `defaultCwdFor`,
 * and `.mcp.json` entries use the `claude` dialect. `preview`: see `resolveRemoteServer`.
 */
export function resolveEntry(entry: ServerEntry, ctx: VariableContext, options: { preview?: boolean } = {}): Promise<ResolvedServer> {
  const workspaceFolder = entry.source.folder?.fsPath ?? ctx.workspaceFolder;
  const entryCtx: VariableContext = {
    workspaceFolder,
    folders: ctx.folders,
    userHome: ctx.userHome,
    env: ctx.env,
    platform: ctx.platform,
    resolveInput: (id) => ctx.resolveInput(id),
  };
  const dialect = dialectFor(entry.source);
  if (entry.config.type !== 'stdio') return resolveRemoteServer(entry.config, entryCtx, { dialect, preview: options.preview });
  return resolveServer(entry.config, entryCtx, defaultCwdFor(entry.source, ctx), { dialect });
}

/** `.mcp.json` files follow Claude Code's `${VAR}` expansion; everything else VS Code's. */
export function dialectFor(source: ConfigSource): VariableDialect {
  return source.kind === 'dot-mcp-json' ? 'claude' : 'vscode';
}
