// Variable substitution for server definitions (stdio: command, args, env, cwd, envFile;
// remote: url and headers). Two dialects:
// - `vscode` (.vscode/mcp.json, settings): ${workspaceFolder}, ${workspaceFolder:name},
//   ${workspaceFolderBasename}, ${userHome}, ${env:NAME}, ${input:id}, ${pathSeparator}, ${/}.
// - `claude` (.mcp.json): the above, plus ${NAME} and ${NAME:-default} for environment
//   variables, as Claude Code expands them in the same file.
// A leading `~` in command, args, cwd and envFile means the user's home directory.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { getEnv, isInside, pathWithout } from './environment';
import { parseDotenv } from './dotenv';
import { ConfigSource, OAuthClientConfig, RemoteServerConfig, ServerEntry, StdioServerConfig } from './types';
import { VARIABLE_REFERENCE, findVariables, isSecretHeader, mayBeSecret } from '../protocol/secretShapes';

// What looks like a secret is decided beside the redaction (protocol/secretShapes.ts).
export { findVariables, isSecretHeader, mayBeSecret, type VariableReference } from '../protocol/secretShapes';

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
  /**
   * Folders the user has not trusted: every workspace folder while VS Code is in Restricted
   * Mode. A server never runs inside one (no default or configured cwd, no envFile from there)
   * and never finds its command there (PATH entries inside them are dropped). Default: none.
   */
  readonly untrustedFolders?: readonly string[];
  /**
   * Leave environment variables (`${env:NAME}`, Claude's `${NAME}` and `${NAME:-default}`) as
   * written instead of reading them: for the consent prompt, which shows where a value comes
   * from, never the value.
   */
  readonly keepEnvReferences?: boolean;
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
  /** Why the server runs in `cwd` when its config does not say: for the log. */
  readonly cwdReason?: string;
  /**
   * Every non-empty value that came from an input, and every value that came from the
   * environment (`${env:…}`, Claude's `${NAME}`), the envFile or the config's `env` and may be a
   * secret (8 characters or more, not a number or boolean): redact them wherever the server's
   * command line, environment or output is shown.
   */
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
  /** The pre-registered OAuth client, variables substituted (its secret is in `secretValues`). */
  readonly oauth?: OAuthClientConfig;
  readonly warnings: string[];
}

/** What `resolveEntry` gives: a stdio server to spawn or a remote one to connect to. */
export type ResolvedServer = ResolvedStdioServer | ResolvedRemoteServer;

