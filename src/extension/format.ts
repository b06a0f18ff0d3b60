// Pure text for the VS Code layer: tree labels and descriptions, tooltip Markdown, the status bar
// text, the consent prompt. No `vscode` import, so node --test can load it. Everything a server
// sends is untrusted: it goes through `escapeMarkdown` before it reaches a MarkdownString.
import type { Implementation, Prompt, Resource, ResourceTemplate, ServerCapabilities, Tool, ToolAnnotations } from '../client/schemas';
import { ERA_ROW_SUFFIXES } from '../client/era';
import { displayCommandLine, displayPath, transportLabel } from '../registry/logText';
import { connectionWord } from '../registry/connectionStatus';
import { MODEL_NEEDED } from '../chat/modelAvailability';
import { truncate } from '../protocol/text';
import { assessSignInPage } from '../usecases/signInPage';
import { revealInvisible } from '../usecases/invisibleText';

export { transportLabel };

/**
 * Text for a quick pick's label, description or detail that came from a server or a workspace:
 * VS Code draws `$(name)` there as an icon, so a server could dress a tool or a choice up as
 * something else ("$(pass-filled) verified"). The backslash makes VS Code show the text as written.
 */
export function plainPickText(text: string): string;
export function plainPickText(text: string | undefined): string | undefined;
export function plainPickText(text: string | undefined): string | undefined {
  return text?.replace(/\$\(/g, '\\$(');
}

/** Longest server-provided text shown in one tooltip field. */
export const MAX_TOOLTIP_TEXT = 2000;

/**
 * Escapes text for a MarkdownString: every ASCII punctuation character gets a backslash (so no
 * link, image, HTML, emphasis or code span can be formed), and line breaks are kept as hard breaks.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`)
    .replace(/\n/g, '  \n');
}


/** Escaped and shortened server text for a tooltip, its invisible characters written out. */
function untrusted(text: string, max = MAX_TOOLTIP_TEXT): string {
  return escapeMarkdown(truncate(revealInvisible(text), max));
}

// ---- server rows ----

/** The status kinds a server row can show (the registry's `ServerStatus['kind']`, and `signin`: a remote server waiting for the user to sign in). */
export type StatusKind = 'stopped' | 'starting' | 'waiting' | 'running' | 'stopping' | 'error' | 'blocked' | 'signin';

/** A server's state as the view shows it: `reason` says why it waits, is blocked or failed. */
export interface ShownStatus {
  readonly kind: StatusKind;
  readonly reason?: string;
  /** What a waiting server waits for (the start gate's answer). */
  readonly waitingFor?: 'consent' | 'an input';
  /** Its sign-in in a few words (signed in, when the token expires, whether it is refreshed). */
  readonly signIn?: string;
}

/** Codicon id (and theme color id) for a server's state. */
export function statusIcon(kind: StatusKind): { id: string; color?: string } {
  switch (kind) {
    case 'starting':
      return { id: 'loading~spin' };
    case 'waiting':
      return { id: 'shield', color: 'list.warningForeground' };
    case 'running':
      return { id: 'pass', color: 'testing.iconPassed' };
    case 'stopped':
      return { id: 'circle-outline' };
    case 'error':
      return { id: 'error', color: 'errorForeground' };
    case 'blocked':
      return { id: 'circle-slash', color: 'list.warningForeground' };
    case 'stopping':
      return { id: 'debug-stop' };
    case 'signin':
      return { id: 'account', color: 'list.warningForeground' };
    default: {
      const never: never = kind;
      return never;
    }
  }
}

/** One word for a state, as the tree and tooltips show it. */
export function statusWord(kind: StatusKind): string {
  switch (kind) {
    case 'starting':
      return 'starting';
    case 'waiting':
      return 'waiting for you';
    case 'running':
      return 'running';
    case 'stopped':
      return 'stopped';
    case 'error':
      return 'error';
    case 'blocked':
      return 'blocked';
    case 'stopping':
      return 'stopping';
    case 'signin':
      return 'sign in required';
    default: {
      const never: never = kind;
      return never;
    }
  }
}

/** The status word of a row: "reconnecting…" for a lost connection being re-established. */
export function rowStatusWord(facts: { readonly status: StatusKind; readonly reconnecting?: boolean }): string {
  return facts.status === 'error' && facts.reconnecting ? connectionWord({ kind: 'error', reconnecting: true }) : statusWord(facts.status);
}

export interface ServerRowFacts {
  readonly status: StatusKind;
  /** e.g. ".vscode/mcp.json", ".mcp.json", "User settings". */
  readonly origin: string;
  readonly protocolVersion?: string;
  /** The era of the session: `initialize` (legacy) or `server/discover` (modern). */
  readonly era?: 'legacy' | 'modern';
  readonly serverInfo?: Implementation;
  /** What a waiting server waits for, when known: its row says "waiting for consent". */
  readonly waitingFor?: ShownStatus['waitingFor'];
  /** A remote server: the host it talks to and the transport ("HTTP", "Streamable HTTP", "HTTP+SSE"). */
  readonly remote?: { readonly host: string; readonly transport: string };
  /** An `error` that is a lost connection being re-established: the row says "reconnecting…". */
  readonly reconnecting?: boolean;
}

/** The host (and port) of a URL, or the text itself when it is not one (a URL still holding variables). */
export function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** "name 1.2.3" (the title when the server gave one). */
export function implementationText(info: Implementation): string {
  const name = info.title && info.title !== info.name ? `${info.title} (${info.name})` : info.name;
  return info.version ? `${name} ${info.version}` : name;
}

/**
 * The grey text beside a server's name: what identifies it first, so the default sidebar width
 * cuts the least useful part. Running: "everything 1.0.0 · .vscode/mcp.json · MCP 2025-06-18";
 * otherwise the state and the origin: "stopped · User settings". A remote server adds its host
 * and transport before the origin: "stopped · mcp.example.com · HTTP · .vscode/mcp.json".
 */
export function serverDescription(facts: ServerRowFacts): string {
  const parts: string[] = [];
  const remoteParts = facts.remote ? [facts.remote.host, facts.remote.transport] : [];
  if (facts.status === 'running' && facts.protocolVersion) {
    if (facts.serverInfo) parts.push(truncate(`${facts.serverInfo.name} ${facts.serverInfo.version}`.trim(), 60));
    // The era is named for a modern session; a version of the legacy era says it by itself.
    parts.push(...remoteParts, facts.origin, `MCP ${facts.protocolVersion}${facts.era ? ERA_ROW_SUFFIXES[facts.era] : ''}`);
    return parts.join(' · ');
  }
  return [serverStateText(facts), ...remoteParts, facts.origin].join(' · ');
}

/**
 * What a server row says before its description, what the user must not miss first: "recording ·
 * unresponsive · shared with chat · everything 1.0.0 · …".
 */
export function serverRowMarks(marks: { readonly recording?: boolean; readonly unresponsive?: boolean; readonly shared?: boolean; readonly sandboxed?: boolean }): string {
  const words = [marks.sandboxed ? 'sandboxed' : '', marks.recording ? '● recording' : '', marks.unresponsive ? 'unresponsive' : '', marks.shared ? 'shared with chat' : ''];
  return words.filter(Boolean).map((w) => `${w} · `).join('');
}

/**
 * A server's state in words, the same on its row, in its tooltip and in Server Details: "waiting
 * for consent", "reconnecting…", "stopped".
 */
export function serverStateText(facts: Pick<ServerRowFacts, 'status' | 'waitingFor' | 'reconnecting'>): string {
  return facts.status === 'waiting' && facts.waitingFor ? `waiting for ${facts.waitingFor}` : rowStatusWord(facts);
}

/** A capability list such as "tools (listChanged), resources (subscribe, listChanged), logging". */
export function capabilitiesText(caps: ServerCapabilities | undefined): string {
  if (!caps) return 'none';
  const parts: string[] = [];
  const flags = (value: unknown): string => {
    if (!value || typeof value !== 'object') return '';
    const on = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v === true)
      .map(([k]) => k);
    return on.length ? ` (${on.join(', ')})` : '';
  };
  for (const key of ['tools', 'resources', 'prompts', 'logging', 'completions'] as const) {
    if (caps[key]) parts.push(`${key}${flags(caps[key])}`);
  }
  for (const key of Object.keys(caps)) {
    if (!['tools', 'resources', 'prompts', 'logging', 'completions', 'experimental'].includes(key) && caps[key as keyof ServerCapabilities]) parts.push(key);
  }
  if (caps.experimental && Object.keys(caps.experimental).length) parts.push(`experimental: ${Object.keys(caps.experimental).join(', ')}`);
  return parts.length ? parts.join(', ') : 'none';
}

