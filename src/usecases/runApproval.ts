// What a file of calls someone else wrote would do when run (saved tests, a recording to replay):
// the calls of tools that may change things, as a hand call of the same tool would be confirmed.
// Plain: the editor's Testing view and the CLI's `test` and `replay` ask on the same list.
import type { Tool } from '../client/schemas';
import { truncate } from '../protocol/text';
import { confirmationReason, needsConfirmation } from './toolPolicy';

/** A tool call a file would make, and why it needs the user's yes. */
export interface PlannedCall {
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  /** Where it comes from: the test's name, or the recording's line. */
  readonly from: string;
  readonly reason: string;
}

/**
 * The calls among `calls` a hand call would confirm: tools that may change things (toolPolicy),
 * and tools the server does not list (nothing says what they do). `tools` undefined: the server
 * lists none, so every call counts.
 */
export function callsNeedingApproval(calls: readonly Omit<PlannedCall, 'reason'>[], tools: readonly Tool[] | undefined): PlannedCall[] {
  const out: PlannedCall[] = [];
  for (const call of calls) {
    const tool = tools?.find((t) => t.name === call.tool);
    if (!tool) out.push({ ...call, reason: 'the server does not list this tool, so nothing says what it does' });
    else if (needsConfirmation(tool)) out.push({ ...call, reason: confirmationReason(tool) });
  }
  return out;
}

/** One line a call: `delete_path {"path":"/tmp/x"} (test "cleanup")`. */
export function describePlannedCall(call: Pick<PlannedCall, 'tool' | 'arguments' | 'from'>): string {
  return `${call.tool} ${truncate(JSON.stringify(call.arguments), 160)} (${call.from})`;
}
