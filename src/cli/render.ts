import type { ServerOffer } from '../usecases/offerDiff';
import type { Progress } from '../protocol/connection';
import type {
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  LogMessage,
  Prompt,
  ReadResourceResult,
  ResourceContents,
  ServerCapabilities,
  Task,
  Tool,
} from '../client/schemas';
import type { TaskUpdate } from '../client/tasks';
import { TOO_DEEP_MARKER, cutDeepJson } from '../protocol/jsonShape';
import { formatBytes } from '../protocol/text';
import { revealInvisible } from '../content/invisibleText';
import { fitRows } from './fittedRows';
import { terminalSafe } from './terminalText';
import { jsonEqual } from '../schema/json';

/** Everything `inspect` shows (what the server offers); also its `--json` document. */
export type Inspection = ServerOffer;

// ---- building blocks ----

/** Lays out rows as columns separated by two spaces; the last column is never padded. */
export function table(rows: readonly (readonly string[])[], indent = ''): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => {
    // Trailing empty cells would only leave trailing spaces behind.
    let last = row.length - 1;
    while (last > 0 && row[last] === '') last--;
    const cells = row.slice(0, last + 1).map((cell, i) => (i === last ? cell : cell.padEnd(widths[i])));
    return indent + cells.join('  ');
  });
}


/** Decoded size of base64 text without decoding it. */
export function base64Bytes(data: string): number {
  let padding = 0;
  if (data.endsWith('==')) padding = 2;
  else if (data.endsWith('=')) padding = 1;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function firstLine(text: string | undefined): string {
  if (!text) return '';
  const line = text.trim().split(/\r?\n/, 1)[0];
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

function indentLines(text: string, indent: string): string[] {
  return text.split(/\r?\n/).map((line) => (line.length ? indent + line : ''));
}

function label(item: { name: string; title?: string }): string {
  return item.title && item.title !== item.name ? `${item.name} (${item.title})` : item.name;
}

// ---- capabilities and parameters ----

/** `tools (listChanged), resources (subscribe, listChanged), logging` */
export function describeCapabilities(caps: ServerCapabilities): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(caps)) {
    if (value === undefined || value === null) continue;
    if (name === 'experimental' && typeof value === 'object') {
      const keys = Object.keys(value as object);
      parts.push(keys.length ? `experimental (${keys.join(', ')})` : 'experimental');
      continue;
    }
    const flags = typeof value === 'object' ? Object.entries(value as Record<string, unknown>).filter(([, v]) => v === true).map(([k]) => k) : [];
    parts.push(flags.length ? `${name} (${flags.join(', ')})` : name);
  }
  return parts.length ? parts.join(', ') : '(none)';
}

interface Param {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  readonly description: string;
}

/** The top-level parameters of a tool's input schema, best effort (it is JSON Schema). */
export function toolParams(tool: Tool): Param[] {
  const schema = tool.inputSchema as { properties?: Record<string, unknown>; required?: unknown };
  const props = schema.properties && typeof schema.properties === 'object' ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  return Object.entries(props).map(([name, prop]) => {
    const shown = resolveLocalRef(schema, prop, new Set()).schema;
    return { name, type: schemaType(prop, schema), required: required.has(name), description: firstLine(describe(prop) ?? describe(shown)) };
  });
}

function describe(prop: unknown): string | undefined {
  return prop && typeof prop === 'object' && typeof (prop as { description?: unknown }).description === 'string' ? (prop as { description: string }).description : undefined;
}

/** How many `$ref`s are followed in a row for display (chains longer than that show as the ref's name). */
const MAX_REF_HOPS = 8;

/**
 * Follows a local `$ref` (`#/$defs/Name`, `#/definitions/Name`) inside `root`, for display only.
 * `seen` holds the refs being expanded: a ref met again (a cycle) is not followed, nor are
 * remote refs or chains past MAX_REF_HOPS; `name` is then what to show.
 */
