// Turns a server.json document into a config entry: a package (npm → npx, pypi → uvx, nuget →
// dnx, oci → docker run) or a remote (streamable-http → "http", sse) with its URL template
// filled. What the user must supply (required arguments, environment variables, headers, URL
// variables) becomes a `${input:…}` prompt in `.vscode/mcp.json` and settings (secret ones with
// `password: true`, so the value lives in SecretStorage) or an `${ENV}` reference in `.mcp.json`,
// which has no inputs: no value is ever written. An unsafe entry is refused with its reasons.
import { RegistryArgument, RegistryInput, RegistryPackage, RegistryRemote, ServerDetail, KeyValueInput } from './serverJson';
import { dockerArgumentWarning, keyProblem, literalProblem, packageNameProblem, remoteUrlProblem, valueProblem, versionProblem } from './installSafety';

/** Where the entry goes: `.vscode/mcp.json` and settings have inputs; `.mcp.json` reads the environment. */
export type InstallDialect = 'inputs' | 'environment';

/** Which way of running the server to install. */
export type InstallChoice = { readonly kind: 'package'; readonly index: number } | { readonly kind: 'remote'; readonly index: number };

/** An input definition as `.vscode/mcp.json` holds it. */
export interface PlannedInput {
  readonly type: 'promptString' | 'pickString';
  readonly id: string;
  readonly description: string;
  readonly password?: boolean;
  readonly default?: string;
  readonly options?: readonly string[];
}

export interface InstallPlan {
  /** The entry's key under `servers` / `mcpServers`. */
  readonly key: string;
  readonly entry: Record<string, unknown>;
  /** Inputs the entry uses (dialect `inputs`). */
  readonly inputs: readonly PlannedInput[];
  /** Environment variables the user must set (dialect `environment`), secret ones marked. */
  readonly environment: readonly { readonly name: string; readonly description: string; readonly secret: boolean }[];
  /** Shown plainly before and after install (wide Docker rights, options left out). */
  readonly warnings: readonly string[];
  /** The registry name and version installed. */
  readonly source: { readonly name: string; readonly version: string };
}

export type PlanOutcome = { readonly ok: true; readonly plan: InstallPlan } | { readonly ok: false; readonly reasons: readonly string[] };

/** The ways `server` can be installed, in the order its document lists them, with a label each. */
export function installChoices(server: ServerDetail): { choice: InstallChoice; label: string }[] {
  const packages = (server.packages ?? []).map((p, index) => ({ choice: { kind: 'package', index } as InstallChoice, label: `${p.registryType} ${p.identifier}${p.version && p.registryType !== 'oci' ? `@${p.version}` : ''}` }));
  const remotes = (server.remotes ?? []).map((r, index) => ({ choice: { kind: 'remote', index } as InstallChoice, label: `remote ${r.type} ${r.url}` }));
  return [...packages, ...remotes];
}

/** The default entry key: the part of the registry name after the slash. */
export function entryKeyFor(server: ServerDetail): string {
  return server.name.slice(server.name.indexOf('/') + 1).replace(/[^A-Za-z0-9._-]/g, '-');
}

/** Plans the install of `choice` (default: the first package, else the first remote). */
export function planInstall(server: ServerDetail, dialect: InstallDialect, options: { choice?: InstallChoice; key?: string } = {}): PlanOutcome {
  const choice = options.choice ?? installChoices(server)[0]?.choice;
  if (!choice) return { ok: false, reasons: [`${server.name} has no package or remote to install${server.websiteUrl ? ` (see ${server.websiteUrl})` : ''}`] };
  const key = options.key ?? entryKeyFor(server);
  const planner = new Planner(key, dialect);
  let entry: Record<string, unknown> | undefined;
  if (choice.kind === 'package') {
    const pkg = server.packages?.[choice.index];
    if (!pkg) return { ok: false, reasons: [`${server.name} has no package ${choice.index + 1}`] };
    entry = planner.packageEntry(pkg);
  } else {
    const remote = server.remotes?.[choice.index];
    if (!remote) return { ok: false, reasons: [`${server.name} has no remote ${choice.index + 1}`] };
    entry = planner.remoteEntry(remote);
  }
  if (planner.refusals.length || !entry) return { ok: false, reasons: [...new Set(planner.refusals)] };
  return { ok: true, plan: { key, entry, inputs: planner.inputs, environment: planner.environment, warnings: planner.warnings, source: { name: server.name, version: server.version } } };
}

