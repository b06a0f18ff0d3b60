// The messages between the tool, prompt and view panels (media/webview/toolCall.js) and the extension.
// Inbound messages (webview → extension) are parsed strictly with zod: a webview is a browser
// page showing server-provided content, so what it posts is treated as untrusted input.
// Outbound messages are typed here; the webview script checks what it receives defensively.
import * as z from '../protocol/zod';
import { truncate } from '../protocol/text';
import type { ToolAnnotations } from '../client/schemas';
import type { FieldError, FieldModel } from '../forms/model';
import { FormStateSchema, MAX_FORM_TEXT } from '../forms/formStateSchema';
import { ParsedMessage, parseWebviewMessage } from '../content/webviewMessages';
import type { Json } from '../schema/json';
import type { HistoryEntry } from './history';
import type { CallFailure, DisplayPart, PromptDisplay, ToolResultDisplay } from './resultModel';

const MAX_DEPTH = 64;

function depthOf(v: unknown, d = 0): number {
  if (d > MAX_DEPTH) return d;
  if (Array.isArray(v)) return v.reduce<number>((m, x) => Math.max(m, depthOf(x, d + 1)), d + 1);
  if (typeof v === 'object' && v !== null) return Object.values(v).reduce<number>((m, x) => Math.max(m, depthOf(x, d + 1)), d + 1);
  return d;
}

// Built on first use (z.lazy), when a panel posts: building zod schemas is most of what loading
// the extension runs, and activation needs none of these.
const State = z.lazy(() => z.optional(FormStateSchema).check(z.refine((v) => depthOf(v) <= MAX_DEPTH, 'too deeply nested')));
const Id = z.lazy(() => z.string().check(z.minLength(1), z.maxLength(200)));

/** What the user is editing: the form, or the JSON text of the arguments. */
export const InputSchema = z.lazy(() => z.discriminatedUnion('mode', [z.strictObject({ mode: z.literal('form'), state: State }), z.strictObject({ mode: z.literal('json'), text: z.string().check(z.maxLength(MAX_FORM_TEXT)) })]));
export type Input = z.infer<typeof InputSchema>;

export const InboundMessageSchema = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('ready') }),
    /** The user typed in the form for the first time (a preview tab becomes a kept one). */
    z.strictObject({ type: z.literal('edited') }),
    /** The input changed: check it and show the errors (debounced by the webview). */
    z.strictObject({ type: z.literal('validate'), input: InputSchema }),
    /** Switch between form and JSON, carrying the current input over. */
    z.strictObject({ type: z.literal('switchMode'), input: InputSchema }),
    z.strictObject({ type: z.literal('run'), input: InputSchema, timeoutSeconds: z.optional(z.number().check(z.gt(0), z.lte(24 * 3600))) }),
    z.strictObject({ type: z.literal('cancel') }),
    /** The user clicked a link in server text. */
    z.strictObject({ type: z.literal('openLink'), url: z.string().check(z.maxLength(8192)) }),
    /** The user clicked a resource link (or an embedded resource's URI). */
    z.strictObject({ type: z.literal('readResource'), uri: z.string().check(z.minLength(1), z.maxLength(8192)) }),
    /** Open one part of a result in an editor (text in full, blobs saved or previewed). */
    z.strictObject({ type: z.literal('openPart'), callId: Id, index: z.int().check(z.gte(0), z.lte(100_000)) }),
    z.strictObject({ type: z.literal('savePart'), callId: Id, index: z.int().check(z.gte(0), z.lte(100_000)) }),
    z.strictObject({ type: z.literal('copyResult'), callId: Id }),
    /** Open the whole result as one read-only document. */
    z.strictObject({ type: z.literal('openResult'), callId: Id }),
    /** Put a history entry's arguments into the form. */
    z.strictObject({ type: z.literal('loadHistory'), historyId: Id }),
    z.strictObject({ type: z.literal('rerun'), historyId: Id }),
    /** Show a history entry's kept result (or failure) as a fresh one would be shown. */
    z.strictObject({ type: z.literal('showHistory'), historyId: Id }),
    z.strictObject({ type: z.literal('clearHistory') }),
    /** The server's suggestions for one field (prompt arguments), with the other fields as context. */
    z.strictObject({ type: z.literal('complete'), name: z.string().check(z.maxLength(1000)), value: z.string().check(z.maxLength(10_000)), context: z.record(z.string().check(z.maxLength(1000)), z.string().check(z.maxLength(10_000))) }),
  ]),
);
export type InboundMessage = z.infer<typeof InboundMessageSchema>;

/** What the Server Details page may say: it is ready, or the user wants fresh figures. */
export const DetailsInboundSchema = z.lazy(() => z.discriminatedUnion('type', [z.strictObject({ type: z.literal('ready') }), z.strictObject({ type: z.literal('refresh') })]));

/** Parses a message from a tool, prompt or view panel. */
export function parseInbound(message: unknown): ParsedMessage<InboundMessage> {
  return parseWebviewMessage(InboundMessageSchema, message);
}

/** The tool as the panel header shows it. Server text: the webview inserts it as text. */
export interface ToolHeader {
  /** A prompt's form (its arguments, "Get prompt") rather than a tool's; default tool. */
  readonly kind?: 'tool' | 'prompt';
  /** The fields offer the server's completion suggestions (`complete` messages). */
  readonly completions?: boolean;
  readonly serverName: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly descriptionHtml?: string;
  readonly annotations?: ToolAnnotations;
  readonly hasOutputSchema: boolean;
  /** Paths of fields drawn as JSON, with why (shown once above the form). */
  readonly fallbacks: ReadonlyArray<{ path: string; reason?: string }>;
}

