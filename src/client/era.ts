// Which era a session runs in, and how the client finds out: the rules of the specification's
// "working with both eras". Pure decisions; McpClient runs the exchanges.
import { McpLocalError, ResponseError, toError } from '../protocol/errors';
import { ErrorCodes } from '../protocol/messages';
import { isModernProtocolVersion } from '../protocol/transport';
import {
  LATEST_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSIONS,
  ModernProtocolVersion,
  ProtocolEra,
  ProtocolVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
  isModernVersion,
  isSupportedVersion,
} from './schemas';

/**
 * What the user asks for: `auto` finds the era per server; `legacy` or `modern` pins the era (at
 * its newest version); a version pins that version (and so its era).
 */
export type ProtocolPreference = 'auto' | ProtocolEra | ProtocolVersion | ModernProtocolVersion;

/** The request that starts a session of each era, for what the CLI prints of a server. */
export const ERA_HANDSHAKES: Readonly<Record<ProtocolEra, string>> = { modern: 'server/discover', legacy: 'initialize' };

/** What a running server's row adds to its version: the era is named for a modern session; a legacy version says it by itself. */
export const ERA_ROW_SUFFIXES: Readonly<Record<ProtocolEra, string>> = { modern: ' (modern)', legacy: '' };

/** The values a setting or `--protocol-version` accepts, for help texts and errors. */
export const PROTOCOL_PREFERENCES: readonly string[] = ['auto', 'legacy', 'modern', ...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS];

export function isProtocolPreference(value: unknown): value is ProtocolPreference {
  return typeof value === 'string' && PROTOCOL_PREFERENCES.includes(value);
}

/** The era and version a session starts with, and whether the other era may be tried after. */
export interface EraPlan {
  readonly era: ProtocolEra;
  /** For modern: the version to request first; for legacy: the version `initialize` offers. */
  readonly version: ModernProtocolVersion | ProtocolVersion;
  /** Modern first, falling back to `initialize` when the server shows no sign of the modern era. */
  readonly fallback: boolean;
  /** The era is remembered from an earlier start: the probe waits its full time instead of the quiet time. */
  readonly remembered?: boolean;
}

/** Turns a preference (and what the session remembers of this server) into the plan for `connect`. */
export function planEra(preference: ProtocolPreference, remembered?: RememberedEra): EraPlan {
  if (preference === 'legacy') return { era: 'legacy', version: LATEST_PROTOCOL_VERSION, fallback: false };
  if (preference === 'modern') return { era: 'modern', version: MODERN_PROTOCOL_VERSIONS[0], fallback: false };
  if (isModernVersion(preference)) return { era: 'modern', version: preference, fallback: false };
  if (isSupportedVersion(preference)) return { era: 'legacy', version: preference, fallback: false };
  if (remembered?.era === 'legacy') return { era: 'legacy', version: isSupportedVersion(remembered.version) ? remembered.version : LATEST_PROTOCOL_VERSION, fallback: false };
  if (remembered?.era === 'modern' && isModernVersion(remembered.version)) return { era: 'modern', version: remembered.version, fallback: true, remembered: true };
  return { era: 'modern', version: MODERN_PROTOCOL_VERSIONS[0], fallback: true };
}

/** What a failed `server/discover` probe says about the server. */
export type ProbeVerdict =
  /** No sign of the modern era: use `initialize`. */
  | { readonly kind: 'legacy' }
  /** A modern server that does not speak the requested version, but one this client does: ask again with it. */
  | { readonly kind: 'retry'; readonly version: ModernProtocolVersion }
  /** Nothing to fall back on: the error stands. */
  | { readonly kind: 'fail'; readonly error: Error };

/**
 * Reads a failed probe. On stdio a timeout or any error other than a recognised modern one means
 * legacy. On HTTP a JSON-RPC error in a 4xx body reaches here as the error response (the
 * transport delivers it so) and is read like one; a 4xx without one means legacy; 401/403, 5xx,
 * the network and a timeout are failures: they say nothing about the era. Never keyed to one
 * error code.
 */