/** The entry's command line (or URL) as one line, for consent-like summaries. */
export function describeEntry(entry: Record<string, unknown>): string {
  if (typeof entry.url === 'string') return `${String(entry.type)} ${entry.url}`;
  const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
  return [String(entry.command), ...args].map((a) => (/^[\w@%+=:,./${}-]+$/.test(a) ? a : JSON.stringify(a))).join(' ');
}

class Planner {
  readonly refusals: string[] = [];
  readonly warnings: string[] = [];
  readonly inputs: PlannedInput[] = [];
  readonly environment: { name: string; description: string; secret: boolean }[] = [];

  constructor(
    private readonly key: string,
    private readonly dialect: InstallDialect,
  ) {}

  packageEntry(pkg: RegistryPackage): Record<string, unknown> | undefined {
    const type = pkg.registryType;
    if (type === 'mcpb') {
      this.refusals.push(`MCP bundles (mcpb) are not installed yet: download ${pkg.identifier}, check its SHA-256 (${pkg.fileSha256 ?? 'none given'}) and add it by hand`);
      return undefined;
    }
    if (pkg.transport.type !== 'stdio') {
      this.refusals.push(`a ${type} package that serves ${pkg.transport.type} is not installed yet (only stdio packages and remotes)`);
      return undefined;
    }
    this.refuse(packageNameProblem(type, pkg.identifier));
    if (pkg.version) this.refuse(versionProblem(pkg.version));
    const runtime = this.arguments(pkg.runtimeArguments ?? [], 'runtime argument');
    const own = this.arguments(pkg.packageArguments ?? [], 'package argument');
    const env = this.keyValues(pkg.environmentVariables ?? [], 'environment variable');
    const versioned = (separator: string) => (pkg.version ? `${pkg.identifier}${separator}${pkg.version}` : pkg.identifier);
    let command: string;
    let args: string[];
    switch (type) {
      case 'npm':
        command = 'npx';
        args = [...runtime, ...(runtime.includes('-y') || runtime.includes('--yes') ? [] : ['-y']), versioned('@'), ...own];
        break;
      case 'pypi':
        command = 'uvx';
        args = [...runtime, versioned('=='), ...own];
        break;
      case 'nuget':
        command = 'dnx';
        args = [...runtime, versioned('@'), '--yes', ...(own.length ? ['--', ...own] : [])];
        break;
      case 'oci': {
        command = 'docker';
        // The image's environment comes through `-e NAME` (docker passes the value from its own env).
        const image = pkg.version && !/[:@]/.test(pkg.identifier.split('/').pop() ?? '') ? versioned(':') : pkg.identifier;
        args = ['run', '-i', '--rm', ...runtime, ...Object.keys(env).flatMap((name) => ['-e', name]), image, ...own];
        this.warnings.push(...dockerArgumentWarning(runtime));
        break;
      }
      default:
        this.refusals.push(`packages of type "${type}" are not installed yet (npm, pypi, nuget, oci and remotes are)`);
        return undefined;
    }
    return { type: 'stdio', command, args, ...(Object.keys(env).length ? { env } : {}) };
  }

  remoteEntry(remote: RegistryRemote): Record<string, unknown> | undefined {
    this.refuse(remoteUrlProblem(remote.url));
    const url = this.template(remote.url, remote.variables ?? {}, 'URL variable');
    const headers = this.keyValues(remote.headers ?? [], 'header');
    return { type: remote.type === 'sse' ? 'sse' : 'http', url, ...(Object.keys(headers).length ? { headers } : {}) };
  }

