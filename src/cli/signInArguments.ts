// The sign-in flags of a `--url` (or `--config`) server: the browser sign-in's options, and the
// grants that need no browser (client credentials with a secret or a private key, workload
// identity with a token the CI system gives the job), and DPoP. Secrets are never on the command
// line: a variable's name or a file's path is, read when connecting.
import { resolve } from 'node:path';
import { clientMetadataUrlProblem } from '../auth/clientMetadataUrl';
import { UsageError } from './usageError';

/** The grants `--grant` takes (enterprise-managed authorization is configured in a `--config` entry). */
const CLI_GRANTS = ['client_credentials', 'workload_identity'] as const;
const DPOP_MODES = ['auto', 'off', 'required'] as const;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Signing in to a `--url` server that answers 401 (MCP authorization). Absent when an
 * `Authorization` header is given: that header is the credential then.
 */
export interface CliSignIn {
  /** Only print the authorization URL (`--no-browser`). */
  readonly noBrowser: boolean;
  /** Allow http and local or private addresses for a remote server's authorization (`--allow-local-auth`). */
  readonly allowLocalAuth?: boolean;
  /** Keep tokens in this directory (`--token-cache`, absolute); none kept when absent. */
  readonly tokenCache?: string;
  /** A pre-registered client (`--client-id`). */
  readonly clientId?: string;
  /** The environment variable holding its secret (`--client-secret-env`); read when connecting. */
  readonly clientSecretEnv?: string;
  /** The URL of a client id metadata document the user hosts (`--client-metadata-url`). */
  readonly clientMetadataUrl?: string;
  /** Scopes to ask for instead of the server's (`--scope`, space or comma separated). */
  readonly scope?: readonly string[];
  /** A grant without a browser (`--grant`). */
  readonly grant?: (typeof CLI_GRANTS)[number];
  /** The client's private key for private_key_jwt (`--private-key-file`, absolute). */
  readonly privateKeyFile?: string;
  /** Where the workload token is read (`--workload-token-file`, absolute, or `--workload-token-env`). */
  readonly workloadTokenFile?: string;
  readonly workloadTokenEnv?: string;
  /** DPoP-bound tokens (`--dpop`). */
  readonly dpop?: (typeof DPOP_MODES)[number];
}

function isCliGrant(value: string): value is (typeof CLI_GRANTS)[number] {
  return (CLI_GRANTS as readonly string[]).includes(value);
}

/** The sign-in flags, checked. */
export function signInOptions(values: ReadonlyMap<string, string>, booleans: ReadonlySet<string>): CliSignIn {
  const clientId = values.get('--client-id');
  const clientSecretEnv = values.get('--client-secret-env');
  if (clientId !== undefined && clientId.trim() === '') throw new UsageError('--client-id must not be empty');
  if (clientSecretEnv !== undefined) {
    if (clientId === undefined) throw new UsageError('--client-secret-env needs --client-id (the secret belongs to that client)');
    if (!ENV_NAME.test(clientSecretEnv)) throw new UsageError('--client-secret-env needs the name of an environment variable, not its value');
  }
  const clientMetadataUrl = values.get('--client-metadata-url');
  if (clientMetadataUrl !== undefined) {
    const problem = clientMetadataUrlProblem(clientMetadataUrl);
    if (problem) throw new UsageError(`--client-metadata-url ${problem}`);
    if (clientId !== undefined) throw new UsageError('--client-metadata-url and --client-id name two different clients: give one');
  }
  const cache = values.get('--token-cache');
  if (cache !== undefined && cache.trim() === '') throw new UsageError('--token-cache needs a directory');
  const scopeText = values.get('--scope');
  const scope = scopeText?.split(/[\s,]+/).filter(Boolean);
  if (scopeText !== undefined && !scope?.length) throw new UsageError('--scope needs at least one scope');
  const signIn: CliSignIn = {
    noBrowser: booleans.has('--no-browser'),
    ...(booleans.has('--allow-local-auth') ? { allowLocalAuth: true } : {}),
    ...(cache !== undefined ? { tokenCache: resolve(cache) } : {}),
    ...(clientId !== undefined ? { clientId } : {}),
    ...(clientSecretEnv !== undefined ? { clientSecretEnv } : {}),
    ...(clientMetadataUrl !== undefined ? { clientMetadataUrl } : {}),
    ...(scope ? { scope } : {}),
    ...grantOptions(values, clientId, clientSecretEnv),
  };
  return signIn;
}

