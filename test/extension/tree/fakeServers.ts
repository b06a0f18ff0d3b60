// Server handles for the tree's unit suites: plain objects in the registry's shape, each field
// what the test sets (a running server gets a client with the capabilities it names).
import type { ServerCapabilities } from '../../../src/client/schemas';
import type { ServerHandle, ServerStatus } from '../../../src/registry';

export interface FakeServer {
  id?: string;
  name?: string;
  status?: ServerStatus;
  capabilities?: ServerCapabilities;
  remoteUrl?: string;
  workspace?: boolean;
  stderrTail?: string[];
  extra?: Partial<Record<keyof ServerHandle, unknown>>;
}

export function fakeHandle(f: FakeServer = {}): ServerHandle {
  const id = f.id ?? 'user::echo';
  const name = f.name ?? 'echo';
  const config = f.remoteUrl ? { type: 'http', url: f.remoteUrl, headers: {} } : { type: 'stdio', command: 'node', args: ['server.js', '--token', 'abc'], env: {} };
  const status = f.status ?? { kind: 'stopped' };
  const client =
    status.kind === 'running'
      ? { serverCapabilities: f.capabilities ?? {}, protocolVersion: '2025-11-25', era: 'legacy', serverInfo: { name: 'echo-server', version: '1.0.0' }, instructions: undefined, stats: () => undefined, rootsListed: undefined }
      : undefined;
  return {
    id,
    entry: { id, name, source: { kind: f.workspace ? 'vscode-mcp-json' : 'settings', label: f.workspace ? '.vscode/mcp.json' : 'User settings', workspaceDefined: f.workspace === true }, config, fingerprint: 'f', inputs: [] },
    status,
    client,
    resolved: undefined,
    pid: undefined,
    startedAt: undefined,
    tools: undefined,
    resources: undefined,
    templates: undefined,
    prompts: undefined,
    listErrors: {},
    skippedItems: {},
    lastError: undefined,
    stderrTail: f.stderrTail ?? [],
    lastExit: undefined,
    restarts: 0,
    listFreshness: {},
    refresh: async () => undefined,
    refreshIfStale: async () => undefined,
    ...f.extra,
  } as unknown as ServerHandle;
}
