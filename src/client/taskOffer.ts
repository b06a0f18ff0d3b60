// Whether a server runs tool calls as tasks, as its client's handshake found: a module of its own so
// the tree (loaded at activation) asks without loading the task code (modernTasks.ts, tasks.ts).
import type { McpClient } from './client';

/** True when the server declares the extension (it does not exist before 2026-07-28): it decides per call which run as tasks. */
export function offersTasksExtension(client: McpClient): boolean {
  return client.taskOffer().toolCalls === 'server-decides';
}

/**
 * True when the server runs tool calls as tasks in its era: the 2025-11-25 `tasks` capability, or
 * the 2026-07-28 tasks extension (where the server decides per call). The editor's Tasks group
 * shows for such a server before its first task.
 */
export function serverOffersTasks(client: McpClient): boolean {
  return client.taskOffer().offered;
}
