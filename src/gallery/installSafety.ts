// What makes a registry entry unsafe to install, decided before anything is written: a package
// name or argument with shell metacharacters (servers start without a shell, but `npx` on
// Windows and users who copy a command do go through one), a URL with credentials in it, or a
// remote that is not https (plain http only on this machine). Each finding says why.

/** Characters a shell would act on. `{…}` are allowed: server.json's own variable syntax. */
const SHELL_META = /[;&|`$<>\\()*?!'"\r\n\t\0]|\s/;

/** Package names per registry type; anything else is refused. */
const PACKAGE_NAME: Readonly<Record<string, RegExp>> = {
  npm: /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/i,
  pypi: /^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/,
  nuget: /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/,
  // registry/path/name[:tag][@sha256:digest]
  oci: /^[a-z0-9]([a-z0-9._\-/]*[a-z0-9])?(:[A-Za-z0-9_][A-Za-z0-9._-]{0,127})?(@sha256:[a-f0-9]{64})?$/,
};

const VERSION = /^[A-Za-z0-9][A-Za-z0-9.+_-]*$/;

/** Why a package identifier is refused, or undefined. */
export function packageNameProblem(registryType: string, identifier: string): string | undefined {
  if (SHELL_META.test(identifier)) return `package name ${JSON.stringify(identifier)} holds shell metacharacters`;
  if (registryType === 'mcpb') return remoteUrlProblem(identifier, { loopback: false });
  const pattern = PACKAGE_NAME[registryType];
  if (pattern && !pattern.test(identifier)) return `${JSON.stringify(identifier)} is not a valid ${registryType} package name`;
  return undefined;
}

/** Why a package version is refused, or undefined. */
export function versionProblem(version: string): string | undefined {
  return VERSION.test(version) ? undefined : `version ${JSON.stringify(version)} is not a plain version (shell metacharacters or a range)`;
}

/** Why a literal argument (or environment value) is refused: `{name}` placeholders are left out of the check. */
export function literalProblem(what: string, value: string): string | undefined {
  const literal = value.replace(/\{[A-Za-z0-9_.-]+\}/g, '');
  return SHELL_META.test(literal) ? `${what} ${JSON.stringify(value)} holds shell metacharacters` : undefined;
}

/** Why an environment or header value is refused: not a command-line word, but no line breaks (header injection). */
export function valueProblem(what: string, value: string): string | undefined {
  return /[\r\n\0]/.test(value) ? `${what} ${JSON.stringify(value)} holds a line break` : undefined;
}

/** Names of environment variables and headers: no injection through the key either. */
export function keyProblem(what: string, name: string): string | undefined {
  return /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(name) ? undefined : `${what} name ${JSON.stringify(name)} is not a plain name`;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why a URL (a remote server, a registry, a bundle) is refused: not parsable, credentials in it,
 * or not https — plain http only for this machine's loopback unless `loopback: false`.
 * `{variables}` of a URL template are checked as plain words.
 */
export function remoteUrlProblem(raw: string, options: { loopback?: boolean } = {}): string | undefined {
  let url: URL;
  try {
    url = new URL(raw.replace(/\{([A-Za-z0-9_.-]+)\}/g, 'x$1'));
  } catch {
    return `${JSON.stringify(raw.slice(0, 200))} is not a URL`;
  }
  if (url.username || url.password) return 'the URL holds credentials (user:password@); they would be written into the config file';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && options.loopback !== false && LOOPBACK.has(url.hostname)) return undefined;
  if (url.protocol === 'http:') return `plain http to ${url.hostname} (only https, or http to this machine's loopback)`;
  return `the ${url.protocol.replace(/:$/, '')} scheme (only https)`;
}

/** Docker runtime arguments that widen what a container may do: installed, but said plainly. */
export function dockerArgumentWarning(args: readonly string[]): string[] {
  const warnings: string[] = [];
  args.forEach((arg, i) => {
    const next = args[i + 1] ?? '';
    if (arg === '--privileged') warnings.push('the container runs --privileged (full access to this machine)');
    if ((arg === '--network' || arg === '--net') && next === 'host') warnings.push('the container shares the host network (--network host)');
    if (/^--(network|net)=host$/.test(arg)) warnings.push('the container shares the host network (--network host)');
    if (arg === '--pid' && next === 'host') warnings.push('the container sees the host processes (--pid host)');
    if (arg === '--cap-add') warnings.push(`the container gets the capability ${next}`);
    if ((arg === '-v' || arg === '--volume' || arg === '--mount') && /(^|[=,:])\/(:|,|$)/.test(next)) warnings.push('the container mounts the host root /');
  });
  return [...new Set(warnings)];
}
