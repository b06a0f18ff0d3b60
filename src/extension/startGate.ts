// The one gate a server passes before it starts in the editor: Workspace Trust, then the user's
// consent (for servers the workspace defines), then variables and inputs. The registry calls
// `prepare`; whatever needs the user runs one server at a time, so dialogs never pile up.
import * as os from 'node:os';
import * as vscode from 'vscode';
import { InputDefinition, ServerEntry, VariableContext, resolveEntry, sourceKey } from '../config';
import { PrepareResult, ServerHandle, maskHeaderValue } from '../registry';
import { ConsentStore } from './consentStore';
import { askConsent } from './consentDialogs';
import { ConsentFacts } from './format';
import { InputStore } from './inputStore';
import { Redactor } from './logFormat';
import { UNTRUSTED_REASON } from './serversTree';

export const DENIED_REASON = 'You denied this server permission to run — start it to be asked again, or run "MCP Host: Revoke Server Consent"';
export const DISMISSED_REASON = 'Waiting for your consent — start the server to be asked again';

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
    const manual = this.askAgain.delete(entry.id);
    if (entry.source.workspaceDefined) {
      if (!vscode.workspace.isTrusted) return Promise.resolve({ blocked: UNTRUSTED_REASON });
      const decision = this.consent.get(entry.id, entry.fingerprint);
      if (decision === 'denied' && !manual) return Promise.resolve({ blocked: DENIED_REASON });
      if (decision !== 'allowed' && !manual && this.dismissed.get(entry.id) === entry.fingerprint) return Promise.resolve({ blocked: DISMISSED_REASON });
    }
    const needsConsent = entry.source.workspaceDefined && this.consent.get(entry.id, entry.fingerprint) !== 'allowed';
    if (!needsConsent && entry.inputs.length === 0) return this.resolve(entry);
    // Until its dialogs are answered the server shows "waiting for consent", not "starting".
    this.setWaiting(entry.id, needsConsent ? 'consent' : 'input');
    const run = () => this.prepareWithUser(entry);
    const next = this.userTurns.then(run, run).finally(() => this.setWaiting(entry.id, undefined));
    this.userTurns = next.catch(() => undefined);
    return next;
  }

  /** Servers with a remembered consent decision. */
  consentServerIds(): string[] {
    return this.consent.ids();
  }

  /**
   * Forgets consent for the given servers (all workspace-defined ones when omitted); returns the
   * servers affected, which the caller stops so that their next start asks again.
   */
  async revokeConsent(servers: readonly ServerHandle[], ids?: readonly string[]): Promise<string[]> {
    const affected = ids ? [...ids] : servers.filter((h) => h.entry.source.workspaceDefined).map((h) => h.id);
    await this.consent.revoke(ids);
    for (const id of affected) this.dismissed.delete(id);
    this.log.info(`Consent revoked for ${ids ? ids.join(', ') : 'every server'}.`);
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
    // Asked again here: an earlier turn may have answered for this very entry.
    if (entry.source.workspaceDefined && this.consent.get(entry.id, entry.fingerprint) !== 'allowed') {
      this.log.info(`Asking consent to start "${entry.name}" (${entry.source.label}).`);
      const answer = await askConsent(await this.consentFacts(entry));
      this.log.info(`Consent for "${entry.name}": ${answer}.`);
      if (answer === 'dismissed') {
        this.dismissed.set(entry.id, entry.fingerprint);
        return { blocked: DISMISSED_REASON };
      }
      this.dismissed.delete(entry.id);
      await this.consent.set(entry.id, entry.fingerprint, answer);
      if (answer === 'denied') return { blocked: DENIED_REASON };
      if (entry.inputs.length > 0) this.setWaiting(entry.id, 'input');
    }
    return this.resolve(entry);
  }

  /**
   * What the consent dialog shows: the command line or URL as it will run, with `${input:…}`
   * left in place, so nothing is asked (and no secret is shown) before the user agrees. Secret
   * header values are shown as written, their literal credentials masked.
   */
  private async consentFacts(entry: ServerEntry): Promise<ConsentFacts> {
    const preview = await resolveEntry(entry, this.variableContext(entry, async (id) => `\${input:${id}}`), { preview: true });
    const base = { name: entry.name, sourceLabel: entry.source.label };
    if (preview.type === 'stdio') return { ...base, command: preview.command, args: preview.args, cwd: preview.cwd, envNames: preview.envNames };
    const configHeaders = entry.config.type === 'stdio' ? {} : (entry.config.headers ?? {});
    const secret = new Set(preview.secretHeaderNames);
    const headers = Object.entries(preview.headers).map(([name, value]) => ({ name, value: secret.has(name) ? maskHeaderValue(name, configHeaders[name] ?? '') : value }));
    return { ...base, type: preview.type, url: preview.url, headers };
  }

  /** Substitutes variables, asking for inputs not stored yet. */
  private async resolve(entry: ServerEntry): Promise<PrepareResult> {
    const resolved = await resolveEntry(
      entry,
      this.variableContext(entry, (id) => {
        const definition: InputDefinition = entry.inputs.find((d) => d.id === id) ?? { id, type: 'promptString' };
        return this.inputs.resolve(entry.source.file ?? sourceKey(entry.source), entry.source.label, definition);
      }),
    );
    this.redactor.add(...resolved.secretValues);
    return resolved;
  }

  private variableContext(entry: ServerEntry, resolveInput: (id: string) => Promise<string>): VariableContext {
    const folders = this.folders();
    return {
      workspaceFolder: entry.source.folder?.fsPath ?? Object.values(folders)[0],
      folders,
      userHome: os.homedir(),
      env: process.env,
      // Restricted Mode: servers from the user's settings still run, but not in (or from) these.
      untrustedFolders: vscode.workspace.isTrusted ? [] : Object.values(folders),
      resolveInput,
    };
  }
}
