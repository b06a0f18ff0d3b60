import path from 'node:path';
import { McpClient, McpClientOptions } from '../../src/client';
import { Frame } from '../../src/protocol/connection';
import { StdioTransport } from '../../src/transport/stdio';
import { SchemaVersion, validateMessage } from '../support/wireSchema';

export const REPO = path.resolve(__dirname, '../../..');
export const EVERYTHING = [path.join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'];
export const FILESYSTEM = path.join(REPO, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
export const fixture = (name: string) => path.join(REPO, 'test/fixtures/servers', name);

/** The requests a 2025-11-25 peer may send with `task` (answered with a CreateTaskResult). */
const TASK_AUGMENTABLE = new Set(['tools/call', 'sampling/createMessage', 'elicitation/create']);

/** Records every frame of a client and checks each against the official JSON Schema of the negotiated version. */
export class WireRecorder {
  readonly frames: Frame[] = [];
  constructor(client: McpClient) {
    client.onFrame((f) => this.frames.push(f));
  }

  sent(method?: string): any[] {
    return this.frames.filter((f) => f.direction === 'send').map((f) => f.message as any).filter((m) => method === undefined || m.method === method);
  }

  received(method?: string): any[] {
    return this.frames.filter((f) => f.direction === 'receive').map((f) => f.message as any).filter((m) => method === undefined || m.method === method);
  }

  /**
   * Every problem found validating the frames, as readable lines (empty when all are valid). The
   * `server/discover` probe a legacy session starts with, and its answer, are of the modern era:
   * they are checked against 2026-07-28.
   */
  problems(version: SchemaVersion, directions: Array<'send' | 'receive'> = ['send', 'receive']): string[] {
    const methods = new Map<string, string>(); // request id (by direction) -> method
    const augmented = new Set<string>(); // request ids (by direction) sent with `task`
    const out: string[] = [];
    for (const f of this.frames) {
      const messages = Array.isArray(f.message) ? f.message : [f.message];
      for (const m of messages as any[]) {
        if (m && typeof m.method === 'string' && m.id !== undefined) methods.set(`${f.direction}:${m.id}`, m.method);
        // Only these may be task-augmented; the SDK also copies `task` into the tasks/get and tasks/result it follows a task with.
        if (m && TASK_AUGMENTABLE.has(m.method) && m.id !== undefined && m.params?.task !== undefined) augmented.add(`${f.direction}:${m.id}`);
        if (!directions.includes(f.direction)) continue;
        const requestMethod = m && m.id !== undefined && !('method' in m) ? methods.get(`${f.direction === 'send' ? 'receive' : 'send'}:${m.id}`) : undefined;
        const probe = m?.method === 'server/discover' || requestMethod === 'server/discover';
        // A legacy server's error answer to the probe is valid in either era; its result never is.
        if (probe && version !== '2026-07-28' && 'error' in m) continue;
        const asked = `${f.direction === 'send' ? 'receive' : 'send'}:${m?.id}`;
        const check = validateMessage(probe ? '2026-07-28' : version, m, f.direction === 'send' ? 'outbound' : 'inbound', requestMethod, requestMethod !== undefined && augmented.has(asked));
        if (!check.ok) out.push(`${f.direction} ${JSON.stringify(m).slice(0, 200)}: ${check.errors}`);
      }
    }
    return out;
  }
}

export async function connectStdio(command: string, args: string[], options: Partial<McpClientOptions> = {}, transportOptions: Partial<ConstructorParameters<typeof StdioTransport>[0]> = {}) {
  const client = new McpClient({ clientInfo: { name: 'mcp-host-tests', version: '0.0.0' }, ...options });
  const wire = new WireRecorder(client);
  const stderr: string[] = [];
  client.onTransportLog((l) => l.kind === 'stderr' && stderr.push(l.text));
  const transport = new StdioTransport({ command, args, closeGraceMs: 500, termGraceMs: 500, ...transportOptions });
  const result = await client.connect(transport);
  return { client, wire, transport, result, stderr };
}

/** Polls `probe` (sync or async) until it returns a truthy value. */
export async function waitFor<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 5000, what = 'condition'): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