export interface ServerTooltipFacts extends ServerRowFacts {
  readonly name: string;
  /** Where it is configured, in full: ".vscode/mcp.json (demo)". */
  readonly sourceLabel: string;
  /** The command line as it will run (secrets already removed), or the URL of a remote entry. */
  readonly commandLine?: string;
  readonly reason?: string;
  /** The sign-in in one line (expiry, refresh), for a server that uses MCP authorization. */
  readonly signIn?: string;
  readonly capabilities?: ServerCapabilities;
  readonly instructions?: string;
  readonly restarts?: number;
  readonly pid?: number;
  /** Record Session records it. */
  readonly recording?: boolean;
}

/** Tooltip Markdown of a server row; server-provided text is escaped. */
export function serverTooltip(f: ServerTooltipFacts): string {
  const lines: string[] = [];
  lines.push(`**${escapeMarkdown(f.name)}** — ${escapeMarkdown(serverStateText(f))}`);
  lines.push('');
  lines.push(`Defined in ${escapeMarkdown(f.sourceLabel)}`);
  if (f.recording) lines.push('', 'Recording its session (run Record Session again to stop and save)');
  if (f.commandLine) lines.push('', `${f.remote ? 'URL' : 'Command'}: ${untrusted(f.commandLine, 500)}`);
  if (f.remote) lines.push('', `Transport: ${escapeMarkdown(f.remote.transport)}`);
  if (f.reason) lines.push('', `Reason: ${untrusted(f.reason, 500)}`);
  if (f.signIn) lines.push('', `Sign-in: ${escapeMarkdown(f.signIn)}`);
  if (f.serverInfo) lines.push('', `Server: ${untrusted(implementationText(f.serverInfo), 200)}`);
  if (f.protocolVersion) lines.push('', `Protocol: ${escapeMarkdown(f.protocolVersion)}${f.era ? ` (${f.era} era)` : ''}`);
  if (f.pid !== undefined) lines.push('', `Process id: ${f.pid}`);
  if (f.restarts) lines.push('', `Restarts: ${f.restarts}`);
  if (f.status === 'running' || f.capabilities) lines.push('', `Capabilities: ${escapeMarkdown(capabilitiesText(f.capabilities))}`);
  if (f.capabilities?.tools) lines.push('', escapeMarkdown(`In the Chat view, @mcp asks with its tools. ${MODEL_NEEDED}.`));
  if (f.instructions) lines.push('', '---', '', '**Instructions**', '', untrusted(f.instructions));
  return lines.join('\n');
}

