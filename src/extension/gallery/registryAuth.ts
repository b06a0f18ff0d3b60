// A private registry behind OAuth signs in through the remote servers' machinery: a ServerSignIns
// of its own (one OAuthSession per registry URL, tokens in SecretStorage keyed by the registry's
// resource and issuer, refreshed like a server's), under an id no server can have. No `vscode`
// import: the gallery hands in the store, redirect and browser, tests hand in theirs.
import { RegistryClient, safeUrl } from '../../gallery/registryClient';
import type { ResolvedRemoteServer } from '../../config/variables';
import type { AuthProvider } from '../../auth';
import type { SignInRequest } from '../../auth/session';
import type { UserAgent } from '../../auth/flow';
import type { RedirectFactory } from '../../auth/loopback';
import { ListableTokenStore, ServerSignIns } from '../signIn/serverSignIns';

/** What the registry sign-in needs from its host. */
/** What the gallery's sign-ins need of the editor's logs: its tokens known to the redactor, its lines redacted. */
export interface GallerySecrets {
  noteSecret(...values: string[]): void;
  redact(text: string): string;
}

export interface RegistrySignInOptions {
  readonly store: ListableTokenStore;
  readonly redirect: RedirectFactory;
  /** Opens the authorization page (the user has confirmed by then). */
  readonly userAgent: UserAgent;
  log(level: 'info' | 'warn', text: string): void;
}

export class RegistrySignIns {
  private readonly signIns: ServerSignIns;

  constructor(options: RegistrySignInOptions) {
    this.signIns = new ServerSignIns({
      store: options.store,
      redirect: () => options.redirect,
      userAgent: options.userAgent,
      // A registry asks for no step-up: the gallery only reads.
      confirmStepUp: () => Promise.resolve(false),
      log: (_id, level, text) => options.log(level, text),
      changed: () => {},
    });
  }

  /** The RegistryClient's `auth` for `url`: the stored token, refreshed when due; never a sign-in by itself. */
  provider(url: string): AuthProvider {
    return this.signIns.provider(registrySignInId(url), { type: 'http', url, headers: {}, secretValues: [], secretHeaderNames: [], warnings: [] } satisfies ResolvedRemoteServer);
  }

  /** Discovery for the sign-in the user is about to confirm (after the registry answered 401 through `provider`). */
  request(url: string): Promise<SignInRequest> {
    return this.signIns.signInRequest(registrySignInId(url));
  }

  /** The browser sign-in, after the user confirmed. Rejects with AuthError; `signal` cancels it. */
  signIn(url: string, signal?: AbortSignal): Promise<void> {
    return this.signIns.signIn(registrySignInId(url), signal);
  }
}

/** The sign-in's id: one per registry URL, never a server's (server ids have no space). */
function registrySignInId(url: string): string {
  return `MCP registry ${safeUrl(url)}`;
}

/** The bearer token of a registry, when the user set one for it. */
export type RegistryToken = (registryUrl: string) => PromiseLike<string | undefined>;

/** A client of the registry at a URL, with that registry's auth. */
export type RegistryClients = (registryUrl: string) => RegistryClient;

/**
 * The one place that decides a registry's auth: the bearer token the user set for that URL, else
 * the registry's sign-in session when signed in (refreshed when due), else nothing. Never a sign-in
 * by itself: the gallery's explicit action signs in; the update check and Update only use it.
 */
export function registryClients(token: RegistryToken, signIns: RegistrySignIns): RegistryClients {
  return (registryUrl) => new RegistryClient({ baseUrl: registryUrl, token: () => token(registryUrl), auth: signIns.provider(registryUrl) });
}
