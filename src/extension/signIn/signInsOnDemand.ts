// The editor's sign-ins (signIns.ts: OAuth discovery, the token store and its refresh lock, the
// sign-in dialog) load with a remote server's first request or the user's Sign In / Sign Out,
// not at activation: in the extension's bundle they are a chunk of their own, and until a server
// asked for authorization there is nothing to show (no server waits for a sign-in, none holds
// one), which is what the loaded part answers too. No `vscode` import: unit tests load it.
import type { EditorSignIns } from './signIns';
import type { ResolvedRemoteServer } from '../../config/variables';
import type { ServerEntry } from '../../config';
import type { AuthProvider } from '../../transport/httpChannel';
import { loadPartOnce } from '../onDemand';
import { SIGN_IN_REASON } from './signInReasons';


/** What this surface asks of the loaded part (EditorSignIns). */
export type SignInsPart = Pick<EditorSignIns, 'serverProvider' | 'forget' | 'needsSignIn' | 'signIn' | 'signOut' | 'canSignOut' | 'signInReason' | 'signInState'>;

/** {@link EditorSignIns}'s surface for the tree, the commands and the HTTP transports, loading it on first need. */
export class EditorSignInsOnDemand {
  private loaded: SignInsPart | undefined;
  /** The part, loaded by the first call (after a failed load, by the next one). */
  private readonly part: () => Promise<SignInsPart>;

  /** `create` imports signIns.ts and builds its EditorSignIns; it runs once (again only after it failed). */
  constructor(create: () => Promise<SignInsPart>) {
    this.part = loadPartOnce('the sign-ins', async () => (this.loaded ??= await create()));
  }

  /**
   * The transport's auth provider for a remote server; none when a configured Authorization header
   * is its credential. Its first request loads the sign-ins, before it is sent.
   */
  provider(resolved: ResolvedRemoteServer, entry: ServerEntry | undefined): AuthProvider | undefined {
    if (!entry || Object.keys(resolved.headers).some((name) => name.toLowerCase() === 'authorization')) return undefined;
    let made: AuthProvider | undefined;
    const provider = async () => (made ??= (await this.part()).serverProvider(entry.id, resolved));
    return {
      authorization: async () => (await provider()).authorization(),
      onChallenge: async (challenge) => (await provider()).onChallenge(challenge),
      proof: async (request, authorization) => (await provider()).proof?.(request, authorization),
      // A nonce comes with a response, so after the request that made the provider.
      noteNonce: (url, nonce) => made?.noteNonce?.(url, nonce),
    };
  }

  /** Servers no longer configured drop their sign-in sessions (none exist before the part loaded). */
  forget(ids: readonly string[]): void {
    this.loaded?.forget(ids);
  }

  /** True when the server waits for the user to sign in (only a loaded part's request can have found that). */
  needsSignIn(id: string): boolean {
    return this.loaded?.needsSignIn(id) ?? false;
  }

  /** See EditorSignIns.signIn. */
  async signIn(id: string): Promise<void> {
    await (await this.part()).signIn(id);
  }

  /** See EditorSignIns.signOut: it deletes stored tokens even of a server that never asked in this window. */
  async signOut(id: string): Promise<void> {
    await (await this.part()).signOut(id);
  }

  /** True when the server holds a sign-in that Sign Out would delete. */
  canSignOut(id: string): boolean {
    return this.loaded?.canSignOut(id) ?? false;
  }

  /** Why the server waits for a sign-in, as its row says (asked when `needsSignIn`, so of a loaded part). */
  signInReason(id: string): string {
    return this.loaded?.signInReason(id) ?? SIGN_IN_REASON;
  }

  /** Server Details' sign-in section. */
  signInState(id: string): ReturnType<EditorSignIns['signInState']> {
    return this.loaded?.signInState(id);
  }
}
