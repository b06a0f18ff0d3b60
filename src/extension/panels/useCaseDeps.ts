// What the use cases need from the rest of the extension, and how their commands
// understand their arguments (a tree node of `mcpHost.servers`, an CommandTarget, or nothing).
import type * as vscode from 'vscode';
import type { SignInState } from '../../auth/session';
import type { LogSeverity } from '../../protocol/logging';
import type { ServerHandle } from '../../registry/serverRegistry';
import type { ServerHealth } from '../../registry/health';
import type { DebuggedServer } from '../dev/devMode';

/** The configured servers, as the registry keeps them: a feature asks the handle for its client (`whenReady`). */
export interface ServerHandles {
  get(serverId: string): ServerHandle | undefined;
  /** Every configured server, in configuration order. */
  list(): readonly ServerHandle[];
}

export type { ServerHealth };

export interface UseCaseDeps {
  /** Every configured server (for the command palette's pickers and the health ping). */
  readonly servers: ServerHandles;
  /** A line in the server's output channel. */
  log(serverId: string, level: LogSeverity, text: string): void;
  /** Fires when servers or their lists change (panels refresh their tool, pings start/stop). */
  readonly onDidChangeServers?: vscode.Event<unknown>;
  /** Removes known secrets from text (command lines, environments) before it is shown. */
  redact?(text: string): string;
  /**
   * A tool call failed with -32042 (URL elicitation required): offer the URLs to the user.
   * Resolves true when the call should be retried.
   */
  resolveUrlElicitation?(error: unknown, serverId: string): Promise<boolean>;
  /**
   * Opens a link an MCP App asks for (`ui/open-link`) after the URL-safety dialog; `message` says
   * which app asks. Absent: apps cannot open links.
   */
  openAppLink?(serverId: string, url: string, message: string, signal: AbortSignal): Promise<'opened' | 'declined' | { readonly refused: string }>;
  /** Whether the server's log shows Trace now (an app's traffic is formatted only then). */
  traceOn?(serverId: string): boolean;
  /** A server's state in the words of its row in the view ("waiting for consent"), for Server Details. */
  stateText?(serverId: string): string | undefined;
  /** The server's sign-in (MCP authorization) for Server Details; undefined when it never asked for one. */
  signInState?(serverId: string): (SignInState & { readonly required: boolean }) | undefined;
  /**
   * What a server would be started with, through trust, consent and inputs (Diagnose runs it);
   * `{ blocked }` says why it may not start.
   */
  prepare?(serverId: string): Promise<import('../../config').ResolvedServer | { readonly blocked: string }>;
  /** Starts the servers as the start policy would (a chat request needs them running). */
  startServers?(why: string): void;
  /** Told when the health ping marks a server unresponsive or answering again (e.g. to show it in the tree). */
  setHealth?(serverId: string, health: ServerHealth): void;
  /** A line in the "MCP Host" output channel (what concerns no one server). */
  hostLog?(text: string): void;
  /**
   * Puts a server under dev mode's debugger (a Debug run of saved tests): restarts it so unless
   * a debugger is attached already; resolves once one is, rejects with what to do otherwise.
   */
  debugServer?(serverId: string, signal: AbortSignal): Promise<DebuggedServer>;
}

/**
 * What a command acts on, for callers other than the tree (scripts, tests, other views):
 * `mcpHost.tool.call` with `{ serverId, kind: 'tool', name }`, and so on.
 */
export interface CommandTarget {
  readonly serverId: string;
  readonly kind: 'server' | 'tool' | 'resource' | 'template' | 'prompt';
  /** Tool or prompt name, resource or template name (informational for resources). */
  readonly name?: string;
  /** Resource URI, or the template's `uriTemplate`. */
  readonly uri?: string;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/**
 * Reads a command argument: a `mcpHost.servers` tree node (`{ kind: 'tool', serverId, tool }`,
 * `{ kind: 'resource', serverId, resource }`, `{ kind: 'resourceTemplate', serverId, template }`,
 * `{ kind: 'prompt', serverId, prompt }`, `{ kind: 'server', serverId }`) or an CommandTarget.
 */
export function toTarget(arg: unknown): CommandTarget | undefined {
  if (!isRecord(arg) || typeof arg.serverId !== 'string') return undefined;
  const serverId = arg.serverId;
  switch (arg.kind) {
    case 'server':
      return { serverId, kind: 'server' };
    case 'tool':
      if (isRecord(arg.tool) && typeof arg.tool.name === 'string') return { serverId, kind: 'tool', name: arg.tool.name };
      return typeof arg.name === 'string' ? { serverId, kind: 'tool', name: arg.name } : undefined;
    case 'resource':
      if (isRecord(arg.resource) && typeof arg.resource.uri === 'string') return { serverId, kind: 'resource', uri: arg.resource.uri, name: typeof arg.resource.name === 'string' ? arg.resource.name : undefined };
      return typeof arg.uri === 'string' ? { serverId, kind: 'resource', uri: arg.uri, name: typeof arg.name === 'string' ? arg.name : undefined } : undefined;
    case 'resourceTemplate':
    case 'template':
      if (isRecord(arg.template) && typeof arg.template.uriTemplate === 'string') return { serverId, kind: 'template', uri: arg.template.uriTemplate, name: typeof arg.template.name === 'string' ? arg.template.name : undefined };
      return typeof arg.uri === 'string' ? { serverId, kind: 'template', uri: arg.uri, name: typeof arg.name === 'string' ? arg.name : undefined } : undefined;
    case 'prompt':
      if (isRecord(arg.prompt) && typeof arg.prompt.name === 'string') return { serverId, kind: 'prompt', name: arg.prompt.name };
      return typeof arg.name === 'string' ? { serverId, kind: 'prompt', name: arg.name } : undefined;
    default:
      // A group or detail row of a server still names its server.
      return { serverId, kind: 'server' };
  }
}
