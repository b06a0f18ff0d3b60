// The shapes shared by the config layer (parsing, variables) and the registry. No `vscode`
// import here: the VS Code layer adapts these, it does not leak into them.
import type { ProtocolPreference } from '../client/era';
import type { RegistrySource } from './registrySource';

/**
 * Where a server definition comes from.
 * - `vscode-mcp-json`: `<folder>/.vscode/mcp.json`, VS Code's format `{ servers, inputs }`.
 * - `dot-mcp-json`: `<folder>/.mcp.json`, the `{ mcpServers }` format of Claude Desktop, Claude Code and Cursor.
 * - `settings`: the `mcpHost.servers` setting, the same shape as mcp.json's `servers` map.
 */
export type ConfigSourceKind = 'vscode-mcp-json' | 'dot-mcp-json' | 'settings';

export interface ConfigSource {
  readonly kind: ConfigSourceKind;
  /** Shown to the user, e.g. ".vscode/mcp.json (api)" or "User settings". */
  readonly label: string;
  /** Absolute file system path of the file, for file sources. */
  readonly file?: string;
  /** The workspace folder the source belongs to (file sources and folder-scoped settings). */
  readonly folder?: { readonly name: string; readonly fsPath: string };
  /** For settings: which scope the value was read from. */
  readonly scope?: 'user' | 'workspace' | 'folder';
  /** True for workspace files and workspace/folder settings: running them needs trust and consent. */
  readonly workspaceDefined: boolean;
}

export interface StdioServerConfig {
  readonly type: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  /** `null` removes an inherited variable from the child's environment. */
  readonly env: Readonly<Record<string, string | null>>;
  readonly envFile?: string;
  readonly cwd?: string;
  /** `sandboxEnabled` and the `sandbox` block (VS Code's shape, plus our keys): how the server is confined. */
  readonly sandbox?: SandboxConfig;
}

/**
 * The sandbox of a stdio server: `sandboxEnabled` turns it on; the block (the entry's `sandbox`,
 * else the file's top-level `sandbox`, as VS Code writes it) says what the server may reach.
 * Paths may start with `~/`; relative paths are relative to the workspace folder.
 */
export interface SandboxConfig {
  /** `sandboxEnabled: true`. A block without it is kept (a setting may require the sandbox) but not applied. */
  readonly enabled: boolean;
  readonly filesystem: {
    /** The workspace folders: `read` (default) or `write`. */
    readonly workspace: 'read' | 'write';
    /** Extra paths the server may read (ours; `$HOME` is hidden otherwise). */
    readonly allowRead: readonly string[];
    /** Paths the server may write (VS Code's `allowWrite`). */
    readonly allowWrite: readonly string[];
    /** Paths hidden even where they would be visible (VS Code's `denyRead`). */
    readonly denyRead: readonly string[];
    /** Paths kept read-only even inside a writable one (VS Code's `denyWrite`). */
    readonly denyWrite: readonly string[];
  };
  /**
   * `none` (no `allowedDomains`, or an empty list), `all` (`["*"]`), or `hosts`: only the hosts of
   * `allowedDomains`, reached through a filtering proxy (src/sandbox/filteringProxy.ts).
   */
  readonly network: 'none' | 'all' | 'hosts';
  /** With `network: "hosts"`: the host names (`api.github.com`) and patterns (`*.github.com`) allowed. */
  readonly allowedDomains?: readonly string[];
  /** Names of this process's environment variables that pass into the sandbox (ours: `sandbox.allowEnv`). */
  readonly allowEnv: readonly string[];
}

/** The sandbox of an entry with no block: the workspace read-only, `$HOME` hidden, no network, no variables. */
export const DEFAULT_SANDBOX: Omit<SandboxConfig, 'enabled'> = {
  filesystem: { workspace: 'read', allowRead: [], allowWrite: [], denyRead: [], denyWrite: [] },
  network: 'none',
  allowEnv: [],
};

/** An HTTP or SSE server. */
export interface RemoteServerConfig {
  readonly type: 'http' | 'sse';
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** A client registered with the server's authorization server ahead of time (MCP authorization). */
  readonly oauth?: OAuthClientConfig;
}

/**
 * `"oauth"` of a remote server: the pre-registered client to sign in with, and the grant. Every
 * secret (client secret, private key, workload token, ID token) is a variable reference
 * (`${input:…}` with `password: true`, or `${env:…}`) or, for keys and tokens, a file path
 * (`…File`), never a literal.
 */