/** One or more variables could not be resolved; `issues` says where and why. */
export class VariableError extends Error {
  override readonly name = 'VariableError';
  constructor(readonly issues: readonly { readonly field: string; readonly message: string }[]) {
    super(issues.map((i) => `${i.field}: ${i.message}`).join('; '));
  }
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const CLAUDE_ENV = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

/** How a variable name will resolve, decided without asking anyone. */
type Classified =
  /** `fromEnv`: the value is the user's environment, so it may be a secret. */
  | { kind: 'value'; value: string; fromEnv?: boolean }
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
      if (ctx?.keepEnvReferences) return { kind: 'value', value: `\${${name}}`, fromEnv: true };
      // Like VS Code: an unset variable becomes the empty string.
      return ctx ? { kind: 'value', value: getEnv(ctx.env, arg, ctx.platform) ?? '', fromEnv: true } : need();
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
      if (ctx.keepEnvReferences) return { kind: 'value', value: `\${${name}}`, fromEnv: true };
      const value = getEnv(ctx.env, m[1], ctx.platform);
      // Shell semantics: `:-` applies when the variable is unset or empty.
      if (m[2] !== undefined) return value ? { kind: 'value', value, fromEnv: true } : { kind: 'value', value: m[2] };
      if (value !== undefined) return { kind: 'value', value, fromEnv: true };
      return { kind: 'error', message: `\${${name}}: the environment variable ${m[1]} is not set (write \${${m[1]}:-default} for a fallback)` };
    }
  }
  return { kind: 'error', message: `unknown variable \${${name}}` };
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
  options: { dialect?: VariableDialect; defaultCwdReason?: string } = {},
): Promise<ResolvedStdioServer> {
  const dialect = options.dialect ?? 'vscode';
  const platform = ctx.platform ?? process.platform;

  // Every string that takes variables, with the field name used in error messages.
  const fields: { field: string; value: string }[] = [{ field: 'command', value: config.command }];
  config.args.forEach((value, i) => fields.push({ field: `args[${i}]`, value }));
  for (const [name, value] of Object.entries(config.env)) if (value !== null) fields.push({ field: `env.${name}`, value });
  if (config.cwd !== undefined) fields.push({ field: 'cwd', value: config.cwd });
  if (config.envFile !== undefined) fields.push({ field: 'envFile', value: config.envFile });

  const { substitute, inputValues: secrets, envValues: envSecrets, classified } = await substituteFields(fields, dialect, ctx);
  const pathLike = (value: string): string => expandTilde(substitute(value), ctx.userHome, platform);

  const command = pathLike(config.command);
  const args = config.args.map(pathLike);
  const cwd = config.cwd !== undefined ? path.resolve(defaultCwd, pathLike(config.cwd)) : defaultCwd;
  const untrusted = ctx.untrustedFolders ?? [];
  const refuseUntrusted = (field: string, file: string) => {
    const folder = untrusted.find((f) => isInside(file, f, platform));
    if (folder !== undefined) throw new VariableError([{ field, message: `${file} is inside the workspace folder ${folder}, which is not trusted (Restricted Mode): trust the workspace to use it` }]);
  };
  refuseUntrusted('cwd', cwd);

  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.env)) if (value !== undefined) env[name] = value;
  const warnings: string[] = [];
  const setNames = new Set<string>();
  let envFile: string | undefined;
  if (config.envFile !== undefined) {
    envFile = path.resolve(defaultCwd, pathLike(config.envFile));
    refuseUntrusted('envFile', envFile);
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
      envSecrets.add(value);
      setEnv(env, name, value, platform);
      setNames.add(name);
    }
  }
  const removed: string[] = [];
  for (const [name, value] of Object.entries(config.env)) {
    // The explicit env wins over the envFile.
    const substituted = value === null ? null : substitute(value);
    if (value !== null && !isWorkspacePath(value, classified)) envSecrets.add(substituted!);
    setEnv(env, name, substituted, platform);
    if (value === null) {
      removed.push(name);
      setNames.delete(name);
    } else setNames.add(name);
  }

  // The command is looked up on the child's PATH (by us, and by npx or sh inside it): an
  // untrusted folder must not be able to supply it.
  const trimmedPath = untrusted.length ? pathWithout(env, untrusted, platform) : undefined;
  if (trimmedPath) {
    setEnv(env, 'PATH', trimmedPath.value, platform);
    warnings.push(`the workspace is not trusted: PATH entries that are relative or inside it are not searched: ${trimmedPath.dropped.join(', ')}`);
  }

  return {
    type: 'stdio',
    command,
    args,
    env,
    cwd,
    ...(config.cwd === undefined && options.defaultCwdReason ? { cwdReason: options.defaultCwdReason } : {}),
    secretValues: [...new Set([...secrets, ...[...envSecrets].filter(mayBeSecret)])].filter((v) => v.length > 0),
    envNames: [...setNames].sort(),
    removedEnvNames: removed.sort(),
    envFile,
    warnings,
  };
}

/**
 * Checks every variable of `fields` (all problems reported at once, as a VariableError, before
 * any input is asked for), then asks for the inputs, once each, in the order they are used.
 * Returns the substitution, the input values (always secret), the values taken from the
 * environment (secret unless they cannot be one, see mayBeSecret) and how each variable classified.
 */