export interface HistoryItem {
  readonly id: string;
  readonly outcome: HistoryEntry['outcome'];
  readonly summary: string;
  readonly durationMs: number;
  readonly time: number;
  readonly arguments?: string;
  readonly canRerun: boolean;
  /** Its result (or failure) was kept and can be shown again. */
  readonly canShow: boolean;
  /** The call ran as a task: its id and the status it ended in. */
  readonly task?: { readonly id: string; readonly status: string };
  /** Who made a call not made in this panel: "Server Time (from app)", "chat (@mcp)". */
  readonly madeBy?: string;
}

/** The panel's row of a history entry; `panelOrigin` is the origin of the panel's own calls. */
export function historyItem(e: HistoryEntry, panelOrigin: string): HistoryItem {
  return {
    id: e.id,
    outcome: e.outcome,
    summary: e.summary,
    durationMs: e.durationMs,
    time: e.time,
    ...(e.arguments !== undefined ? { arguments: truncate(JSON.stringify(e.arguments), 2000) } : {}),
    canRerun: !e.argumentsOmitted,
    canShow: e.result !== undefined || e.failure !== undefined,
    ...(e.task ? { task: { id: e.task.id, status: e.task.status } } : {}),
    ...(e.origin !== undefined && e.origin !== panelOrigin ? { madeBy: truncate(e.origin, 100) } : {}),
  };
}

/** A task the panel shows: its call's, or one opened from the tree. */
export interface TaskStatusView {
  readonly taskId: string;
  readonly status: string;
  readonly statusMessage?: string;
  readonly progress?: number;
  readonly total?: number;
  /** Cancel reaches it (its call, or tasks/cancel). */
  readonly canCancel: boolean;
  /** Not this panel's own call (opened from the tree or a notification). */
  readonly followed: boolean;
}

/** Marks a result shown from the history rather than from a call just made. */
export interface FromHistory {
  /** Epoch ms when that call started. */
  readonly time: number;
  readonly arguments?: string;
  /** The kept copy was cut to fit the history. */
  readonly cut: boolean;
}

export type OutboundMessage =
  | {
      readonly type: 'initTool';
      readonly header: ToolHeader;
      readonly model: FieldModel;
      readonly input: Input;
      readonly timeoutSeconds: number;
      /** Where that timeout comes from (the server entry, the setting…), for the field's label. */
      readonly timeoutNote: string;
      readonly history: readonly HistoryItem[];
    }
  | { readonly type: 'initView'; readonly title: string; readonly subtitle?: string }
  | { readonly type: 'validation'; readonly errors: readonly FieldError[]; readonly preview?: string }
  | { readonly type: 'setInput'; readonly input: Input; readonly note?: string }
  | { readonly type: 'running'; readonly callId: string; readonly startedAt: number; readonly arguments: string }
  | { readonly type: 'progress'; readonly callId: string; readonly progress: number; readonly total?: number; readonly message?: string }
  /** The server asked the user something (a form, an approval): the call's timeout waits meanwhile. */
  | { readonly type: 'timeoutPaused'; readonly callId: string; readonly paused: boolean }
  /** A modern server asked for input (multi round-trip, or for its task: `taskId`): the call waits while the host answers `requests` (their methods). */
  | { readonly type: 'waitingForInput'; readonly callId: string; readonly waiting: boolean; readonly round: number; readonly requests: readonly string[]; readonly taskId?: string }
  /** The running call is a task (or the panel follows one): its state. */
  | { readonly type: 'taskStatus'; readonly callId: string; readonly task: TaskStatusView }
  | { readonly type: 'toolResult'; readonly callId: string; readonly display: ToolResultDisplay; readonly durationMs: number; readonly fromHistory?: FromHistory; readonly task?: { readonly id: string; readonly status: string } }
  | { readonly type: 'failure'; readonly callId: string; readonly failure: CallFailure; readonly durationMs: number; readonly fromHistory?: FromHistory; readonly task?: { readonly id: string; readonly status: string } }
  | { readonly type: 'promptResult'; readonly callId: string; readonly display: PromptDisplay; readonly descriptionHtml?: string }
  | { readonly type: 'resourceResult'; readonly callId: string; readonly uri: string; readonly parts: readonly DisplayPart[] }
  | { readonly type: 'history'; readonly entries: readonly HistoryItem[] }
  /** Suggestions for the field `name`, asked with `value`. */
  | { readonly type: 'completions'; readonly name: string; readonly value: string; readonly values: readonly string[] }
  | { readonly type: 'serverState'; readonly running: boolean; readonly text?: string; readonly timeoutSeconds?: number; readonly timeoutNote?: string }
  | { readonly type: 'notice'; readonly level: 'info' | 'warning' | 'error'; readonly text: string }
  /** The tool's or prompt's own icon, checked (src/icons): a data: URI of a PNG, JPEG, GIF or WebP. */
  | { readonly type: 'headerIcon'; readonly src: string }
  /** A server's dialog closed and VS Code activated this panel: focus goes back somewhere meaningful. */
  | { readonly type: 'focusBack' };

export type { Json };
