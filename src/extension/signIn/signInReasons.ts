// What a server's row says while it waits for a sign-in: one wording for the sign-ins
// (signIns.ts) and the surface that stands for them until they load (signInsOnDemand.ts).

/** The row's reason while a server waits for a sign-in. */
export const SIGN_IN_REASON = 'Sign in required — click the server (or "Sign In") to sign in in your browser';
/** The row's reason after the authorization server refused the refresh token. */
export const SIGN_IN_EXPIRED_REASON = 'Sign in required — the sign-in expired or was revoked; click the server (or "Sign In") to sign in again';