// ---- tools, resources, prompts ----

/** A parameter of a tool's input schema, as the tooltip lists it. */
export interface ParameterSummary {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  readonly description?: string;
}

/** A short type for a JSON Schema: "string", "integer | null", "array<string>", "enum(a, b)", "object". */
export function schemaType(schema: unknown, depth = 0): string {
  if (schema === true || schema === undefined) return 'any';
  if (!schema || typeof schema !== 'object') return 'any';
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.enum)) return `enum(${s.enum.slice(0, 6).map((v) => JSON.stringify(v)).join(', ')}${s.enum.length > 6 ? ', …' : ''})`;
  if ('const' in s) return `const ${JSON.stringify(s.const)}`;
  const alternatives = (s.anyOf ?? s.oneOf) as unknown;
  if (Array.isArray(alternatives) && depth < 3) return alternatives.map((a) => schemaType(a, depth + 1)).join(' | ');
  const type = s.type;
  const one = (t: unknown): string => {
    if (t === 'array' && depth < 3) return s.items ? `array<${schemaType(s.items, depth + 1)}>` : 'array';
    return typeof t === 'string' ? t : 'any';
  };
  if (Array.isArray(type)) return type.map(one).join(' | ');
  if (type !== undefined) return one(type);
  if (s.properties) return 'object';
  return 'any';
}