async function substituteFields(
  fields: readonly { field: string; value: string }[],
  dialect: VariableDialect,
  ctx: VariableContext,
): Promise<{ substitute: (value: string) => string; inputValues: Set<string>; envValues: Set<string>; classified: ReadonlyMap<string, Classified> }> {
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
  const envValues = new Set<string>();
  for (const c of classified.values()) if (c.kind === 'value' && c.fromEnv) envValues.add(c.value);

  const substitute = (value: string): string =>
    value.replace(VARIABLE_REFERENCE, (_, name: string) => {
      const c = classified.get(name)!;
      return c.kind === 'value' ? c.value : c.kind === 'input' ? inputValues.get(c.id)! : '';
    });
  return { substitute, inputValues: new Set(inputValues.values()), envValues, classified };
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
  const oauthFields = config.oauth ? oauthVariableFields(config.oauth).map(({ field, value }) => ({ field: `oauth.${field}`, value })) : [];
  const fields = [{ field: 'url', value: config.url }, ...configHeaders.map(([name, value]) => ({ field: `headers.${name}`, value })), ...oauthFields];
  const substituted = await substituteFields(fields, options.dialect ?? 'vscode', ctx);
  const { substitute } = substituted;
  const secretValues = [...substituted.inputValues, ...[...substituted.envValues].filter(mayBeSecret)].filter((v) => v.length > 0);

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
  const oauth = config.oauth && substituteOAuth(config.oauth, substitute);
  for (const { field, value } of oauth ? oauthSecretFields(oauth) : []) if (value === '') issues.push({ field: `oauth.${field}`, message: `${field} is empty` });
  if (issues.length && !options.preview) throw new VariableError(issues);
  const secret = headerSecrets(headers, config.headers);
  // The client secret, key and tokens are secret whatever their length (an environment value is otherwise kept only when long).
  const oauthSecrets = oauth && !options.preview ? oauthSecretFields(oauth).map((f) => f.value).filter(Boolean) : [];
  return { type: config.type, url, headers, secretValues: [...new Set([...secretValues, ...secret.values, ...oauthSecrets])], secretHeaderNames: secret.names, ...(oauth ? { oauth } : {}), warnings: [] };
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
 * True for an env value that is only a path built from the workspace or home
 * (`${workspaceFolder}/src`): not worth hiding, and hiding it would hide every mention of the
 * folder. A literal value, or one with an input or environment variable in it, is a secret.
 */
function isWorkspacePath(value: string, classified: ReadonlyMap<string, Classified>): boolean {
  const refs = findVariables(value);
  if (refs.length === 0) return false;
  const secretRef = refs.some((r) => {
    const c = classified.get(r.name);
    return c?.kind !== 'value' || c.fromEnv === true;
  });
  if (secretRef) return false;
  return /^[\w./\\-]*$/.test(value.replace(VARIABLE_REFERENCE, ''));
}

/**
 * The working directory a server of `source` gets when its config has none, and why: the folder
 * holding the config; for settings the first workspace folder, else the home directory. Never
 * an untrusted folder: a server from the user's settings in a Restricted Mode window runs in the
 * home directory (or the file system root when home itself is inside an untrusted folder).
 */
export function defaultCwdFor(source: ConfigSource, ctx: Pick<VariableContext, 'folders' | 'userHome' | 'untrustedFolders' | 'platform'>): { cwd: string; reason: string } {
  const untrusted = ctx.untrustedFolders ?? [];
  const trusted = (dir: string) => !untrusted.some((f) => isInside(dir, f, ctx.platform));
  if (source.folder && trusted(source.folder.fsPath)) return { cwd: source.folder.fsPath, reason: 'the folder that holds its configuration' };
  const [first] = Object.entries(ctx.folders);
  if (!source.folder && first && trusted(first[1])) return { cwd: first[1], reason: `the first workspace folder, "${first[0]}"` };
  const why = first ? 'the workspace is not trusted (Restricted Mode), so a server from your settings does not run in its folders' : 'no workspace folder is open';
  if (trusted(ctx.userHome)) return { cwd: ctx.userHome, reason: `your home directory: ${why}` };
  const root = path.parse(ctx.userHome).root;
  return { cwd: root, reason: `the file system root: ${why}, and your home directory is inside one of them` };
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
    untrustedFolders: ctx.untrustedFolders,
    keepEnvReferences: ctx.keepEnvReferences,
    resolveInput: (id) => ctx.resolveInput(id),
  };
  const dialect = dialectFor(entry.source);
  if (entry.config.type !== 'stdio') return resolveRemoteServer(entry.config, entryCtx, { dialect, preview: options.preview });
  const placement = defaultCwdFor(entry.source, ctx);
  return resolveServer(entry.config, entryCtx, placement.cwd, { dialect, defaultCwdReason: placement.reason });
}

/** `.mcp.json` files follow Claude Code's `${VAR}` expansion; everything else VS Code's. */
export function dialectFor(source: ConfigSource): VariableDialect {
  return source.kind === 'dot-mcp-json' ? 'claude' : 'vscode';
}

/** The fields of an `"oauth"` block that may hold variables, by their path under it. */
function oauthVariableFields(oauth: OAuthClientConfig): { field: string; value: string }[] {
  const fields: [string, string | undefined][] = [
    ['clientId', oauth.clientId],
    ['clientSecret', oauth.clientSecret],
    ['privateKey', oauth.privateKey],
    ['privateKeyFile', oauth.privateKeyFile],
    ['workloadToken', oauth.workloadToken],
    ['workloadTokenFile', oauth.workloadTokenFile],
    ['idToken', oauth.idToken],
    ['idTokenFile', oauth.idTokenFile],
    ['idp.clientSecret', oauth.idp?.clientSecret],
  ];
  return fields.filter((f): f is [string, string] => f[1] !== undefined).map(([field, value]) => ({ field, value }));
}

/** The secret values of a resolved `"oauth"` block (not the files: those are read when a token is requested). */
function oauthSecretFields(oauth: OAuthClientConfig): { field: string; value: string }[] {
  return oauthVariableFields(oauth).filter(({ field }) => !field.endsWith('File') && field !== 'clientId');
}

/** The block with its variables substituted. */
function substituteOAuth(oauth: OAuthClientConfig, substitute: (text: string) => string): OAuthClientConfig {
  const out: Record<string, unknown> = { ...oauth };
  for (const { field, value } of oauthVariableFields(oauth)) if (!field.includes('.')) out[field] = substitute(value);
  if (oauth.idp) out.idp = { ...oauth.idp, ...(oauth.idp.clientSecret !== undefined ? { clientSecret: substitute(oauth.idp.clientSecret) } : {}) };
  return out as unknown as OAuthClientConfig;
}
