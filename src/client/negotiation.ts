// The handshake that finds a session's era and makes its codec: `server/discover` (modern) or
// `initialize` + `notifications/initialized` (legacy), by the plan era.ts makes of the user's
// preference and what is remembered of the server, falling back, retrying at a version the
// server names, and remembering what the server turned out to speak. The rules (planEra,
// judgeProbeFailure, the stdio probe's wait) are in era.ts and eraProbe.ts; the wire after the
// handshake is the codec's (client/eras/).
import type { JsonRpcConnection } from '../protocol/connection';
import { McpLocalError, ResponseError } from '../protocol/errors';
import { formatZodIssues } from '../protocol/messages';
import { Transport, TransportCloseReason } from '../protocol/transport';
import type { McpClientOptions } from './clientContract';
import { EraPlan, RememberedEra, judgeProbeFailure, planEra } from './era';
import { DEFAULT_CONNECT_TIMEOUT_MS, discoveredVersion, exitRefusedProbe, waitForProbe } from './eraProbe';
import type { EraCodec, EraSession } from './eras/eraCodec';
import { LegacyEra, legacyCapabilities } from './eras/legacyEra';
import { ModernEra, modernRequestMeta } from './eras/modernEra';
import {
  DiscoverResult,
  InitializeResult,
  LATEST_PROTOCOL_VERSION,
  META,
  MODERN_PROTOCOL_VERSIONS,
  ModernProtocolVersion,
  ProtocolVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
  isSupportedVersion,
  sessionSchemas,
} from './schemas';

/** What the negotiation needs of the client it connects. */
export interface NegotiationHost {
  readonly options: McpClientOptions;
  /** A decision of the handshake (which era and why): worth the user's log. */
  lifecycle(text: string): void;
  /** What a codec needs of the client, once the server's facts are known. */
  eraSession(result: InitializeResult): EraSession;
  /** The era is found: the client is ready and speaks through `codec`. */
  ready(codec: EraCodec, result: InitializeResult, discover?: DiscoverResult): void;
}

export interface HandshakeOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** One client's handshake, over a started transport. */
export class EraNegotiation {
  /** The era a probe answered late showed (see rememberLateDiscover). */
  private lateModernEra: RememberedEra | undefined;
  private readonly over: 'stdio' | 'http';

  constructor(
    private readonly host: NegotiationHost,
    private readonly transport: Transport,
    private readonly connection: JsonRpcConnection,
    private readonly options: HandshakeOptions,
  ) {
    this.over = transport.stats().http ? 'http' : 'stdio';
  }

  private get clientOptions(): McpClientOptions {
    return this.host.options;
  }

  /**
   * Runs the handshake of the era the options and the server lead to; resolves with the
   * initialize result, or for a modern server the same facts from its discover result. A
   * remembered era that did not work is forgotten: the next start finds out again.
   */
  async run(): Promise<InitializeResult> {
    const memory = this.clientOptions.eraMemory;
    const preference = this.clientOptions.protocol ?? this.clientOptions.protocolVersion ?? 'auto';
    const remembered = preference === 'auto' ? memory?.memory.get(memory.key) : undefined;
    const plan = planEra(preference, remembered);
    if (remembered) this.host.lifecycle(`era: ${remembered.era} (${remembered.version}), as this server spoke before${remembered.era === 'legacy' ? ': initialize without a server/discover probe' : ''}`);
    try {
      const modern = plan.era === 'modern' ? await this.discover(plan) : undefined;
      const offered = plan.era === 'legacy' ? (plan.version as ProtocolVersion) : (this.clientOptions.protocolVersion ?? LATEST_PROTOCOL_VERSION);
      const ready = modern ?? (await this.initializeOrDiscover(offered, plan, preference === 'auto'));
      // A probe answered late says what the next start should speak, though this one went legacy.
      memory?.memory.remember(memory.key, this.lateModernEra ?? ready.era);
      return ready.result;
    } catch (error) {
      if (remembered && memory?.memory.get(memory.key) === remembered) memory.memory.forget(memory.key);
      throw error;
    }
  }

  /**
   * The modern start: `server/discover` at the planned version, once more at a version the
   * server names in a -32022 answer. Resolves undefined when the plan allows falling back and
   * the server shows no sign of the modern era (judgeProbeFailure).
   */
  private async discover(plan: EraPlan): Promise<{ result: InitializeResult; era: RememberedEra } | undefined> {
    let version = plan.version as ModernProtocolVersion;
    for (let attempt = 0; ; attempt++) {
      // HTTP sends the version as a header from the first request on.
      this.transport.setProtocolVersion?.(version);
      let raw: Record<string, unknown> | undefined;
      try {
        raw = await this.probe(version, plan);
        if (raw === undefined) return undefined;
      } catch (error) {
        const verdict = this.judgeFailedProbe(error, plan, version, attempt);
        if (verdict === 'legacy') return undefined;
        version = verdict.retry;
        continue;
      }
      const discover = this.readDiscover(raw, version, plan);
      if (!discover) return undefined;
      return { result: this.becomeModern(discover.result, discover.chosen), era: { era: 'modern', version: discover.chosen } };
    }
  }

