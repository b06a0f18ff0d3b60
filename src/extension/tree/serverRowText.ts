// The text of a server's row in the Servers tree: its status word and icon, description, marks
// and tooltip Markdown. No `vscode` import, so node --test can load it. Everything a server
// sends is untrusted: it goes through `untrustedText` before it reaches a MarkdownString.
import type { Implementation, ServerCapabilities } from '../../client/schemas';
import { connectionWord } from '../../registry/connectionStatus';
import { MODEL_NEEDED } from '../../chat/modelAvailability';
import { truncate } from '../../protocol/text';
import { escapeMarkdown, untrustedText } from '../../content/untrustedText';

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
    parts.push(...remoteParts, facts.origin, `MCP ${facts.protocolVersion}${facts.era === 'modern' ? ' (modern)' : ''}`);
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
  if (f.commandLine) lines.push('', `${f.remote ? 'URL' : 'Command'}: ${untrustedText(f.commandLine, 500)}`);
  if (f.remote) lines.push('', `Transport: ${escapeMarkdown(f.remote.transport)}`);
  if (f.reason) lines.push('', `Reason: ${untrustedText(f.reason, 500)}`);
  if (f.signIn) lines.push('', `Sign-in: ${escapeMarkdown(f.signIn)}`);
  if (f.serverInfo) lines.push('', `Server: ${untrustedText(implementationText(f.serverInfo), 200)}`);
  if (f.protocolVersion) lines.push('', `Protocol: ${escapeMarkdown(f.protocolVersion)}${f.era ? ` (${f.era} era)` : ''}`);
  if (f.pid !== undefined) lines.push('', `Process id: ${f.pid}`);
  if (f.restarts) lines.push('', `Restarts: ${f.restarts}`);
  if (f.status === 'running' || f.capabilities) lines.push('', `Capabilities: ${escapeMarkdown(capabilitiesText(f.capabilities))}`);
  if (f.capabilities?.tools) lines.push('', escapeMarkdown(`In the Chat view, @mcp asks with its tools. ${MODEL_NEEDED}.`));
  if (f.instructions) lines.push('', '---', '', '**Instructions**', '', untrustedText(f.instructions));
  return lines.join('\n');
}

/** "mcp.json:12:5 — args must be an array of strings". */
export function problemLabel(fileName: string, line: number, column: number, message: string): string {
  return `${fileName}:${line}:${column} — ${message}`;
}
