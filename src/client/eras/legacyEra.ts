// The codec of protocol 2025-11-25 and earlier (the legacy era): requests go as they are, the
// log level with `logging/setLevel`, subscriptions with `resources/subscribe`, root changes as
// `notifications/roots/list_changed`; tasks are the `tasks` capability's (client/tasks.ts).
import type { RequestOptions } from '../../protocol/connection';
import { Disposable } from '../../protocol/disposable';
import { McpLocalError } from '../../protocol/errors';
import type * as z from '../../protocol/zod';
import type { McpClientOptions } from '../clientContract';
import { LoggingLevel, ProtocolVersion, sessionSchemas } from '../schemas';
import { EraCodec, EraSession, TaskOffer, answersRoots } from './eraCodec';

/** What a legacy client declares in `initialize`: roots with list changes, and the tasks it calls (client/tasks.ts). */
export function legacyCapabilities(options: McpClientOptions): Record<string, unknown> {
  const caps: Record<string, unknown> = { ...options.capabilities };
  if (answersRoots(options)) caps.roots = { listChanged: true };
  // The host as receiver declares more when its options say so (serverRequests/taskReceiver.ts).
  if (caps.tasks === undefined) caps.tasks = {};
  return caps;
}

export class LegacyEra implements EraCodec {
  readonly era = 'legacy' as const;
  readonly handshake = 'legacy (initialize handshake)';
  readonly loggingLevel = undefined;
  readonly listsCarryCacheHints = false;
  /** A legacy server refuses the era probe: its server/discover error is expected. */
  readonly probeErrorsExpected = true;

  constructor(
    private readonly session: EraSession,
    readonly version: ProtocolVersion,
  ) {}

  taskFlagRefusal(): undefined {
    return undefined;
  }

  clientCapabilities(): Record<string, unknown> {
    return legacyCapabilities(this.session.options);
  }

  send<T>(method: string, params: Record<string, unknown> | undefined, schema: z.ZodMiniType<T> | undefined, options?: RequestOptions): Promise<T> {
    // A relayed call's own handlers reach a legacy server's requests through options.peerRequestHandlers.
    return this.session.connection.request(method, params, schema, options) as Promise<T>;
  }

  answerInputRequests(method: string): Promise<Record<string, unknown>> {
    return Promise.reject(new McpLocalError('capability', `${method}: input requests are of protocol 2026-07-28; this session speaks ${this.version}`));
  }

  checkExtensionScope(method: string): void {
    throw new McpLocalError('capability', `${method}: extensions are declared per request in protocol 2026-07-28; this session speaks ${this.version}`);
  }

  async ping(options?: RequestOptions): Promise<void> {
    await this.session.connection.request('ping', undefined, sessionSchemas().emptyResult, options);
  }

  async setLoggingLevel(level: LoggingLevel, options?: RequestOptions): Promise<void> {
    await this.session.connection.request('logging/setLevel', { level }, sessionSchemas().emptyResult, options);
  }

  describeLoggingLevel(level: LoggingLevel): string {
    return `sent logging/setLevel ${level}`;
  }

  async subscribe(uri: string, options?: RequestOptions): Promise<void> {
    await this.session.connection.request('resources/subscribe', { uri }, sessionSchemas().emptyResult, options);
  }

  async unsubscribe(uri: string, options?: RequestOptions): Promise<void> {
    await this.session.connection.request('resources/unsubscribe', { uri }, sessionSchemas().emptyResult, options);
  }

  async rootsChanged(): Promise<void> {
    if (this.session.options.roots) await this.session.connection.notify('notifications/roots/list_changed');
  }

  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    await this.session.connection.notify(method, params);
  }

  relistsToolsAfter(): boolean {
    return false;
  }

  start(): void {}

  accepts(): boolean {
    return true;
  }

  acknowledged(): void {}

  listenToTask(): Disposable {
    return Disposable.None;
  }

  isTaskListened(): boolean {
    return false;
  }

  taskOffer(): TaskOffer {
    const tasks = this.serverTasks();
    const tools = (tasks?.requests as Record<string, unknown> | undefined)?.tools as Record<string, unknown> | undefined;
    return { offered: tasks !== undefined, toolCalls: tools?.call !== undefined ? 'per-tool' : 'none', lists: tasks?.list !== undefined, cancelsListed: tasks?.cancel !== undefined };
  }

  taskListRefusal(): McpLocalError | undefined {
    return this.serverTasks()?.list === undefined ? this.session.missing('tasks/list', 'tasks.list') : undefined;
  }

  asLegacyResult(result: Record<string, unknown>): Record<string, unknown> {
    return result;
  }

  dispose(): void {}

  /** The server's `tasks` capability (2025-11-25), loosely read. */
  private serverTasks(): Record<string, unknown> | undefined {
    const tasks = (this.session.serverCapabilities as Record<string, unknown>).tasks;
    return tasks && typeof tasks === 'object' ? (tasks as Record<string, unknown>) : undefined;
  }
}