  /** Sends the probe; on stdio with a fallback, a silence counted from the server's last output resolves undefined (legacy). */
  private async probe(version: ModernProtocolVersion, plan: EraPlan): Promise<Record<string, unknown> | undefined> {
    const request = this.connection.request('server/discover', { _meta: modernRequestMeta(this.clientOptions, version) }, undefined, { timeoutMs: this.options.timeoutMs, signal: this.options.signal });
    if (!(plan.fallback && this.over === 'stdio') || plan.remembered) return request;
    // A server may ignore unknown requests: its silence, counted from its last output, means legacy.
    const quietMs = this.clientOptions.probeTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const signsOfLife = (listener: (e: unknown) => void) => this.connection.onTransportLog((l) => l.kind !== 'lifecycle' && listener(l));
    const waited = await waitForProbe(request, quietMs, signsOfLife);
    if (waited.kind === 'answered') return waited.value;
    this.host.lifecycle(`server/discover: no answer ${quietMs} ms after the server's last output; using initialize (the legacy era)`);
    this.rememberLateDiscover(waited.late);
    return undefined;
  }

  /** What a failed probe leads to: legacy, a retry at another version, or (thrown) the error. */
  private judgeFailedProbe(error: unknown, plan: EraPlan, version: ModernProtocolVersion, attempt: number): 'legacy' | { retry: ModernProtocolVersion } {
    if (this.options.signal?.aborted) throw error;
    if (!this.connection.isOpen) {
      if (this.over === 'stdio' && McpLocalError.is(error, 'server-exited')) throw this.exitedBeforeAnswering(error, plan);
      throw error;
    }
    const verdict = judgeProbeFailure(error, this.over);
    if (verdict.kind === 'retry' && attempt === 0) return { retry: verdict.version };
    if (verdict.kind === 'legacy' && plan.fallback) {
      this.host.lifecycle(`${(error as Error).message}; using initialize (the legacy era)`);
      return 'legacy';
    }
    if (verdict.kind === 'fail') throw verdict.error;
    throw pinnedError(version, error as Error);
  }

  /** The discover result and the version chosen from it; undefined (legacy) when the plan may fall back. */
  private readDiscover(raw: Record<string, unknown>, version: ModernProtocolVersion, plan: EraPlan): { result: DiscoverResult; chosen: ModernProtocolVersion } | undefined {
    const parsed = sessionSchemas().discoverResult.safeParse(raw);
    if (!parsed.success) {
      // Something answered that is not a discover result: not a modern server.
      if (plan.fallback) return undefined;
      throw new McpLocalError('invalid-result', `server/discover: ${formatZodIssues(parsed.error, 'result', raw)}`, { result: raw });
    }
    const discover = parsed.data;
    const chosen = discover.supportedVersions.includes(version) ? version : MODERN_PROTOCOL_VERSIONS.find((v) => discover.supportedVersions.includes(v));
    if (chosen) return { result: discover, chosen };
    if (plan.fallback) return undefined;
    throw new McpLocalError('version', `server/discover: the server supports ${discover.supportedVersions.join(', ') || 'no version'}, none of which this client speaks in the modern era (${MODERN_PROTOCOL_VERSIONS.join(', ')})`, { supported: discover.supportedVersions });
  }

  /** The session is modern: the discover result read as the initialize result callers know. */
  private becomeModern(discover: DiscoverResult, chosen: ModernProtocolVersion): InitializeResult {
    this.transport.setProtocolVersion?.(chosen);
    const serverInfo = sessionSchemas().implementation.safeParse(discover._meta?.[META.serverInfo]);
    const result: InitializeResult = {
      protocolVersion: chosen,
      capabilities: discover.capabilities,
      serverInfo: serverInfo.success ? serverInfo.data : { name: 'unnamed server', version: '' },
      ...(discover.instructions === undefined ? {} : { instructions: discover.instructions }),
    };
    this.host.ready(new ModernEra(this.host.eraSession(result), chosen), result, discover);
    return result;
  }

