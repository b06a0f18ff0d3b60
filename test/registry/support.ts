import * as path from 'node:path';
import { Root, RootsProvider } from '../../src/client/client';
import { parseConfigText } from '../../src/config/parse';
import { folderSources } from '../../src/config/sources';
import { ServerEntry } from '../../src/config/types';
import { VariableContext, resolveEntry } from '../../src/config/variables';
import { PrepareServer, ServerHandle, ServerRegistry, ServerRegistryOptions } from '../../src/registry/serverRegistry';
import { transportFactory } from '../../src/transport/transportFactory';
import type { LogSeverity } from '../../src/protocol/logging';

export const REPO = path.resolve(__dirname, '../../..');
export const NODE = process.execPath;
export const EVERYTHING = ['node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'stdio'];
export const FILESYSTEM = 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js';
export const fixture = (name: string) => `test/registry/fixtures/${name}`;
export const sharedFixture = (name: string) => `test/fixtures/servers/${name}`;

/** The repository as the workspace folder: relative paths in entries resolve against it. */
export const FOLDER = { name: 'repo', fsPath: REPO };
export const [SOURCE] = folderSources(FOLDER);

/** Entries from a `.vscode/mcp.json` servers map (held by the repository folder). */
export function entries(servers: Record<string, unknown>, inputs?: unknown[]): ServerEntry[] {
  const loaded = parseConfigText(JSON.stringify({ servers, ...(inputs ? { inputs } : {}) }), SOURCE);
  const errors = loaded.problems.filter((p) => p.severity === 'error');
  if (errors.length) throw new Error(`bad test config: ${errors.map((p) => p.message).join('; ')}`);
  return loaded.servers;
}

/** A stdio entry running `node <script> ...args` from the repository. */
export const node = (script: string, ...args: string[]) => ({ command: NODE, args: [script, ...args] });

export function variableContext(inputs: Record<string, string> = {}): VariableContext {
  return {
    folders: { repo: REPO },
    userHome: REPO,
    env: process.env,
    resolveInput: async (id) => {
      if (!(id in inputs)) throw new Error(`the input "${id}" was cancelled`);
      return inputs[id];
    },
  };
}

export const prepare: PrepareServer = (entry) => resolveEntry(entry, variableContext());

export interface LogLine {
  readonly id: string;
  readonly level: LogSeverity;
  readonly text: string;
}

/** Roots that tests can change. */
export class MutableRoots implements RootsProvider {
  constructor(public roots: Root[] = []) {}
  listRoots(): Root[] {
    return this.roots;
  }
}

const registries = new Set<ServerRegistry>();

/** A registry with StdioTransport (short grace periods) and a captured log. */
export function makeRegistry(options: Partial<ServerRegistryOptions> = {}): { registry: ServerRegistry; logs: LogLine[]; logsOf: (id: string) => string[] } {
  const logs: LogLine[] = [];
  const registry = new ServerRegistry({
    clientInfo: { name: 'mcp-host-tests', version: '0.0.0' },
    createTransport: transportFactory({ stdio: { closeGraceMs: 1000, termGraceMs: 1000 } }),
    roots: new MutableRoots(),
    restart: { maxRestarts: 3, windowMinutes: 3, backoffMs: 50 },
    startTimeoutMs: 20_000,
    log: (id, level, text) => logs.push({ id, level, text }),
    ...options,
  });
  registries.add(registry);
  return { registry, logs, logsOf: (id) => logs.filter((l) => l.id === id).map((l) => l.text) };
}

/** Disposes every registry a test made: call it from `after()`/`afterEach()`. */
export async function disposeRegistries(): Promise<void> {
  await Promise.all([...registries].map((r) => r.dispose()));
  registries.clear();
}

export function isAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Polls `probe` until it returns a truthy value. */
export async function waitFor<T>(probe: () => T | undefined | false | null | Promise<T | undefined | false | null>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits until the registry reports the server in `kind` (and `extra` holds). */
export function waitForStatus(handle: ServerHandle, kind: ServerHandle['status']['kind'], extra: (h: ServerHandle) => boolean = () => true, timeoutMs = 10_000): Promise<ServerHandle> {
  return waitFor(() => handle.status.kind === kind && extra(handle) && handle, timeoutMs, `${handle.entry.name} to be ${kind} (now ${JSON.stringify(handle.status)})`);
}

/** The text of the first content block of a tool result. */
export function firstText(result: { content: unknown[] }): string {
  const block = result.content[0] as { type: string; text?: string };
  return block.text ?? '';
}