/** `--grant` and what goes with it, checked: each grant gets exactly the credential it needs. */
function grantOptions(values: ReadonlyMap<string, string>, clientId: string | undefined, clientSecretEnv: string | undefined): Partial<CliSignIn> {
  const grant = values.get('--grant');
  const privateKeyFile = values.get('--private-key-file');
  const workloadTokenFile = values.get('--workload-token-file');
  const workloadTokenEnv = values.get('--workload-token-env');
  const dpop = values.get('--dpop');
  if (dpop !== undefined && !(DPOP_MODES as readonly string[]).includes(dpop)) throw new UsageError(`--dpop must be one of ${DPOP_MODES.join(', ')}`);
  const dpopOption = dpop !== undefined ? { dpop: dpop as CliSignIn['dpop'] } : {};
  if (grant === undefined) {
    for (const [flag, value] of [['--private-key-file', privateKeyFile], ['--workload-token-file', workloadTokenFile], ['--workload-token-env', workloadTokenEnv]] as const) {
      if (value !== undefined) throw new UsageError(`${flag} needs --grant ${flag === '--private-key-file' ? 'client_credentials' : 'workload_identity'}`);
    }
    return dpopOption;
  }
  if (!isCliGrant(grant)) {
    const hint = grant === 'enterprise_managed' ? ' (enterprise-managed authorization is configured in a --config entry\'s "oauth" block)' : '';
    throw new UsageError(`--grant must be one of ${CLI_GRANTS.join(', ')}${hint}`);
  }
  const file = (flag: string, value: string | undefined) => {
    if (value !== undefined && value.trim() === '') throw new UsageError(`${flag} needs a file`);
    if (value !== undefined && /-----BEGIN|^ey[A-Za-z0-9_-]+\./.test(value)) throw new UsageError(`${flag} needs the path of a file, not the key or token itself`);
    return value !== undefined ? resolve(value) : undefined;
  };
  if (grant === 'client_credentials') {
    if (clientId === undefined) throw new UsageError('--grant client_credentials needs --client-id');
    if ((clientSecretEnv === undefined) === (privateKeyFile === undefined)) throw new UsageError('--grant client_credentials needs one of --client-secret-env VAR and --private-key-file FILE');
    if (workloadTokenFile !== undefined || workloadTokenEnv !== undefined) throw new UsageError('--workload-token-file and --workload-token-env belong to --grant workload_identity');
    return { grant, ...(privateKeyFile !== undefined ? { privateKeyFile: file('--private-key-file', privateKeyFile)! } : {}), ...dpopOption };
  }
  if ((workloadTokenFile === undefined) === (workloadTokenEnv === undefined)) throw new UsageError('--grant workload_identity needs one of --workload-token-file FILE and --workload-token-env VAR');
  if (workloadTokenEnv !== undefined && !ENV_NAME.test(workloadTokenEnv)) throw new UsageError('--workload-token-env needs the name of an environment variable, not its value');
  if (privateKeyFile !== undefined) throw new UsageError('--private-key-file belongs to --grant client_credentials');
  return { grant, ...(workloadTokenFile !== undefined ? { workloadTokenFile: file('--workload-token-file', workloadTokenFile)! } : {}), ...(workloadTokenEnv !== undefined ? { workloadTokenEnv } : {}), ...dpopOption };
}
