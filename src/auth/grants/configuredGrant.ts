// From an entry's resolved `"oauth"` block (or the CLI's flags) to the grant the flow runs: the
// values of variables are already in the block; files (a private key, a workload token that the
// platform rotates, an ID token) are read at each token request, so a rotated file is used as it
// is now. Every value read is handed to `noteSecret` before anything could print it.
import { promises as fs } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import type { OAuthClientConfig } from '../../config/types';
import type { MachineGrant } from './machineGrant';

export interface ConfiguredGrantOptions {
  /** Told every secret read from a file, for the redactor. */
  readonly noteSecret?: (...values: string[]) => void;
}

/** The grant without a browser a block configures; undefined for the browser sign-in (`authorization_code`). */
export function configuredGrant(oauth: OAuthClientConfig, options: ConfiguredGrantOptions = {}): (() => Promise<MachineGrant>) | undefined {
  const read = (variableValue: string | undefined, file: string | undefined, what: string) => secretFrom(variableValue, file, what, options);
  switch (oauth.grant ?? 'authorization_code') {
    case 'authorization_code':
      return undefined;
    case 'client_credentials':
      return async () => ({
        kind: 'client-credentials',
        clientId: oauth.clientId,
        ...(oauth.clientSecret !== undefined ? { clientSecret: oauth.clientSecret } : { privateKey: await read(oauth.privateKey, oauth.privateKeyFile, 'the private key') }),
        ...(oauth.signingAlgorithm ? { signingAlgorithm: oauth.signingAlgorithm } : {}),
      });
    case 'workload_identity':
      return async () => ({
        kind: 'workload-identity',
        assertion: (await read(oauth.workloadToken, oauth.workloadTokenFile, 'the workload token')).trim(),
        ...(oauth.clientId ? { clientId: oauth.clientId } : {}),
        ...(oauth.clientSecret !== undefined ? { clientSecret: oauth.clientSecret } : {}),
      });
    case 'enterprise_managed': {
      const idp = oauth.idp;
      if (!idp) throw new Error('the enterprise_managed grant needs "idp"');
      return async () => ({
        kind: 'enterprise-managed',
        clientId: oauth.clientId,
        ...(oauth.clientSecret !== undefined ? { clientSecret: oauth.clientSecret } : {}),
        idp: { issuer: idp.issuer, tokenEndpoint: idp.tokenEndpoint, clientId: idp.clientId, ...(idp.clientSecret !== undefined ? { clientSecret: idp.clientSecret } : {}) },
        // Neither configured: the flow signs in to the identity provider for it (idpSignIn.ts).
        ...(oauth.idToken !== undefined || oauth.idTokenFile !== undefined ? { idToken: (await read(oauth.idToken, oauth.idTokenFile, "the identity provider's ID token")).trim() } : {}),
      });
    }
  }
}

/** A secret from its variable's value, else from its file; an error names the file, never the content. */
async function secretFrom(value: string | undefined, file: string | undefined, what: string, options: ConfiguredGrantOptions): Promise<string> {
  if (value !== undefined) {
    if (!value.trim()) throw new Error(`${what} is empty (its variable has no value)`);
    return value;
  }
  if (file === undefined) throw new Error(`${what} is not configured`);
  // The configuration refuses relative paths; `~/` is the user's home, as in a shell.
  const full = path.resolve(file.startsWith('~/') ? path.join(homedir(), file.slice(2)) : file);
  let text: string;
  try {
    text = await fs.readFile(full, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`${what} could not be read from ${full}${code ? ` (${code})` : ''}`);
  }
  if (!text.trim()) throw new Error(`${what} file ${full} is empty`);
  options.noteSecret?.(text, text.trim());
  return text;
}