function resolveLocalRef(root: unknown, prop: unknown, seen: Set<string>): { schema: unknown; name?: string } {
  let current = prop;
  for (let hops = 0; hops < MAX_REF_HOPS; hops++) {
    const ref = current && typeof current === 'object' ? (current as { $ref?: unknown }).$ref : undefined;
    if (typeof ref !== 'string') return { schema: current };
    const name = decodeURIComponent(ref.split('/').pop() ?? ref) || ref;
    if (!ref.startsWith('#') || seen.has(ref)) return { schema: undefined, name };
    seen.add(ref);
    let target: unknown = root;
    for (const token of ref.slice(1).split('/').slice(1)) {
      const key = decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
      target = target && typeof target === 'object' && Object.prototype.hasOwnProperty.call(target, key) ? (target as Record<string, unknown>)[key] : undefined;
    }
    if (target === undefined) return { schema: undefined, name };
    current = target;
  }
  return { schema: undefined, name: 'any' };
}

/** A TypeScript-like type of a schema: `string`, `"a" | "b"`, `("a" | "b")[]`, `Node` for a recursive ref. */
function schemaType(prop: unknown, root: unknown, depth = 0, seen: ReadonlySet<string> = new Set()): string {
  const expanding = new Set(seen);
  const resolved = resolveLocalRef(root, prop, expanding);
  if (resolved.schema === undefined && resolved.name) return resolved.name;
  const p = resolved.schema as Record<string, unknown>;
  if (!p || typeof p !== 'object' || depth > 3) return 'any';
  const inner = (x: unknown) => schemaType(x, root, depth + 1, expanding);
  if (Array.isArray(p.enum)) return p.enum.map((v) => JSON.stringify(v)).join(' | ');
  if ('const' in p) return JSON.stringify(p.const);
  if (Array.isArray(p.type)) return p.type.join(' | ');
  if (p.type === 'array') {
    const item = inner(p.items);
    // `"a" | "b"[]` would read as if only the last option were an array.
    return item.includes(' | ') ? `(${item})[]` : `${item}[]`;
  }
  if (typeof p.type === 'string') return p.type;
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(p[key])) return (p[key] as unknown[]).map(inner).join(' | ');
  }
  return 'any';
}

/** What a tool's `execution.taskSupport` means for `mcp-host call`. */
export function taskNote(tool: Tool): string | undefined {
  const support = tool.execution?.taskSupport;
  if (support === 'required') return 'Runs as a task (execution.taskSupport: required): call waits for it with its status on stderr; Ctrl-C cancels it';
  if (support === 'optional') return 'May run as a task (execution.taskSupport: optional): call --task runs it as one';
  return undefined;
}

function paramSignature(tool: Tool): string {
  return toolParams(tool)
    .map((p) => `${p.name}${p.required ? '' : '?'}: ${p.type}`)
    .join(', ');
}

// ---- commands ----

/** A server's text as the CLI shows it: terminal controls escaped as everywhere on stdout (`\u001b`), then the other invisible characters written out. */
function shownText(text: string): string {
  return revealInvisible(terminalSafe(text));
}

/** Adds `lines` to `out` one by one: a server's list or text may have more lines than a call takes arguments. */
function appendLines(out: string[], lines: readonly string[]): void {
  for (const line of lines) out.push(line);
}

/** How `inspect` lays out: the width its rows fit, and the list that could not be listed (its error follows on stderr). */
export interface InspectionLayout {
  readonly columns?: number;
  readonly failedList?: string;
}

