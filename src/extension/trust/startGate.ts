// The one gate a server passes before it starts in the editor: Workspace Trust, then the user's
// consent (for servers the workspace defines), then variables and inputs. The registry calls
// `prepare`; whatever needs the user runs one server at a time, so dialogs never pile up. What it
// decides before asking is registry/startPolicy.ts's gateVerdict; this class does the asking.
import * as os from 'node:os';
import * as vscode from 'vscode';
// The config layer's own files, not its index (which re-exports the parser, loaded with the first read).
import type { InputDefinition, ServerEntry } from '../../config/types';
import { VariableContext, resolveEntry } from '../../config/variables';
import { sourceKey } from '../../config/sources';
import { PrepareResult, ServerHandle } from '../../registry';
import { gateVerdict } from '../../registry/startPolicy';
import { ConsentStore } from './consentStore';
import { ConsentAnswer, askConsent, askConsentForAll } from './consentDialogs';
import { consentFacts } from './consentFacts';
import { sandboxRequirement } from './sandboxSettings';
import { InputStore } from '../config/inputStore';
import { Redactor } from '../logs/logFormat';
import { UNTRUSTED_REASON } from '../tree/serversTree';

export const DENIED_REASON = 'You denied this server permission to run — click to allow it';
export const DISMISSED_REASON = 'Waiting for your consent — click to be asked again';
/** What a blocked server's row says, by why the start policy blocked it. */
const BLOCKED_REASONS = { untrusted: UNTRUSTED_REASON, denied: DENIED_REASON, dismissed: DISMISSED_REASON } as const;

/**
 * How long a consent turn waits for other servers to queue before it asks: the servers started
 * together (Start All, the start policy) reach the gate a few ticks apart and get one dialog.
 */
const GATHER_MS = 100;

/** What a start waits on the user for. */
export type UserWait = 'consent' | 'input';

export class StartGate {
  /** Servers whose next `prepare` comes from the user's Start: a denied or dismissed consent is asked again. */
  private readonly askAgain = new Set<string>();
  /** The consent dialog was closed without an answer, for this fingerprint: do not ask again on its own. */
  private readonly dismissed = new Map<string, string>();
  /** Servers whose start waits on a dialog (their own or one queued before theirs), and for what. */
  private readonly waitingForUser = new Map<string, UserWait>();
  /** Chain of prepares that need the user (consent, inputs): one dialog at a time. */
  private userTurns: Promise<unknown> = Promise.resolve();
  /** Servers queued for a consent answer, latest entry by id: the next consent dialog asks them all. */
  private readonly consentQueue = new Map<string, ServerEntry>();
  /** Answers a dialog gave for servers whose own turn has not come yet, with the fingerprint asked. */
  private readonly answeredAhead = new Map<string, { fingerprint: string; answer: ConsentAnswer }>();

  constructor(
    private readonly consent: ConsentStore,
    private readonly inputs: InputStore,
    private readonly redactor: Redactor,
    private readonly log: vscode.LogOutputChannel,
    /** The workspace folders of the configuration last read (for `${workspaceFolder}` and friends). */
    private readonly folders: () => Readonly<Record<string, string>>,
    /** Something shown changed (a server waits on the user, or no longer). */
    private readonly changed: () => void,
  ) {}

  /** Runs the user's Start (or Restart) of a server: its `prepare` asks a denied or dismissed consent again. */
  async asked<T>(id: string, start: () => Promise<T>): Promise<T> {
    this.askAgain.add(id);
    try {
      return await start();
    } finally {
      this.askAgain.delete(id);
    }
  }

  /** What the server's start waits on the user for, if anything. */
  waitingFor(id: string): UserWait | undefined {
    return this.waitingForUser.get(id);
  }

  /**
   * The registry's `prepare`: trust, then consent, then variables and inputs. Whatever needs the
   * user (a consent dialog, an input prompt) runs one server at a time, in the order the servers
   * were started (the config's order), so dialogs never pile up or race each other.
   */
  prepare(entry: ServerEntry): Promise<PrepareResult> {
    const verdict = gateVerdict({
      workspaceDefined: entry.source.workspaceDefined,
      trusted: vscode.workspace.isTrusted,
      consent: this.consent.get(entry.id, entry.fingerprint),
      startedByUser: this.askAgain.delete(entry.id),
      dismissed: this.dismissed.get(entry.id) === entry.fingerprint,
      hasInputs: entry.inputs.length > 0,
    });
    if (verdict.kind === 'blocked') return Promise.resolve({ blocked: BLOCKED_REASONS[verdict.why] });
    if (verdict.kind === 'resolve') return this.resolve(entry);
    if (verdict.first === 'consent') this.consentQueue.set(entry.id, entry);
    // Until its dialogs are answered the server shows "waiting for consent", not "starting".
    this.setWaiting(entry.id, verdict.first);
    const run = () => this.prepareWithUser(entry);
    const next = this.userTurns.then(run, run).finally(() => this.setWaiting(entry.id, undefined));
    this.userTurns = next.catch(() => undefined);
    return next;
  }

