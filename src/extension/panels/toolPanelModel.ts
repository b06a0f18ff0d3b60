// The Call Tool panel's decisions as plain functions: what the page is told when the server
// changes, when the user switches between form and JSON, when a history entry or a followed task
// is shown, and what the confirmation of a destructive tool says. No `vscode`: the panel
// (usecases/toolPanel.ts) posts what these return, and node --test drives them.
import type { CallToolResult } from '../../client/schemas';
import type { FieldModel } from '../../forms/model';
import { fromValue, toArguments } from '../../forms/state';
import { errorMessage } from '../../protocol/errors';
import { truncate } from '../../protocol/text';
import type { HistoryEntry } from '../../usecases/history';
import type { FromHistory, Input, OutboundMessage } from '../../usecases/panelMessages';
import type { CallFailure } from '../../usecases/resultModel';
import type { TaskEntry } from '../../usecases/taskStore';
import { isTerminal } from '../../client/tasks';

/** What the page's status line says of the server: whether Run works, and why not. */
export function serverStateMessage(facts: { readonly running: boolean; readonly listed: boolean; readonly serverName: string; readonly toolName: string; readonly timeoutSeconds: number; readonly timeoutNote: string }): OutboundMessage {
  return {
    type: 'serverState',
    running: facts.running && facts.listed,
    timeoutSeconds: facts.timeoutSeconds,
    timeoutNote: facts.timeoutNote,
    ...(facts.running ? (facts.listed ? {} : { text: `The server no longer lists the tool ${facts.toolName}.` }) : { text: `${facts.serverName} is not running — start it to call this tool.` }),
  };
}

/** Form → JSON always works; JSON → form only when the JSON parses and the form can show all of it. */
export function switchedInput(model: FieldModel, input: Input): { readonly input: Input } | { readonly warning: string } {
  if (input.mode === 'form') return { input: { mode: 'json', text: JSON.stringify(toArguments(model, input.state).value ?? {}, null, 2) } };
  let value: unknown;
  try {
    value = input.text.trim() === '' ? {} : JSON.parse(input.text);
  } catch (e) {
    return { warning: `Fix the JSON first: ${errorMessage(e)}` };
  }
  const fit = fromValue(model, value);
  if (!fit.exact) return { warning: 'These arguments have values the form cannot show (unknown keys or values of another type); keep editing them as JSON.' };
  return { input: { mode: 'form', state: fit.state } };
}

/** A call's arguments for the form: in it when they fit, else as JSON with a note. */
export function inputFor(model: FieldModel, args: Record<string, unknown>): { readonly input: Input; readonly note?: string } {
  const fit = fromValue(model, args);
  return fit.exact ? { input: { mode: 'form', state: fit.state } } : { input: { mode: 'json', text: JSON.stringify(args, null, 2) }, note: 'These arguments do not fit the form; they are shown as JSON.' };
}

/** What showing a history entry of the panel's tool shows: its kept result, its failure, or why neither was kept. */
export type HistoryShown =
  | { readonly kind: 'result'; readonly result: CallToolResult; readonly durationMs: number; readonly fromHistory: FromHistory }
  | { readonly kind: 'failure'; readonly failure: CallFailure; readonly durationMs: number; readonly fromHistory: FromHistory }
  | { readonly kind: 'notice'; readonly text: string };

/** `entry` as the panel of `serverId`'s `toolName` shows it; undefined for an entry of another tool. */
export function historyShown(entry: HistoryEntry | undefined, serverId: string, toolName: string): HistoryShown | undefined {
  if (!entry || entry.serverId !== serverId || entry.kind !== 'tool' || entry.name !== toolName) return undefined;
  const fromHistory: FromHistory = {
    time: entry.time,
    ...(entry.arguments !== undefined ? { arguments: truncate(JSON.stringify(entry.arguments, null, 2), 2000) } : {}),
    cut: entry.resultCut === true,
  };
  if (entry.result !== undefined && typeof entry.result === 'object' && entry.result !== null) return { kind: 'result', result: entry.result as CallToolResult, durationMs: entry.durationMs, fromHistory };
  if (entry.failure) return { kind: 'failure', failure: entry.failure, durationMs: entry.durationMs, fromHistory };
  return { kind: 'notice', text: entry.resultOmitted ? 'The result of that call was too large to keep in the history.' : 'That call’s result was not kept.' };
}

/** A task's state for the panel's status area; Cancel is offered while it runs and this window may cancel it. */
export function taskStatusMessage(entry: TaskEntry, callId: string, own: boolean): OutboundMessage {
  const running = !isTerminal(entry.status);
  return {
    type: 'taskStatus',
    callId,
    task: {
      taskId: entry.taskId,
      status: entry.status,
      ...(entry.statusMessage !== undefined ? { statusMessage: entry.statusMessage } : {}),
      ...(entry.progress ? { progress: entry.progress.progress, ...(entry.progress.total !== undefined ? { total: entry.progress.total } : {}) } : {}),
      canCancel: running && (own || entry.followed === true || entry.origin === 'tasks/list'),
      followed: !own,
    },
  };
}

/** How a followed task's end is shown: the outcome this window saw, a fetch of tasks/result for a completed one, or why it ended. */
export type FollowedEnd = { readonly kind: 'result'; readonly result: CallToolResult } | { readonly kind: 'failure'; readonly failure: CallFailure } | { readonly kind: 'fetchResult' };

export function followedEnd(entry: TaskEntry): FollowedEnd {
  if (entry.outcome?.kind === 'answered') return { kind: 'result', result: entry.outcome.result };
  if (entry.outcome?.kind === 'failed') return { kind: 'failure', failure: entry.outcome.failure };
  if (entry.status === 'completed') return { kind: 'fetchResult' };
  return { kind: 'failure', failure: { kind: 'other', message: `The task ${entry.status === 'cancelled' ? 'was cancelled' : 'failed'}${entry.statusMessage ? `: ${entry.statusMessage}` : ''}.` } };
}

/** The question before a call of a tool that may change things, and its two buttons. */
export function confirmQuestion(toolName: string, serverName: string, why: string, value: Record<string, unknown>): { readonly message: string; readonly detail: string; readonly run: string; readonly always: string } {
  return {
    message: `Run ${toolName} on ${serverName}?`,
    detail: `${why}\n\nArguments:\n${truncate(JSON.stringify(value, null, 2), 600)}\n\nTo stop being asked for such tools, turn off the setting mcpHost.confirmDestructiveTools.`,
    run: 'Run',
    always: 'Run, and don’t ask again for this tool',
  };
}