export function renderInspection(i: Inspection, layout: InspectionLayout = {}): string {
  const out: string[] = [];
  const info = i.serverInfo;
  const head: string[][] = [
    ['Server', `${info.name} ${info.version}${info.title && info.title !== info.name ? ` (${info.title})` : ''}`],
    ['Protocol', i.protocolVersion],
    ...(i.era ? [['Era', i.era === 'modern' ? 'modern (server/discover)' : 'legacy (initialize)']] : []),
    ['Capabilities', describeCapabilities(i.capabilities)],
  ];
  appendLines(out, table(head));
  if (i.instructions?.trim()) {
    out.push('', 'Instructions');
    appendLines(out, indentLines(i.instructions.trim(), '  '));
  }
  if (i.tools) {
    out.push('', `Tools (${i.tools.length})`);
    appendLines(out, fitRows(i.tools.map((t) => [t.name, `(${paramSignature(t)})`, `${taskNote(t) ? '[task] ' : ''}${shownText(firstLine(t.description))}`]), '  ', layout.columns));
  }
  if (i.resources) {
    out.push('', `Resources (${i.resources.length})`);
    appendLines(out, table(i.resources.map((r) => [r.uri, label(r), r.mimeType ?? '', firstLine(r.description)]), '  '));
  }
  if (i.resourceTemplates) {
    out.push('', `Resource templates (${i.resourceTemplates.length})`);
    appendLines(out, table(i.resourceTemplates.map((t) => [t.uriTemplate, label(t), t.mimeType ?? '', firstLine(t.description)]), '  '));
  }
  if (i.prompts) {
    out.push('', `Prompts (${i.prompts.length})`);
    appendLines(out, fitRows(i.prompts.map((p) => [p.name, `(${promptSignature(p)})`, firstLine(p.description)]), '  ', layout.columns));
  }
  if (layout.failedList) out.push('', `${layout.failedList[0].toUpperCase()}${layout.failedList.slice(1)}: could not be listed (the error is below, on stderr)`);
  return out.join('\n');
}

function promptSignature(p: Prompt): string {
  return (p.arguments ?? []).map((a) => `${a.name}${a.required ? '' : '?'}`).join(', ');
}

export function renderTools(tools: readonly Tool[]): string {
  if (tools.length === 0) return '(no tools)';
  const out: string[] = [];
  for (const tool of tools) {
    if (out.length) out.push('');
    out.push(label(tool));
    if (tool.description?.trim()) appendLines(out, indentLines(shownText(tool.description.trim()), '  '));
    const task = taskNote(tool);
    if (task) out.push(`  ${task}`);
    const params = toolParams(tool);
    if (params.length) {
      out.push('  Parameters:');
      appendLines(out, table(params.map((p) => [p.name, p.type, p.required ? 'required' : 'optional', p.description]), '    '));
    } else {
      out.push('  Parameters: none');
    }
  }
  return out.join('\n');
}