/** Parameters of a tool's `inputSchema`: name, type, required, description. */
export function summarizeInputSchema(inputSchema: unknown): ParameterSummary[] {
  if (!inputSchema || typeof inputSchema !== 'object') return [];
  const s = inputSchema as { properties?: unknown; required?: unknown };
  const props = s.properties && typeof s.properties === 'object' ? (s.properties as Record<string, unknown>) : {};
  const required = new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : []);
  return Object.entries(props).map(([name, prop]) => {
    const description = prop && typeof prop === 'object' && typeof (prop as { description?: unknown }).description === 'string' ? (prop as { description: string }).description : undefined;
    return { name, type: schemaType(prop), required: required.has(name), description };
  });
}

/** Declared tool annotations in words: "read-only", "destructive", "idempotent", "open world" (or their negations). */
export function annotationWords(annotations: ToolAnnotations | undefined): string[] {
  if (!annotations) return [];
  const words: string[] = [];
  const pick = (value: boolean | undefined, yes: string, no: string) => {
    if (value === true) words.push(yes);
    else if (value === false) words.push(no);
  };
  pick(annotations.readOnlyHint, 'read-only', 'may modify its environment');
  pick(annotations.destructiveHint, 'destructive', 'not destructive');
  pick(annotations.idempotentHint, 'idempotent', 'not idempotent');
  pick(annotations.openWorldHint, 'open world', 'closed world');
  return words;
}

function parametersMarkdown(params: readonly ParameterSummary[]): string[] {
  if (params.length === 0) return ['*No parameters*'];
  const lines = ['**Parameters**', ''];
  for (const p of params.slice(0, 40)) {
    const desc = p.description ? ` — ${untrusted(p.description, 200)}` : '';
    lines.push(`- ${escapeMarkdown(p.name)}: ${escapeMarkdown(p.type)}${p.required ? ' (required)' : ''}${desc}`);
  }
  if (params.length > 40) lines.push(`- … ${params.length - 40} more`);
  return lines;
}

/** Tooltip Markdown of a tool: title, description, parameters, annotations. */
export function toolTooltip(tool: Tool): string {
  const lines: string[] = [];
  const title = tool.title ?? tool.annotations?.title;
  lines.push(`**${escapeMarkdown(tool.name)}**${title ? ` — ${untrusted(title, 200)}` : ''}`);
  if (tool.description) lines.push('', untrusted(tool.description));
  lines.push('', ...parametersMarkdown(summarizeInputSchema(tool.inputSchema)));
  const words = annotationWords(tool.annotations);
  if (words.length) lines.push('', `**Annotations:** ${escapeMarkdown(words.join(' · '))}`);
  if (tool.outputSchema) lines.push('', '*Declares structured output*');
  return lines.join('\n');
}

/** Tooltip Markdown of a resource. */
export function resourceTooltip(resource: Resource): string {
  const lines: string[] = [`**${untrusted(resource.title ?? resource.name, 200)}**`, '', untrusted(resource.uri, 500)];
  if (resource.description) lines.push('', untrusted(resource.description));
  const facts: string[] = [];
  if (resource.mimeType) facts.push(resource.mimeType);
  if (typeof resource.size === 'number') facts.push(`${resource.size} bytes`);
  if (facts.length) lines.push('', escapeMarkdown(facts.join(' · ')));
  return lines.join('\n');
}

/** Tooltip Markdown of a resource template. */
export function templateTooltip(template: ResourceTemplate): string {
  const lines: string[] = [`**${untrusted(template.title ?? template.name, 200)}**`, '', untrusted(template.uriTemplate, 500)];
  if (template.description) lines.push('', untrusted(template.description));
  if (template.mimeType) lines.push('', escapeMarkdown(template.mimeType));
  return lines.join('\n');
}

