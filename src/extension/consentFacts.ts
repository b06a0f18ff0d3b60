// What a consent prompt shows of a workspace-defined server, computed from its entry. Pure (no
// `vscode` import): the start gate hands in the variable context, tests a hand-built one.
import { ServerEntry, VariableContext, resolveEntry } from '../config';
import { maskHeaderValue, maskLiterals, maskUrlCredentials } from '../registry/logText';
import type { ConsentFacts } from './format';

/**
 * The command line or URL as it will run, with every variable whose value could be a secret left
 * as written: `${input:…}` (so nothing is asked before the user agrees) and `${env:…}` (Claude's
 * `${NAME}` too), so no value is shown. Workspace paths (`${workspaceFolder}`, `~`) are resolved:
 * they are what the user must check. Literal credentials (secret headers, URL userinfo and secret
 * query parameters) are masked; an `oauth` block is listed with where its secret comes from.
 */
export async function consentFacts(entry: ServerEntry, ctx: Omit<VariableContext, 'resolveInput' | 'keepEnvReferences'>): Promise<ConsentFacts> {
  const preview = await resolveEntry(entry, { ...ctx, keepEnvReferences: true, resolveInput: async (id) => `\${input:${id}}` }, { preview: true });
  const base = { name: entry.name, sourceLabel: entry.source.label };
  if (preview.type === 'stdio' || entry.config.type === 'stdio') {
    if (preview.type !== 'stdio') throw new Error('unreachable: a stdio entry previews as stdio');
    return { ...base, command: preview.command, args: preview.args, cwd: preview.cwd, envNames: preview.envNames };
  }
  const config = entry.config;
  const configHeaders = config.headers ?? {};
  const secret = new Set(preview.secretHeaderNames);
  const headers = Object.entries(preview.headers).map(([name, value]) => ({ name, value: secret.has(name) ? maskHeaderValue(name, configHeaders[name] ?? '') : value }));
  const oauth = config.oauth && {
    clientId: preview.oauth?.clientId ?? config.oauth.clientId,
    // Always a variable reference (the parser refuses a literal); masked all the same if not.
    ...(config.oauth.clientSecret !== undefined ? { clientSecretSource: maskLiterals(config.oauth.clientSecret) } : {}),
    ...(config.oauth.scopes ? { scopes: config.oauth.scopes } : {}),
    ...(config.oauth.callbackPort !== undefined ? { callbackPort: config.oauth.callbackPort } : {}),
  };
  return { ...base, type: preview.type, url: maskUrlCredentials(preview.url), headers, ...(oauth ? { oauth } : {}) };
}
