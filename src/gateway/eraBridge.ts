// What a legacy gateway client is told about a server, whichever era MCP Host speaks with it: the
// `initialize` answer (for a modern server, built from its `server/discover` result, which the
// client already holds as an InitializeResult) and results cleared of the modern-only fields.
import type { McpClient } from '../client/client';
import { LATEST_PROTOCOL_VERSION, ProtocolVersion, isSupportedVersion } from '../client/schemas';

/** The legacy capabilities a gateway client may be told about; modern-only ones stay behind. */
const LEGACY_CAPABILITIES = ['tools', 'resources', 'prompts', 'completions', 'experimental'] as const;

/** The version to answer a client's `initialize` with: its own when we speak it, else our latest. */
export function negotiatedVersion(requested: unknown): ProtocolVersion {
  return isSupportedVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/**
 * The `initialize` result for a gateway client. `displayName` is the server's name as the user
 * knows it (the configuration's), so a client that names tools after `serverInfo.name` (VS Code
 * does) shows the same name as MCP Host. `logging` is always declared: the gateway answers
 * `logging/setLevel` itself, per client, so one client's level never changes another's.
 */
export function initializeResultFor(upstream: McpClient, requestedVersion: unknown, displayName: string): Record<string, unknown> {
  const declared = (upstream.serverCapabilities ?? {}) as Record<string, unknown>;
  const capabilities: Record<string, unknown> = { logging: {} };
  for (const key of LEGACY_CAPABILITIES) if (declared[key] !== undefined) capabilities[key] = declared[key];
  const info = upstream.serverInfo;
  const serverInfo: Record<string, unknown> = { name: displayName, version: info?.version ?? '0.0.0' };
  if (info?.title !== undefined || info?.name !== displayName) serverInfo.title = info?.title ?? info?.name;
  const result: Record<string, unknown> = { protocolVersion: negotiatedVersion(requestedVersion), capabilities, serverInfo };
  if (upstream.instructions !== undefined) result.instructions = upstream.instructions;
  return result;
}

/**
 * A modern server's result as a legacy client expects it: without `resultType`, `ttlMs` and
 * `cacheScope` (unknown to the legacy schemas). A legacy server's result passes untouched.
 */
export function legacyResult(upstream: McpClient, result: Record<string, unknown>): Record<string, unknown> {
  return upstream.eraCodec?.asLegacyResult(result) ?? result;
}