/** Tooltip Markdown of a prompt: description and arguments. */
export function promptTooltip(prompt: Prompt): string {
  const lines: string[] = [`**${escapeMarkdown(prompt.name)}**${prompt.title ? ` — ${untrusted(prompt.title, 200)}` : ''}`];
  if (prompt.description) lines.push('', untrusted(prompt.description));
  const args = prompt.arguments ?? [];
  if (args.length === 0) lines.push('', '*No arguments*');
  else {
    lines.push('', '**Arguments**', '');
    for (const a of args.slice(0, 40)) {
      const desc = a.description ? ` — ${untrusted(a.description, 200)}` : '';
      lines.push(`- ${escapeMarkdown(a.name)}${a.required ? ' (required)' : ''}${desc}`);
    }
  }
  return lines.join('\n');
}

/**
 * Description of a tool or prompt row: the first line of its description, else its title. The
 * label is the name and the tooltip shows the title, so the title is not repeated before the
 * description ("Echo Tool — Echoes back the input" reads as noise at sidebar width).
 */
export function itemDescription(title: string | undefined, description: string | undefined): string {
  const text = description?.split(/\r?\n/).find((line) => line.trim() !== '') ?? title;
  return text ? truncate(revealInvisible(text.trim()), 80) : '';
}

// ---- roots, time, problems ----