export function judgeProbeFailure(error: unknown, over: 'stdio' | 'http'): ProbeVerdict {
  if (error instanceof ResponseError) return judgeWireError(error);
  if (McpLocalError.is(error, 'timeout')) return over === 'stdio' ? { kind: 'legacy' } : { kind: 'fail', error };
  if (McpLocalError.is(error, 'transport')) {
    const status = typeof error.details.status === 'number' ? error.details.status : undefined;
    return status === undefined || status === 401 || status === 403 || status >= 500 ? { kind: 'fail', error } : { kind: 'legacy' };
  }
  return { kind: 'fail', error: toError(error) };
}

function judgeWireError(error: ResponseError): ProbeVerdict {
  const verdict = judgeWireAnswer(error.code, error.data);
  return verdict.kind === 'fail' ? { kind: 'fail', error } : verdict;
}

/** What an error answer (its code and data) to the probe says of the era. */
function judgeWireAnswer(code: unknown, data: unknown): Exclude<ProbeVerdict, { kind: 'fail' }> | { readonly kind: 'fail' } {
  if (code !== ErrorCodes.UnsupportedProtocolVersion) return { kind: 'legacy' };
  const supported = supportedVersionsOf(data);
  if (supported.length === 0) return { kind: 'legacy' };
  const mutual = MODERN_PROTOCOL_VERSIONS.find((v) => supported.includes(v));
  if (mutual) return { kind: 'retry', version: mutual };
  // A modern server with only versions this client does not know cannot be helped by initialize;
  // a server that lists only legacy versions can.
  return supported.some((v) => isModernProtocolVersion(v)) ? { kind: 'fail' } : { kind: 'legacy' };
}

/**
 * Whether an error answer to `method` is one the era negotiation expects and goes on from, so no
 * failure to a user (the timeline does not count it): a legacy server's refusal of
 * `server/discover`, or a -32022 that names a modern version to ask again with.
 */
export function isEraNegotiationAnswer(method: string, code: unknown, data: unknown): boolean {
  if (method === 'server/discover') return judgeWireAnswer(code, data).kind !== 'fail';
  return method === 'initialize' && judgeWireAnswer(code, data).kind === 'retry';
}

/** `data.supported` of a -32022 error: the versions the server speaks. */
export function supportedVersionsOf(data: unknown): string[] {
  if (typeof data !== 'object' || data === null) return [];
  const supported = (data as Record<string, unknown>).supported;
  return Array.isArray(supported) ? supported.filter((v): v is string => typeof v === 'string') : [];
}

/** The era a server turned out to speak. */
export interface RememberedEra {
  readonly era: ProtocolEra;
  readonly version: string;
}

/**
 * Where remembered eras outlive the host's session (a cache file for the CLI, global state in
 * the editor). A cache: it may lose entries, and its failures are the store's to swallow.
 */
export interface EraStore {
  get(key: string): RememberedEra | undefined;
  set(key: string, era: RememberedEra): void;
  delete(key: string): void;
}

/**
 * The era each server spoke: a reconnect to the same server command line or HTTP origin starts
 * in it instead of probing again, for the host's session and, with a store, across runs. Keys
 * are the caller's (for example `http:<origin>` or `stdio:<server id>:<command line>`).
 */
export class EraMemory {
  private readonly eras = new Map<string, RememberedEra>();

  constructor(private readonly store?: EraStore) {}

  get(key: string): RememberedEra | undefined {
    const known = this.eras.get(key);
    if (known) return known;
    const stored = this.store?.get(key);
    if (stored) this.eras.set(key, stored);
    return stored;
  }

  remember(key: string, era: RememberedEra): void {
    const known = this.eras.get(key);
    this.eras.set(key, era);
    if (known?.era !== era.era || known.version !== era.version) this.store?.set(key, era);
  }

  forget(key: string): void {
    this.eras.delete(key);
    this.store?.delete(key);
  }
}
