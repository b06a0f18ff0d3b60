// How long the `server/discover` probe waits on stdio, and what a silent server is taken for.
// A server cannot tell us when it has read the probe, so the wait counts from its last sign of
// life (spawn, or a line on stderr or stdout while it starts): a cold `npx`/`docker` start that
// prints progress keeps the probe waiting, a server that ignores unknown requests costs only
// the quiet time. The probe is never cancelled: an answer that comes after the client fell back
// to `initialize` still tells the era (for the next start).
import { McpLocalError } from '../protocol/errors';
import { Event } from '../protocol/events';
import { namesMissingSetting } from '../protocol/stderrExcerpt';
import { MODERN_PROTOCOL_VERSIONS, ModernProtocolVersion, sessionSchemas } from './schemas';

/** The quiet time after the server's last sign of life before a silent probe means legacy (stdio). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 3000;

/** What became of a probe that was waited for. */
export type ProbeWait<T> =
  | { readonly kind: 'answered'; readonly value: T }
  /** The server said nothing for the quiet time; `late` settles when (if ever) the answer comes. */
  | { readonly kind: 'silent'; readonly quietMs: number; readonly late: Promise<T> };

/**
 * Waits for `request` until it settles (a rejection is rethrown) or the server stayed quiet for
 * `quietMs` after its last sign of life. `signsOfLife` fires on any output of the server.
 */
export function waitForProbe<T>(request: Promise<T>, quietMs: number, signsOfLife: Event<unknown>): Promise<ProbeWait<T>> {
  return new Promise<ProbeWait<T>>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout>;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        done();
        // The late answer (or failure) is the caller's to read; unread, it must not be reported as unhandled.
        request.catch(() => {});
        resolve({ kind: 'silent', quietMs, late: request });
      }, quietMs);
    };
    const listening = signsOfLife(() => arm());
    const done = () => {
      clearTimeout(timer);
      listening.dispose();
    };
    arm();
    request.then(
      (value) => {
        done();
        resolve({ kind: 'answered', value });
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
  });
}

/** The words of a server that refused the probe itself: it names the method, the handshake or JSON-RPC. */
const SPEAKS_OF_THE_PROTOCOL = /server\/discover|\bmethods?\b|initiali[sz]|json-?rpc|\bprotocol\b|\brequests?\b/i;

/**
 * Whether a stdio server that exited before answering anything refused the probe (it names the
 * method, the handshake or JSON-RPC on stderr: "unknown method server/discover", "fatal:
 * server/discover before initialize", a validation error listing the methods it knows) rather
 * than failed to start (a missing variable, key, token or file; a crash that names no request;
 * no word at all). Only a refusal is worth a second start with `initialize`.
 */
export function exitRefusedProbe(stderr: readonly string[]): boolean {
  return !namesMissingSetting(stderr) && stderr.some((line) => SPEAKS_OF_THE_PROTOCOL.test(line));
}

/** True when `error` says the server exited at start, before answering anything (not because of the probe): the negotiation's `failedAtStart`. */
export function failedAtStart(error: unknown): boolean {
  return McpLocalError.is(error, 'server-exited') && error.details.failedAtStart === true;
}

/** True when `error` says a stdio server exited in answer to the probe (`exitedOnProbe`): start it again, once, with `initialize`. */
export function exitedOnProbe(error: unknown): boolean {
  return McpLocalError.is(error, 'server-exited') && error.details.exitedOnProbe === true;
}

/** The log line of that restart, one wording for the CLI and the editor. */
export const PROBE_RESTART_NOTE = 'the server exited during the server/discover probe (as servers that allow nothing before initialize do); starting it once more with initialize';

/** The newest modern version this client speaks that a `server/discover` result offers; undefined for anything else. */
export function discoveredVersion(raw: unknown): ModernProtocolVersion | undefined {
  const parsed = sessionSchemas().discoverResult.safeParse(raw);
  return parsed.success ? MODERN_PROTOCOL_VERSIONS.find((v) => parsed.data.supportedVersions.includes(v)) : undefined;
}
