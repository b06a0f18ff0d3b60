// Which servers start when, as plain decisions: the `mcpHost.startPolicy` setting and the moments it
// starts servers on its own, what the start gate decides before it asks the user anything
// (Workspace Trust, remembered consent), what a configuration change does to each server, which
// servers the first automatic start takes, a start on first use, and dev mode's restart on a file
// change. The registry and the editor (editorHost, trust/startGate, dev/devMode) call these; the
// I/O around them (dialogs, processes, watchers) stays with them. No `vscode`: unit tests drive it.
import type { ServerStatus } from './serverHandle';

/** `mcpHost.startPolicy`: when servers start without the user's Start. */
export type StartPolicy = 'onViewVisible' | 'onStartup' | 'never';

/** The setting's value as a policy; anything unknown is the default, `onViewVisible`. */
export function readStartPolicy(value: unknown): StartPolicy {
  return value === 'onStartup' || value === 'never' ? value : 'onViewVisible';
}

/** A moment at which the editor may start the configured servers on its own. */
export type StartMoment =
  /** The configuration's first read after activation, with whether the MCP Host view shows. */
  | { readonly kind: 'configurationRead'; readonly viewVisible: boolean }
  /** The MCP Host view became visible. */
  | { readonly kind: 'viewShown' }
  /** `mcpHost.startPolicy` was changed in the settings. */
  | { readonly kind: 'policyChanged' }
  /** Something needs every server now (`by`: a chat request to @mcp): a start on first use. */
  | { readonly kind: 'used'; readonly by: string };

/** Why the servers start on their own at `moment` under `policy` (the log's words), or undefined when they do not. */
export function automaticStartReason(policy: StartPolicy, moment: StartMoment): string | undefined {
  // What needs the servers starts them whatever the policy: the policy decides only when they start unasked.
  if (moment.kind === 'used') return moment.by;
  switch (policy) {
    case 'never':
      return undefined;
    case 'onStartup':
      // A view shown later changes nothing: the servers started with the window.
      return moment.kind === 'viewShown' ? undefined : 'mcpHost.startPolicy is onStartup';
    case 'onViewVisible':
      if (moment.kind === 'viewShown' || (moment.kind === 'configurationRead' && moment.viewVisible)) return 'the MCP Host view was shown';
      return undefined;
  }
}

/** What a server's first automatic start does to it: only one the user did not stop and that is stopped or failed is started. */
export function startsAutomatically(server: { readonly stoppedByUser: boolean; readonly status: ServerStatus }): boolean {
  return !server.stoppedByUser && (server.status.kind === 'stopped' || server.status.kind === 'error');
}

/** What the start gate knows of a server before it asks the user anything. */
export interface GateFacts {
  /** Defined by the workspace (.vscode/mcp.json, workspace settings): it needs trust and consent. */
  readonly workspaceDefined: boolean;
  /** Workspace Trust is granted. */
  readonly trusted: boolean;
  /** The remembered answer for this entry's current fingerprint. */
  readonly consent: 'allowed' | 'denied' | undefined;
  /** The start comes from the user's Start or Restart: a denied or dismissed consent is asked again. */
  readonly startedByUser: boolean;
  /** The consent dialog for this very fingerprint was closed without an answer. */
  readonly dismissed: boolean;
  /** The entry has `${input:…}` variables (asked once, then stored). */
  readonly hasInputs: boolean;
}

/** The gate's verdict: blocked (and why), resolved at once, or a turn with the user asking consent or inputs first. */
export type GateVerdict =
  | { readonly kind: 'blocked'; readonly why: 'untrusted' | 'denied' | 'dismissed' }
  | { readonly kind: 'resolve' }
  | { readonly kind: 'askUser'; readonly first: 'consent' | 'input' };

/**
 * Trust first (a workspace server never starts in Restricted Mode, whoever starts it), then
 * consent (a denial or a dismissal holds for automatic starts; the user's Start asks again), then
 * inputs. A server from the user's own settings needs neither trust nor consent.
 */
export function gateVerdict(facts: GateFacts): GateVerdict {
  if (facts.workspaceDefined) {
    if (!facts.trusted) return { kind: 'blocked', why: 'untrusted' };
    if (facts.consent === 'denied' && !facts.startedByUser) return { kind: 'blocked', why: 'denied' };
    if (facts.consent !== 'allowed' && !facts.startedByUser && facts.dismissed) return { kind: 'blocked', why: 'dismissed' };
  }
  const needsConsent = facts.workspaceDefined && facts.consent !== 'allowed';
  if (needsConsent) return { kind: 'askUser', first: 'consent' };
  return facts.hasInputs ? { kind: 'askUser', first: 'input' } : { kind: 'resolve' };
}

/** What the registry knows of a configured entry when a new configuration arrives. */
export type EntryFacts =
  | { readonly known: false }
  | {
      readonly known: true;
      /** The entry's fingerprint is the one the server runs with. */
      readonly unchanged: boolean;
      readonly status: ServerStatus;
      /** Running, starting, or a restart after a crash is pending. */
      readonly active: boolean;
      readonly stoppedByUser: boolean;
    };

/**
 * What a configuration update does to one entry: `start` it, `restart` it, `prepareAgain` (a
 * blocked server: trust or consent may have changed), `announce` a change that does not start it,
 * or `keep` it as it is. `autoStart` says whether the start policy has fired (or the host starts
 * every server, as the CLI does).
 */
export type ConfigurationStep = 'start' | 'restart' | 'prepareAgain' | 'announce' | 'keep';

export function configurationStep(entry: EntryFacts, autoStart: boolean): ConfigurationStep {
  if (!entry.known) return autoStart ? 'start' : 'keep';
  if (entry.unchanged) return entry.status.kind === 'blocked' ? 'prepareAgain' : 'keep';
  // A changed server the user stopped stays stopped; a running one runs the new configuration.
  return entry.active || (autoStart && !entry.stoppedByUser) ? 'restart' : 'announce';
}

/** A start on first use (`whenReady({ start: true })`): a configured server that is neither running nor starting is started first. */
export function startsOnUse(wanted: boolean | undefined, removed: boolean, status: ServerStatus): boolean {
  return wanted === true && !removed && status.kind !== 'running' && status.kind !== 'starting';
}

/** Dev mode's `dev.watch`: a watched file changed. A server the user stopped stays stopped; one that failed gets another chance with the new files. */
export function restartsOnFileChange(status: ServerStatus): boolean {
  return status.kind !== 'stopped';
}
