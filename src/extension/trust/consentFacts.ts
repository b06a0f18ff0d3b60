// What a consent prompt shows of a workspace-defined server, computed from its entry. Pure (no
// `vscode` import): the start gate hands in the variable context, tests a hand-built one.
// The config layer's own files, not its index (which re-exports the parser, loaded with the first read).
import type { RemoteServerConfig, ServerEntry } from '../../config/types';
import { VariableContext, resolveEntry } from '../../config/variables';
import { maskHeaderValue, maskLiterals, maskUrlCredentials } from '../../protocol/redaction';
import type { ConsentFacts } from './consentText';
import { describeSandbox, sandboxPassedEnvironment, sandboxPolicyOf, SandboxRequirement } from '../../sandbox/policy';

/**
 * The command line or URL as it will run, with every variable whose value could be a secret left
 * as written: `${input:…}` (so nothing is asked before the user agrees) and `${env:…}` (Claude's
 * `${NAME}` too), so no value is shown. Workspace paths (`${workspaceFolder}`, `~`) are resolved:
 * they are what the user must check. Literal credentials (secret headers, URL userinfo and secret
 * query parameters) are masked; an `oauth` block is listed with where its secret comes from.
 */
export async function consentFacts(entry: ServerEntry, ctx: Omit<VariableContext, 'resolveInput' | 'keepEnvReferences'>, sandbox?: SandboxRequirement): Promise<ConsentFacts> {
  const preview = await resolveEntry(entry, { ...ctx, keepEnvReferences: true, resolveInput: async (id) => `\${input:${id}}` }, { preview: true });
  const base = { name: entry.name, sourceLabel: entry.source.label };
  if (preview.type === 'stdio') {
    const policy = sandboxPolicyOf(entry, sandbox);
    // The environment is one line of the prompt (consentFactLines): the sandbox's lines leave it out.
    return { ...base, command: preview.command, args: preview.args, sandbox: describeSandbox(policy, { environment: false }), ...(policy ? { sandboxEnvironment: sandboxPassedEnvironment(policy) } : {}), cwd: preview.cwd, envNames: preview.envNames };
  }
  const remote: Partial<RemoteServerConfig> = entry.config.type === 'stdio' ? {} : entry.config;
  const configHeaders = remote.headers ?? {};
  const secret = new Set(preview.secretHeaderNames);
  const headers = Object.entries(preview.headers).map(([name, value]) => ({ name, value: secret.has(name) ? maskHeaderValue(name, configHeaders[name] ?? '') : value }));
  const oauth = remote.oauth && {
    clientId: preview.oauth?.clientId ?? remote.oauth.clientId,
    // Always a variable reference (the parser refuses a literal); masked all the same if not.
    ...(remote.oauth.clientSecret !== undefined ? { clientSecretSource: maskLiterals(remote.oauth.clientSecret) } : {}),
    ...(remote.oauth.scopes ? { scopes: remote.oauth.scopes } : {}),
    ...(remote.oauth.callbackPort !== undefined ? { callbackPort: remote.oauth.callbackPort } : {}),
    // The oauth block's reader is in the configuration parser's chunk (workspaceConfig.ts), loaded by the first read.
    grant: (await import('../../config/oauthBlock.js')).oauthGrantFacts(remote.oauth),
  };
  return { ...base, type: preview.type, url: maskUrlCredentials(preview.url), headers, ...(oauth ? { oauth } : {}) };
}