  private refuse(problem: string | undefined): void {
    if (problem) this.refusals.push(problem);
  }

  /** The command-line words of `list`; optional arguments without a value are left out (and said). */
  private arguments(list: readonly RegistryArgument[], what: string): string[] {
    const words: string[] = [];
    for (const arg of list) {
      const label = arg.type === 'named' ? arg.name : (arg.valueHint ?? 'argument');
      if (arg.type === 'named') this.refuse(literalProblem(`${what} name`, arg.name));
      const value = this.valueOf(arg, label, what, { check: literalProblem });
      if (value === undefined) {
        this.warnings.push(`the optional ${what} ${label} was left out`);
        continue;
      }
      words.push(...(arg.type === 'named' ? [arg.name, value] : [value]));
    }
    return words;
  }

  /** Environment variables or headers: name → value (or the reference to the value). */
  private keyValues(list: readonly KeyValueInput[], what: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const item of list) {
      this.refuse(keyProblem(what, item.name));
      const value = this.valueOf(item, item.name, what, { check: valueProblem, defaultAsLiteral: true });
      if (value !== undefined) out[item.name] = value;
      else this.warnings.push(`the optional ${what} ${item.name} was left out`);
    }
    return out;
  }

  /**
   * The value written for an input: its fixed `value` with `{variables}` asked for, a prompt
   * when it is required or secret, the default when `defaultAsLiteral` (never for secrets), or
   * undefined to leave it out.
   */
  private valueOf(input: RegistryInput & { variables?: Record<string, RegistryInput> }, label: string, what: string, how: { check: (what: string, value: string) => string | undefined; defaultAsLiteral?: boolean }): string | undefined {
    if (input.value !== undefined) {
      this.refuse(how.check(`${what} ${label}`, input.value));
      return this.template(input.value, input.variables ?? {}, `${label} variable`, how.check);
    }
    if (input.isRequired || input.isSecret) return this.ask(label, input);
    if (how.defaultAsLiteral && input.default !== undefined) {
      this.refuse(how.check(`${what} ${label}`, input.default));
      return input.default;
    }
    return undefined;
  }

  /** `{name}` of `template` replaced by a prompt for `variables[name]`; unknown names stay (as the schema says). */
  private template(template: string, variables: Record<string, RegistryInput>, what: string, check = literalProblem): string {
    return template.replace(/\{([A-Za-z0-9_.-]+)\}/g, (whole, name: string) => {
      const variable = variables[name];
      if (!variable) return whole;
      if (variable.value !== undefined) {
        this.refuse(check(`${what} ${name}`, variable.value));
        return variable.value;
      }
      return this.ask(name, variable);
    });
  }

  /** A prompt for `label`: an input (one per id) or an environment variable reference. */
  private ask(label: string, input: RegistryInput): string {
    const plain = label.replace(/^-+/, '').replace(/[^A-Za-z0-9_]+/g, '_');
    const description = input.description ?? label;
    if (this.dialect === 'environment') {
      const name = plain.toUpperCase();
      if (!this.environment.some((e) => e.name === name)) this.environment.push({ name, description, secret: input.isSecret === true });
      return input.default !== undefined && !input.isSecret && !/[}$]/.test(input.default) ? `\${${name}:-${input.default}}` : `\${${name}}`;
    }
    const id = `${this.key}-${plain}`;
    if (!this.inputs.some((i) => i.id === id)) {
      const choices = input.choices?.length ? input.choices : undefined;
      this.inputs.push({
        type: choices ? 'pickString' : 'promptString',
        id,
        description,
        ...(input.isSecret ? { password: true } : {}),
        ...(input.default !== undefined && !input.isSecret ? { default: input.default } : {}),
        ...(choices ? { options: choices } : {}),
      });
    }
    return `\${input:${id}}`;
  }
}