export interface OAuthClientConfig {
  /** Empty only for a workload identity grant whose authorization server wants no client id. */
  readonly clientId: string;
  readonly clientSecret?: string;
  /** How tokens are obtained; default `authorization_code` (the browser sign-in). */
  readonly grant?: OAuthGrantName;
  /** A private key (PEM) for private_key_jwt: a variable, or `privateKeyFile`. */
  readonly privateKey?: string;
  readonly privateKeyFile?: string;
  /** The JWS algorithm of the private key (default by its type: ES256, RS256). */
  readonly signingAlgorithm?: string;
  /** The workload's token (workload_identity): a variable, or `workloadTokenFile` (read at each token request). */
  readonly workloadToken?: string;
  readonly workloadTokenFile?: string;
  /** The enterprise identity provider (enterprise_managed). */
  readonly idp?: EnterpriseIdpConfig;
  /** The user's ID token from the identity provider (enterprise_managed): a variable, or `idTokenFile`; neither: MCP Host signs in to the IdP in the browser. */
  readonly idToken?: string;
  readonly idTokenFile?: string;
  /** DPoP-bound tokens: `auto` (default, when the authorization server offers them), `off`, `required`. */
  readonly dpop?: 'auto' | 'off' | 'required';
  /** Scopes to ask for instead of the server's challenge or metadata. */
  readonly scopes?: readonly string[];
  /** The loopback port of the redirect URI registered with the client (`http://127.0.0.1:<port>/callback`). */
  readonly callbackPort?: number;
}

/** The grants an `"oauth"` block may name. */
export const OAUTH_GRANTS = ['authorization_code', 'client_credentials', 'enterprise_managed', 'workload_identity'] as const;
export type OAuthGrantName = (typeof OAUTH_GRANTS)[number];

/** `"oauth.idp"`: the enterprise identity provider of enterprise-managed authorization. */
export interface EnterpriseIdpConfig {
  readonly issuer: string;
  readonly tokenEndpoint: string;
  readonly clientId: string;
  readonly clientSecret?: string;
}

export type ServerConfig = StdioServerConfig | RemoteServerConfig;

export interface ServerEntry {
  /** Stable across reloads: `${sourceKey(source)}::${name}`. The same name in two sources gives two ids. */
  readonly id: string;
  readonly name: string;
  readonly source: ConfigSource;
  readonly config: ServerConfig;
  /**
   * Hash of the canonical JSON of the raw entry and of the input definitions it references.
   * Unchanged by whitespace, comments, key order or edits elsewhere in the file; used for change
   * detection (restart) and consent (ask again when it changes).
   */
  readonly fingerprint: string;
  /** The definitions of the `${input:…}` variables the entry references (from the same source), in first-use order. */
  readonly inputs: readonly InputDefinition[];
  /** The entry's `timeout` (seconds, as Cline writes it): its request timeout for inspect calls. */
  readonly timeoutSeconds?: number;
  /** The entry's `protocolVersion`: the era or version it is pinned to (else the host's setting applies). */
  readonly protocolVersion?: ProtocolPreference;
  /** The entry's `dev` (VS Code's field): restart on changes of watched files, start under a debugger. */
  readonly dev?: DevOptions;
  /** The MCP Registry entry it was installed from (its `gallery` and `version` fields). */
  readonly registrySource?: RegistrySource;
}

/** `dev` of a server entry, for developing the server itself. */
export interface DevOptions {
  /** A glob, relative to the folder holding the config: a change of a matching file restarts the server. */
  readonly watch?: string;
  /** Start the server under a debugger: `node` (Node's inspector) or `debugpy` (Python). */
  readonly debug?: { readonly type: string };
}

export interface InputDefinition {
  readonly id: string;
  readonly type: 'promptString' | 'pickString';
  readonly description?: string;
  /** promptString: mask the value while typing and keep it in secret storage. */
  readonly password?: boolean;
  /** pickString: the values to pick from. */
  readonly options?: readonly string[];
  readonly default?: string;
}

export interface ConfigProblem {
  readonly source: ConfigSource;
  readonly severity: 'error' | 'warning';
  /** `syntax`: the file is not valid JSONC (then no server of the file loads); `schema`: a value has the wrong shape. */
  readonly kind: 'syntax' | 'schema';
  readonly message: string;
  /** 1-based; 0 when the position is unknown (a settings value handed over as an object). */
  readonly line: number;
  /** 1-based, in UTF-16 code units like VS Code's columns; 0 when unknown. */
  readonly column: number;
  /** 0-based offset into the text; -1 when unknown. */
  readonly offset: number;
  readonly length: number;
  /** JSON path of the offending node, e.g. `servers.api.args[1]`. */
  readonly path: string;
  /** The server entry the problem belongs to, if any. */
  readonly serverName?: string;
}

export interface LoadedConfig {
  readonly servers: ServerEntry[];
  readonly inputs: InputDefinition[];
  readonly problems: ConfigProblem[];
}