  /**
   * A stdio server that exited before answering anything. Some servers exit on any request before
   * initialize: one that said so on stderr refused the probe, is of the legacy era, and its next
   * start (the memory tells it) goes straight to initialize. Any other exit is a start failure
   * (a missing variable, a crash): the probe played no part, and nothing is remembered.
   */
  private exitedBeforeAnswering(error: McpLocalError<'server-exited'>, plan: EraPlan): McpLocalError {
    const ended = error.details;
    const stderr = [...new Set([...(ended.stderrExcerpt ?? []), ...(ended.stderrTail ?? [])])];
    if (exitRefusedProbe(stderr)) {
      if (!plan.fallback) return error;
      const memory = this.clientOptions.eraMemory;
      memory?.memory.remember(memory.key, { era: 'legacy', version: this.clientOptions.protocolVersion ?? LATEST_PROTOCOL_VERSION });
      const next = memory ? 'the next start uses initialize' : 'a start with initialize may work';
      return new McpLocalError(error.kind, `${error.message} (it stopped while asked server/discover, as servers that allow nothing before initialize do: ${next})`, { ...ended, exitedOnProbe: true });
    }
    const how = ended.reason ? TransportCloseReason.describe(ended.reason) : 'exited';
    const said = ended.stderrExcerpt?.length ? `; stderr: ${ended.stderrExcerpt.join(' | ')}` : '';
    this.host.lifecycle(`the server ${how} before answering anything: it failed to start (its stderr does not speak of server/discover)`);
    return new McpLocalError(error.kind, `the server ${how} at start, before answering anything${said}`, { ...ended, failedAtStart: true });
  }

  /**
   * `initialize`; in `auto`, a -32022 answer naming a modern version this client speaks (a
   * modern-only server taken for legacy: it started too slowly for the probe, or the remembered
   * era is out of date) leads to `server/discover` at that version, on the same connection.
   */
  private async initializeOrDiscover(offered: ProtocolVersion, plan: EraPlan, auto: boolean): Promise<{ result: InitializeResult; era: RememberedEra }> {
    try {
      const result = await this.initialize(offered, plan.era === 'modern');
      return { result, era: { era: 'legacy', version: result.protocolVersion } };
    } catch (error) {
      const verdict = auto && error instanceof ResponseError ? judgeProbeFailure(error, 'stdio') : undefined;
      if (verdict?.kind !== 'retry') throw error;
      this.host.lifecycle(`initialize: the server speaks only the modern era (${error instanceof Error ? error.message : ''}); using server/discover at ${verdict.version}`);
      const ready = await this.discover({ era: 'modern', version: verdict.version, fallback: false });
      return ready!;
    }
  }

  /** A probe answered after the fallback to initialize: a modern server, remembered so its next start speaks its era. */
  private rememberLateDiscover(late: Promise<Record<string, unknown>>): void {
    late.then(
      (raw) => {
        const version = discoveredVersion(raw);
        const memory = this.clientOptions.eraMemory;
        if (!version || !memory) return;
        this.lateModernEra = { era: 'modern', version };
        memory.memory.remember(memory.key, this.lateModernEra);
        this.host.lifecycle(`server/discover was answered late: the server speaks ${version} (the modern era); its next start uses it`);
      },
      () => {},
    );
  }

  /** The legacy start: `initialize`, then `notifications/initialized`. */
  private async initialize(offered: ProtocolVersion, probed: boolean): Promise<InitializeResult> {
    // The probe told the transport a modern version; the handshake is of the legacy era.
    if (probed) this.transport.setProtocolVersion?.(offered);
    const result = await this.connection.request(
      'initialize',
      { protocolVersion: offered, capabilities: legacyCapabilities(this.clientOptions), clientInfo: this.clientOptions.clientInfo },
      sessionSchemas().initializeResult,
      { timeoutMs: this.options.timeoutMs, signal: this.options.signal },
    );
    if (!isSupportedVersion(result.protocolVersion)) {
      throw new McpLocalError(
        'version',
        `the server answered protocol version ${JSON.stringify(result.protocolVersion)}, which this client does not support (it offered ${offered}; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
        { offered, answered: result.protocolVersion },
      );
    }
    // Before `initialized`: HTTP sends the version with every message after the handshake.
    this.transport.setProtocolVersion?.(result.protocolVersion);
    this.host.ready(new LegacyEra(this.host.eraSession(result), result.protocolVersion), result);
    await this.connection.notify('notifications/initialized');
    return result;
  }
}

/** A pinned modern version the server did not take. */
function pinnedError(version: string, cause: Error): McpLocalError {
  return new McpLocalError('version', `the server did not accept protocol ${version} (pinned, so initialize was not tried): ${cause.message}`, { pinned: version });
}