/** One content block: text as is, everything else as a one-line summary. */
export function renderContent(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}, ${formatBytes(base64Bytes(block.data))}]`;
    case 'resource_link': {
      const details = [block.mimeType, block.size === undefined ? undefined : formatBytes(block.size)].filter(Boolean).join(', ');
      const desc = block.description ? ` — ${firstLine(block.description)}` : '';
      return `[resource link ${block.uri} "${block.name}"${details ? ` (${details})` : ''}${desc}]`;
    }
    case 'resource':
      return `[embedded resource ${summarizeContents(block.resource)}]`;
    default: {
      const never: never = block;
      return `[unknown content ${JSON.stringify((never as { type?: unknown }).type)}]`;
    }
  }
}

function summarizeContents(c: ResourceContents): string {
  const parts: string[] = [];
  if (c.mimeType) parts.push(c.mimeType);
  if (typeof c.text === 'string') parts.push(`text, ${formatBytes(Buffer.byteLength(c.text))}`);
  else if (typeof c.blob === 'string') parts.push(`blob, ${formatBytes(base64Bytes(c.blob))}`);
  return `${c.uri} (${parts.join(', ')})`;
}

/**
 * How deep server JSON is printed: deeper parts become TOO_DEEP_MARKER (JSON.stringify itself
 * overflows the stack at a few thousand levels, which would lose the whole result).
 */
export const MAX_PRINTED_DEPTH = 256;

/** `value` as indented JSON, cut at MAX_PRINTED_DEPTH; `cut` says whether anything was left out. */
export function printableJson(value: unknown): { text: string; cut: boolean } {
  const shown = cutDeepJson(value, MAX_PRINTED_DEPTH);
  return { text: JSON.stringify(shown.value, null, 2), cut: shown.cut };
}

/** The note printed (on stderr) when printableJson cut something. */
export const CUT_DEEP_NOTE = `nested more than ${MAX_PRINTED_DEPTH} levels deep: the deeper levels are printed as ${JSON.stringify(TOO_DEEP_MARKER)}`;

export function renderCallResult(result: CallToolResult): string {
  const out: string[] = [];
  if (result.isError) out.push('Tool reported an error:');
  for (const block of result.content) out.push(renderContent(block));
  // Servers often send the structured content as a text block too (as the spec advises): print it once.
  if (result.structuredContent !== undefined && !result.content.some((block) => block.type === 'text' && parsesTo(block.text, result.structuredContent))) {
    const printed = printableJson(result.structuredContent);
    out.push('structuredContent:', printed.text);
    if (printed.cut) out.push(`(${CUT_DEEP_NOTE})`);
  }
  if (out.length === 0) out.push('(empty result)');
  return out.join('\n');
}

/** True when `text` is JSON for `value`. */
function parsesTo(text: string, value: unknown): boolean {
  try {
    return jsonEqual(JSON.parse(text), value);
  } catch {
    return false;
  }
}

export function renderReadResult(result: ReadResourceResult): string {
  if (result.contents.length === 0) return '(no contents)';
  const single = result.contents.length === 1;
  const out: string[] = [];
  for (const c of result.contents) {
    if (typeof c.text === 'string') {
      if (!single) out.push(`--- ${c.uri}${c.mimeType ? ` (${c.mimeType})` : ''}`);
      out.push(c.text);
    } else {
      out.push(`[blob ${summarizeContents(c)}]`);
    }
  }
  return out.join('\n');
}

export function renderPromptResult(result: GetPromptResult): string {
  const out: string[] = [];
  if (result.description) out.push(`Description: ${result.description}`, '');
  for (const m of result.messages) {
    out.push(`[${m.role}]`, renderContent(m.content), '');
  }
  if (result.messages.length === 0) out.push('(no messages)');
  return out.join('\n').trimEnd();
}

/** A progress report of the running call, for the status line on a terminal. */
export function renderProgress(progress: Progress): string {
  const total = progress.total !== undefined && progress.total > 0 ? progress.total : undefined;
  const amount = total !== undefined ? `${progress.progress}/${total} (${Math.round(Math.min(1, progress.progress / total) * 100)}%)` : String(progress.progress);
  return `progress ${amount}${progress.message ? ` ${firstLine(progress.message)}` : ''}`;
}

/** The state of a running task, for the status line: `task working: Analyzing content… · 3 s · progress 1/4 (25%)`. */
export function renderTaskStatus(update: TaskUpdate): string {
  const { task } = update;
  const parts = [`task ${task.status}${task.statusMessage ? `: ${firstLine(task.statusMessage)}` : ''}`, `${Math.floor(update.elapsedMs / 1000)} s`];
  if (update.progress) parts.push(renderProgress(update.progress));
  return parts.join(' · ');
}

/** `mcp-host tasks`: one line a task (id, status, message, times). */
export function renderTasks(tasks: readonly Task[]): string {
  if (tasks.length === 0) return '(no tasks)';
  return tasks
    .map((t) => `${t.taskId}  ${t.status}${t.statusMessage ? `  ${firstLine(t.statusMessage)}` : ''}  (created ${t.createdAt}, updated ${t.lastUpdatedAt}${t.ttl === null ? '' : `, kept ${Math.round(t.ttl / 1000)} s`})`)
    .join('\n');
}

/** A log message of the server (`notifications/message`), one line: `[server warning] logger: text`. */
export function renderLogMessage(message: LogMessage): string {
  const text = typeof message.data === 'string' ? message.data : JSON.stringify(message.data);
  return `[server ${message.level}] ${message.logger ? `${message.logger}: ` : ''}${(text ?? '').replace(/\s*[\r\n]+\s*/g, ' ')}`;
}
