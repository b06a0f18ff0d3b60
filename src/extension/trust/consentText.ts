// The consent prompt's text: what a workspace-defined server runs or connects to, for one server
// or several at once. Pure, no `vscode`; the facts come from consentFacts.ts.
import { displayCommandLine, displayPath, transportLabel } from '../../protocol/redaction';

/** What the consent prompt shows of a stdio server: the exact command line. */
export interface StdioConsentFacts {
  readonly type?: 'stdio';
  readonly name: string;
  readonly sourceLabel: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** Names only: values never appear in the prompt. */
  readonly envNames: readonly string[];
  /** The sandbox it runs in, in plain lines (`describeSandbox` without its environment line), or the line saying it has none. */
  readonly sandbox?: readonly string[];
  /** Sandboxed only: what of the user's environment passes in besides `envNames` (`sandboxPassedEnvironment`). */
  readonly sandboxEnvironment?: readonly string[];
}

/** What the consent prompt shows of a remote server: where it connects and what it sends. */
export interface RemoteConsentFacts {
  readonly type: 'http' | 'sse';
  readonly name: string;
  readonly sourceLabel: string;
  /** The URL (variables substituted, inputs still as `${input:…}`). */
  readonly url: string;
  /** Header names with their values, secret ones already masked. */
  readonly headers: readonly { readonly name: string; readonly value: string }[];
  /** The pre-registered OAuth client it signs in with (`"oauth"` of the entry). */
  readonly oauth?: {
    readonly clientId: string;
    /** Where the client secret comes from, as written (`${env:NAME}`, `${input:id}`); never its value. */
    readonly clientSecretSource?: string;
    /** Fixed scopes; absent when the server's challenge or metadata chooses them. */
    readonly scopes?: readonly string[];
    readonly callbackPort?: number;
    /** The grant and where its key or token comes from (`oauthGrantFacts`); empty for the browser sign-in. */
    readonly grant?: readonly string[];
  };
}

export type ConsentFacts = StdioConsentFacts | RemoteConsentFacts;

const DENY_OR_CANCEL = 'Deny is remembered: the server stays stopped, also after a reload, until you allow it (click its row, or start it). Cancel decides nothing: the server waits, and you are asked again when you start it.';

/** The modal consent prompt: a one-line question and a detail block with the exact command or URL. */
export function consentPrompt(f: ConsentFacts): { message: string; detail: string } {
  const remote = 'url' in f;
  return {
    message: `Start the MCP server "${f.name}" defined in this workspace?`,
    detail: [
      `Defined in: ${f.sourceLabel}`,
      ...consentFactLines(f),
      '',
      remote ? 'MCP Host connects to this URL and sends it these headers. Allow it only if you trust this workspace.' : runsAs(f),
      DENY_OR_CANCEL,
    ].join('\n'),
  };
}

/**
 * What a server runs or connects to, one fact a line: the command, working directory and the
 * names of the variables it sets; or the URL, transport, headers and OAuth client. Variables are
 * as written (see `consentFacts`), never their values.
 */
export function consentFactLines(f: ConsentFacts): string[] {
  if ('url' in f) {
    const headers = f.headers.length ? f.headers.map((h) => `  ${h.name}: ${h.value}`) : ['  (none)'];
    const oauth = f.oauth
      ? [
          'Signs in as the OAuth client:',
          `  Client id: ${f.oauth.clientId}`,
          ...(f.oauth.clientSecretSource !== undefined ? [`  Client secret: ${f.oauth.clientSecretSource} (its value is sent to the token endpoint the server's authorization server names)`] : []),
          `  Scopes: ${f.oauth.scopes?.length ? f.oauth.scopes.join(' ') : '(those the server asks for)'}`,
          ...(f.oauth.callbackPort !== undefined ? [`  Redirect: http://127.0.0.1:${f.oauth.callbackPort}/callback`] : []),
          ...(f.oauth.grant ?? []).map((line) => `  ${line}`),
        ]
      : [];
    return [`URL: ${f.url}`, `Transport: ${transportLabel(f.type)}`, 'Headers it sends:', ...headers, ...oauth];
  }
  return [`Command: ${displayCommandLine(f.command, f.args)}`, ...(f.sandbox ?? []), `Working directory: ${displayPath(f.cwd)}`, environmentLine(f)];
}

/**
 * The one line on the environment: the variables the entry sets, and for a sandboxed server also
 * the only ones of the user's that pass in (unsandboxed, it inherits them all: "runs with your user rights").
 */
function environmentLine(f: StdioConsentFacts): string {
  const sets = [...f.envNames].sort().join(', ');
  if (!f.sandboxEnvironment) return `Environment variables it sets: ${sets || '(none)'}`;
  const yours = listInWords(f.sandboxEnvironment);
  return sets ? `Environment: only the variables it sets (${sets}) and your ${yours}.` : `Environment: only your ${yours} (it sets none).`;
}

/** "a, b and c". */
function listInWords(items: readonly string[]): string {
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}` : (items[0] ?? '');
}

/** The line under a stdio server's facts: what it can touch once allowed. */
function runsAs(f: StdioConsentFacts): string {
  return f.sandbox && !f.sandbox[0]?.startsWith('No sandbox') ? 'The server runs in the sandbox above. Allow it only if you trust this workspace.' : 'The server runs with your user rights. Allow it only if you trust this workspace.';
}

/**
 * The one consent prompt for several servers at once: each server's facts under its name, and
 * the three answers explained.
 */
export function multiConsentPrompt(all: readonly ConsentFacts[]): { message: string; detail: string } {
  const blocks = all.map((f) => [`${f.name} — ${f.sourceLabel}`, ...consentFactLines(f).map((l) => `  ${l}`)].join('\n'));
  return {
    message: `Start ${all.length} MCP servers defined in this workspace?`,
    detail: [
      ...blocks.flatMap((b) => [b, '']),
      'Local servers run with your user rights; remote ones receive the headers shown. Allow only what you trust.',
      'Allow All starts them all. Allow Selected… lets you tick the ones to allow; the others are denied.',
      'Deny All is remembered: the servers stay stopped, also after a reload, until you allow one (click its row). Cancel decides nothing: they wait, and you are asked again when you start one.',
    ].join('\n'),
  };
}
