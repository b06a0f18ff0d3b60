import * as path from 'node:path';
import { Writable } from 'node:stream';
import { OutboundFrame, TransportCloseInfo, TransportLog } from '../../src/protocol/transport';
import { StdioTransport, StdioTransportOptions } from '../../src/transport/stdio';

/** Absolute path of a fixture server (compiled tests live in out/test/transport/). */
export function fixture(name: string): string {
  return path.resolve(__dirname, '../../../test/fixtures/servers/transport', name);
}

/** A transport with everything it emits recorded, and helpers to wait for it. */
export class RecordedTransport {
  readonly transport: StdioTransport;
  readonly messages: Array<{ message: unknown; bytes: number }> = [];
  readonly logs: TransportLog[] = [];
  readonly closes: TransportCloseInfo[] = [];
  readonly closed: Promise<TransportCloseInfo>;
  private waiters: Array<() => void> = [];

  constructor(options: StdioTransportOptions) {
    this.transport = new StdioTransport({ closeGraceMs: 200, termGraceMs: 200, ...options });
    this.transport.onMessage((m) => this.record(() => this.messages.push(m)));
    this.transport.onLog((l) => this.record(() => this.logs.push(l)));
    this.closed = new Promise((resolve) =>
      this.transport.onClose((info) => {
        this.closes.push(info);
        this.record(() => resolve(info));
      }),
    );
  }

  /** Waits until `predicate` holds, re-checked on every event; fails after `ms`. */
  async until<T>(predicate: () => T | undefined | false, what: string, ms = 5000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = predicate();
      if (value) return value;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; logs: ${JSON.stringify(this.logs)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits for the first message `method` or with result id `id`. */
  message(match: { method?: string; id?: number }, ms?: number): Promise<Record<string, any>> {
    return this.until(
      () =>
        this.messages
          .map((m) => m.message as Record<string, any>)
          .find((m) => (match.method !== undefined && m.method === match.method) || (match.id !== undefined && m.id === match.id)),
      `message ${JSON.stringify(match)}`,
      ms,
    );
  }

  logsOf(kind: TransportLog['kind']): string[] {
    return this.logs.filter((l) => l.kind === kind).map((l) => l.text);
  }

  private record(action: () => void): void {
    action();
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** The child's stdin, reached through private state: only tests look at listener counts. */
export function stdinOf(transport: StdioTransport): Writable {
  const phase = (transport as unknown as { phase: { server?: { child: { stdin: Writable } } } }).phase;
  if (!phase.server) throw new Error('the transport is not running');
  return phase.server.child.stdin;
}

/** An outbound frame for `message`, as the connection would build it. */
export function frame(message: Record<string, any>): OutboundFrame {
  const info: OutboundFrame['info'] =
    typeof message.method !== 'string' ? { kind: 'response', id: message.id } : message.id === undefined ? { kind: 'notification', method: message.method } : { kind: 'request', id: message.id, method: message.method };
  return { json: JSON.stringify(message), message: message as OutboundFrame['message'], info };
}

/** The exit facts of a close caused by the process exiting; fails for any other close. */
export function exitOf(info: TransportCloseInfo): { code: number | null; signal: string | null; stderrTail: readonly string[] } {
  if (info.reason.kind !== 'process-exited') throw new Error(`expected the process to exit, got ${JSON.stringify(info.reason)}`);
  return { code: info.reason.code, signal: info.reason.signal, stderrTail: info.process?.stderrTail ?? [] };
}