/** "just now", "12s ago", "3m ago", "2h ago", or the date and time for anything older than a day. */
export function relativeTime(time: number, now: number): string {
  const seconds = Math.round((now - time) / 1000);
  if (seconds < 2) return 'just now';
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)}h ago`;
  return new Date(time).toLocaleString();
}

/**
 * When `relativeTime(time, …)` next reads differently: in a second while it counts seconds, at the
 * next minute while it counts minutes, the next hour while hours; never once it is a date.
 */
export function relativeTimeChangesAt(time: number, now: number): number | undefined {
  const seconds = Math.round((now - time) / 1000);
  // round(x / 1000) reaches n when x reaches n·1000 − 500.
  const at = (s: number) => time + s * 1000 - 500;
  if (seconds < 2) return at(2);
  if (seconds < 60) return at(seconds + 1);
  if (seconds < 3600) return at((Math.floor(seconds / 60) + 1) * 60);
  if (seconds < 86400) return at((Math.floor(seconds / 3600) + 1) * 3600);
  return undefined;
}

/** Description of the "Roots" node. */
export function rootsDescription(count: number, askedAt: number | undefined, now: number): string {
  const given = `${count} root${count === 1 ? '' : 's'}`;
  return askedAt === undefined ? `${given} · not asked yet` : `${given} · asked ${relativeTime(askedAt, now)}`;
}

/** "mcp.json:12:5 — args must be an array of strings". */
export function problemLabel(fileName: string, line: number, column: number, message: string): string {
  return `${fileName}:${line}:${column} — ${message}`;
}

// ---- status bar ----

export interface StatusCounts {
  readonly total: number;
  readonly running: number;
  readonly starting: number;
  /** Waiting for the user (consent or an input) before they can start. */
  readonly waiting: number;
  readonly error: number;
  readonly blocked: number;
  /** Remote servers waiting for the user to sign in. */
  readonly signin: number;
  readonly problems: number;
}

/** Counts of servers by state. */
export function countStatuses(kinds: readonly StatusKind[], problems: number): StatusCounts {
  const count = (k: StatusKind) => kinds.filter((x) => x === k).length;
  return { total: kinds.length, running: count('running'), starting: count('starting'), waiting: count('waiting'), error: count('error'), blocked: count('blocked'), signin: count('signin'), problems };
}

/**
 * "$(server) MCP 2 running, 1 error", or undefined when nothing is configured (the item hides).
 * `waitingFor` names what waiting servers wait for ("consent", or "you" when it may be an input).
 */
export function statusBarText(c: StatusCounts, waitingFor: 'consent' | 'you' = 'you', reconnecting = 0): string | undefined {
  if (c.total === 0 && c.problems === 0) return undefined;
  const parts = [`${c.running} running`];
  if (c.starting) parts.push(`${c.starting} starting`);
  if (c.waiting) parts.push(`${c.waiting} waiting for ${waitingFor}`);
  // Errors that are lost connections being re-established are said apart.
  if (reconnecting) parts.push(`${reconnecting} reconnecting`);
  if (c.error > reconnecting) parts.push(`${c.error - reconnecting} error${c.error - reconnecting === 1 ? '' : 's'}`);
  if (c.blocked) parts.push(`${c.blocked} blocked`);
  if (c.signin) parts.push(`${c.signin} to sign in`);
  if (c.problems) parts.push(`${c.problems} config problem${c.problems === 1 ? '' : 's'}`);
  return `$(server) MCP ${parts.join(', ')}`;
}

// ---- command lines and consent ----

/** What the consent prompt shows of a stdio server: the exact command line. */
export interface StdioConsentFacts {
  readonly type?: 'stdio';
  readonly name: string;
  readonly sourceLabel: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** Names only: values never appear in the prompt. */
  readonly envNames: readonly string[];
  /** The sandbox it runs in, in plain lines (`describeSandbox`), or the line saying it has none. */
  readonly sandbox?: readonly string[];
}

/** What the consent prompt shows of a remote server: where it connects and what it sends. */
export interface RemoteConsentFacts {
  readonly type: 'http' | 'sse';
  readonly name: string;
  readonly sourceLabel: string;
  /** The URL (variables substituted, inputs still as `${input:…}`). */
  readonly url: string;
  /** Header names with their values, secret ones already masked. */
  readonly headers: readonly { readonly name: string; readonly value: string }[];
  /** The pre-registered OAuth client it signs in with (`"oauth"` of the entry). */
  readonly oauth?: {
    readonly clientId: string;
    /** Where the client secret comes from, as written (`${env:NAME}`, `${input:id}`); never its value. */
    readonly clientSecretSource?: string;
    /** Fixed scopes; absent when the server's challenge or metadata chooses them. */
    readonly scopes?: readonly string[];
    readonly callbackPort?: number;
    /** The grant and where its key or token comes from (`oauthGrantFacts`); empty for the browser sign-in. */
    readonly grant?: readonly string[];
  };
}

export type ConsentFacts = StdioConsentFacts | RemoteConsentFacts;

const DENY_OR_CANCEL = 'Deny is remembered: the server stays stopped, also after a reload, until you allow it (click its row, or start it). Cancel decides nothing: the server waits, and you are asked again when you start it.';

/** The modal consent prompt: a one-line question and a detail block with the exact command or URL. */
export function consentPrompt(f: ConsentFacts): { message: string; detail: string } {
  const remote = 'url' in f;
  return {
    message: `Start the MCP server "${f.name}" defined in this workspace?`,
    detail: [
      `Defined in: ${f.sourceLabel}`,
      ...consentFactLines(f),
      '',
      remote ? 'MCP Host connects to this URL and sends it these headers. Allow it only if you trust this workspace.' : runsAs(f),
      DENY_OR_CANCEL,
    ].join('\n'),
  };
}

/**
 * What a server runs or connects to, one fact a line: the command, working directory and the
 * names of the variables it sets; or the URL, transport, headers and OAuth client. Variables are
 * as written (see `consentFacts`), never their values.
 */
export function consentFactLines(f: ConsentFacts): string[] {
  if ('url' in f) {
    const headers = f.headers.length ? f.headers.map((h) => `  ${h.name}: ${h.value}`) : ['  (none)'];
    const oauth = f.oauth
      ? [
          'Signs in as the OAuth client:',
          `  Client id: ${f.oauth.clientId}`,
          ...(f.oauth.clientSecretSource !== undefined ? [`  Client secret: ${f.oauth.clientSecretSource} (its value is sent to the token endpoint the server's authorization server names)`] : []),
          `  Scopes: ${f.oauth.scopes?.length ? f.oauth.scopes.join(' ') : '(those the server asks for)'}`,
          ...(f.oauth.callbackPort !== undefined ? [`  Redirect: http://127.0.0.1:${f.oauth.callbackPort}/callback`] : []),
          ...(f.oauth.grant ?? []).map((line) => `  ${line}`),
        ]
      : [];
    return [`URL: ${f.url}`, `Transport: ${transportLabel(f.type)}`, 'Headers it sends:', ...headers, ...oauth];
  }
  const env = f.envNames.length ? [...f.envNames].sort().join(', ') : '(none)';
  return [`Command: ${displayCommandLine(f.command, f.args)}`, ...(f.sandbox ?? []), `Working directory: ${displayPath(f.cwd)}`, `Environment variables it sets: ${env}`];
}