  /** True for a workspace-defined server that may not start until the user allows it (denied, or never answered). */
  awaitsConsent(entry: ServerEntry): boolean {
    return entry.source.workspaceDefined && this.consent.get(entry.id, entry.fingerprint) !== 'allowed';
  }

  /** Servers with a remembered consent decision. */
  consentServerIds(): string[] {
    return this.consent.ids();
  }

  /**
   * Forgets consent for the given servers (all workspace-defined ones when omitted); returns the
   * servers affected, which the caller stops so that their next start asks again.
   */
  async forgetConsent(servers: readonly ServerHandle[], ids?: readonly string[]): Promise<string[]> {
    const affected = ids ? [...ids] : servers.filter((h) => h.entry.source.workspaceDefined).map((h) => h.id);
    await this.consent.revoke(ids);
    for (const id of affected) {
      this.dismissed.delete(id);
      this.answeredAhead.delete(id);
    }
    this.log.info(`Consent forgotten for ${ids ? ids.join(', ') : 'every server'}.`);
    return affected;
  }

  /** Deletes every stored input value; returns how many there were. */
  async clearInputs(): Promise<number> {
    const count = this.inputs.count();
    await this.inputs.clear();
    // The redactor keeps the values: running servers may still print them.
    this.log.info(`Cleared ${count} stored input value(s).`);
    return count;
  }

  private setWaiting(id: string, what: UserWait | undefined): void {
    if (what) this.waitingForUser.set(id, what);
    else this.waitingForUser.delete(id);
    this.changed();
  }

  private async prepareWithUser(entry: ServerEntry): Promise<PrepareResult> {
    const ahead = this.answeredAhead.get(entry.id);
    this.answeredAhead.delete(entry.id);
    // Asked again here: an earlier turn may have answered for this very entry.
    if (entry.source.workspaceDefined && this.consent.get(entry.id, entry.fingerprint) !== 'allowed') {
      const answer = ahead?.fingerprint === entry.fingerprint ? ahead.answer : await this.askQueuedConsent(entry);
      if (answer === 'dismissed') return { blocked: DISMISSED_REASON };
      if (answer === 'denied') return { blocked: DENIED_REASON };
      if (entry.inputs.length > 0) this.setWaiting(entry.id, 'input');
    }
    this.consentQueue.delete(entry.id);
    return this.resolve(entry);
  }

  /**
   * Asks consent for `entry` and every other server queued by then, in one dialog (the simple one
   * for a single server), and records each answer; returns the answer for `entry`.
   */
  private async askQueuedConsent(entry: ServerEntry): Promise<ConsentAnswer> {
    await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
    this.consentQueue.set(entry.id, entry);
    const batch = [...this.consentQueue.values()].filter((e) => this.consent.get(e.id, e.fingerprint) !== 'allowed');
    for (const e of batch) this.consentQueue.delete(e.id);
    this.log.info(`Asking consent to start ${batch.map((e) => `"${e.name}" (${e.source.label})`).join(', ')}.`);
    const facts = await Promise.all(batch.map((e) => consentFacts(e, this.variableContext(e), sandboxRequirement())));
    const answers = facts.length === 1 ? [await askConsent(facts[0])] : await askConsentForAll(facts);
    let mine: ConsentAnswer = 'dismissed';
    for (const [i, e] of batch.entries()) {
      const answer = answers[i];
      this.log.info(`Consent for "${e.name}": ${answer}.`);
      if (answer === 'dismissed') this.dismissed.set(e.id, e.fingerprint);
      else {
        this.dismissed.delete(e.id);
        await this.consent.set(e.id, e.fingerprint, answer);
      }
      if (e.id === entry.id) mine = answer;
      else this.answeredAhead.set(e.id, { fingerprint: e.fingerprint, answer });
    }
    return mine;
  }

  /** Substitutes variables, asking for inputs not stored yet. */
  private async resolve(entry: ServerEntry): Promise<PrepareResult> {
    const resolved = await resolveEntry(entry, {
      ...this.variableContext(entry),
      resolveInput: (id) => {
        const definition: InputDefinition = entry.inputs.find((d) => d.id === id) ?? { id, type: 'promptString' };
        return this.inputs.resolve(entry.source.file ?? sourceKey(entry.source), entry.source.label, definition);
      },
    });
    this.redactor.add(...resolved.secretValues);
    return resolved;
  }

  /** What variables resolve against, but inputs: those the caller asks for (or previews). */
  private variableContext(entry: ServerEntry): Omit<VariableContext, 'resolveInput'> {
    const folders = this.folders();
    return {
      workspaceFolder: entry.source.folder?.fsPath ?? Object.values(folders)[0],
      folders,
      userHome: os.homedir(),
      env: process.env,
      // Restricted Mode: servers from the user's settings still run, but not in (or from) these.
      untrustedFolders: vscode.workspace.isTrusted ? [] : Object.values(folders),
    };
  }
}
