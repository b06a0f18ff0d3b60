// What `mcp-host replay FILE` checks before it sends a recording again: that the recording was
// made with the server it now goes to (a warning when not), and the user's yes for the calls that
// may change things and for the answers it would give the server in the user's name.
import type { McpClient } from '../../client/client';
import type { RequestOptions } from '../../protocol/connection';
import { isRecord } from '../../protocol/jsonShape';
import type { ResolvedServer } from '../../config';
import { recordedServerLabel } from '../../usecases/recordingFile';
import { callsNeedingApproval } from '../../usecases/runApproval';
import type { LoadedReplay } from '../replay';
import { RunApproval, approveRun, describeRun } from './approval';

/** A warning when the recording names another server than the one it is replayed against. */
export function otherServerWarning(replay: LoadedReplay, target: ResolvedServer): string | undefined {
  const now = recordedServerLabel(target);
  if (replay.server === undefined || replay.server === now) return undefined;
  return `mcp-host: warning: the recording was made with ${replay.server}; it is replayed against ${now}`;
}

/**
 * Shows and approves what the replay will do on this server: its calls of tools that may change
 * things (by the server's own annotations), and the server requests it would answer with the
 * recorded answers. Throws RunNotApproved when not approved.
 */
export async function approveReplay(client: McpClient, replay: LoadedReplay, approval: RunApproval, stderr: (text: string) => void, req: RequestOptions): Promise<void> {
  const calls = replay.steps.flatMap((step) =>
    step.kind === 'request' && step.method === 'tools/call' && typeof step.params?.name === 'string' ? [{ tool: step.params.name, arguments: isRecord(step.params.arguments) ? step.params.arguments : {}, from: `line ${step.line}` }] : [],
  );
  const tools = calls.length && client.serverCapabilities?.tools ? await client.listTools(req) : undefined;
  const answers = [...replay.replies.handlers.keys()].map((method) => `answer the server's ${method} requests with the answers recorded in the file, not yours`);
  await approveRun('this replay', describeRun({ calls: callsNeedingApproval(calls, tools), answers }), approval, stderr);
}