/** The line under a stdio server's facts: what it can touch once allowed. */
function runsAs(f: StdioConsentFacts): string {
  return f.sandbox && !f.sandbox[0]?.startsWith('No sandbox') ? 'The server runs in the sandbox above. Allow it only if you trust this workspace.' : 'The server runs with your user rights. Allow it only if you trust this workspace.';
}

/**
 * The one consent prompt for several servers at once: each server's facts under its name, and
 * the three answers explained.
 */
export function multiConsentPrompt(all: readonly ConsentFacts[]): { message: string; detail: string } {
  const blocks = all.map((f) => [`${f.name} — ${f.sourceLabel}`, ...consentFactLines(f).map((l) => `  ${l}`)].join('\n'));
  return {
    message: `Start ${all.length} MCP servers defined in this workspace?`,
    detail: [
      ...blocks.flatMap((b) => [b, '']),
      'Local servers run with your user rights; remote ones receive the headers shown. Allow only what you trust.',
      'Allow All starts them all. Allow Selected… lets you tick the ones to allow; the others are denied.',
      'Deny All is remembered: the servers stay stopped, also after a reload, until you allow one (click its row). Cancel decides nothing: they wait, and you are asked again when you start one.',
    ].join('\n'),
  };
}

// ---- text positions ----

/** The 0-based line and character (UTF-16) of `offset` in `text`; CR, LF and CRLF end lines. */
export function offsetToPosition(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      if (c === 13 && text.charCodeAt(i + 1) === 10) {
        if (i + 1 >= end) break; // offset points between CR and LF: still on this line
        i++;
      }
      line++;
      lineStart = i + 1;
    }
  }
  return { line, character: end - lineStart };
}

// ---- sign-in ----

/** What the sign-in prompt names: the server, where it runs, and the page the browser will open. */
export interface SignInFacts {
  readonly name: string;
  readonly serverUrl: string;
  readonly issuer: string;
  /** The authorization endpoint: the page the browser opens, wherever the metadata put it. */
  readonly authorizationEndpoint: string;
  readonly scopes?: readonly string[];
  readonly reason: 'sign-in' | 'step-up';
}

/**
 * The modal asked before the browser opens: the host the browser will really open (the
 * authorization endpoint's, judged by `assessSignInPage` like every external URL), with a warning
 * when it is not the issuer's or the MCP server's origin (scheme, host and port). `blocked` when
 * the page must not be opened at all.
 */
export function signInPrompt(f: SignInFacts): { message: string; detail: string } | { blocked: string } {
  const page = assessSignInPage({ url: f.authorizationEndpoint, issuer: f.issuer, serverUrl: f.serverUrl });
  if (page.kind === 'blocked') return { blocked: page.reason };
  const message = f.reason === 'step-up' ? `"${f.name}" asks for more access: sign in again at ${page.host}?` : `Sign in to "${f.name}" at ${page.host}?`;
  const lines = [`Your browser opens ${page.page} to sign in for ${f.serverUrl} (authorization server ${f.issuer}).`];
  for (const warning of page.warnings) lines.push(`⚠ ${warning}`);
  lines.push(f.scopes?.length ? `Access asked for (scopes): ${f.scopes.join(' ')}` : 'No scopes are named: the authorization server grants its default access.');
  lines.push('The tokens are kept in VS Code secret storage; "Sign Out" on the server deletes them.');
  return { message, detail: lines.join('\n\n') };
}
