// Tool pinning: the hash of a tool's definition when the user first approved a call of it, so a
// server that later changes the description or schema (a "rug pull") is caught before the next
// call. Pins are kept per server identity (its command line or URL), not per display name.
import type { Tool } from '../client/schemas';
import { canonicalJson, fingerprintOf } from '../config/fingerprint';
import { invisibleChangeNote, revealInvisible } from '../content/invisibleText';

/** The parts of a tool that make up its definition (what the model and the user rely on). */
export interface PinnedDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
  readonly annotations?: unknown;
}

export interface ToolPin {
  readonly hash: string;
  /** The definition as approved, so a change can be shown as a diff. */
  readonly definition: PinnedDefinition;
  /** When it was approved (ms since the epoch). */
  readonly approvedAt: number;
}

/** Pins by server identity, then tool name. The JSON shape of `--pins FILE` and of extension storage. */
export type PinStore = Record<string, Record<string, ToolPin>>;

export function pinnedDefinition(tool: Tool): PinnedDefinition {
  const { name, title, description, inputSchema, outputSchema, annotations } = tool;
  return { name, ...(title !== undefined ? { title } : {}), ...(description !== undefined ? { description } : {}), inputSchema, ...(outputSchema !== undefined ? { outputSchema } : {}), ...(annotations !== undefined ? { annotations } : {}) };
}

/** The hash of a tool's definition: key order and `_meta` do not change it. */
export function toolPinHash(tool: Tool | PinnedDefinition): string {
  return fingerprintOf(pinnedDefinition(tool as Tool));
}

export function newPin(tool: Tool, now: number): ToolPin {
  return { hash: toolPinHash(tool), definition: pinnedDefinition(tool), approvedAt: now };
}

/** One changed field of a definition: as approved, and now. */
export interface DefinitionChange {
  readonly field: keyof PinnedDefinition;
  readonly before: string;
  readonly after: string;
}

function shown(value: unknown): string {
  if (value === undefined) return '(none)';
  return typeof value === 'string' ? value : canonicalJson(value);
}

/** What changed between the approved definition and the current one, field by field. */
export function definitionChanges(approved: PinnedDefinition, current: Tool | PinnedDefinition): DefinitionChange[] {
  const now = pinnedDefinition(current as Tool);
  const fields: (keyof PinnedDefinition)[] = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'];
  return fields.filter((f) => canonicalJson(approved[f] ?? null) !== canonicalJson(now[f] ?? null)).map((field) => ({ field, before: shown(approved[field]), after: shown(now[field]) }));
}

/**
 * The changes as diff lines (`- before` / `+ after` under each field), for chat, the log and the
 * CLI: invisible characters written out, and a note when the change is only in them.
 */
export function formatChanges(changes: readonly DefinitionChange[]): string {
  return changes
    .map((c) => {
      const note = invisibleChangeNote(c.before, c.after);
      return `${c.field}:\n- ${revealInvisible(c.before)}\n+ ${revealInvisible(c.after)}${note ? `\n${note}` : ''}`;
    })
    .join('\n');
}

/** A pinned tool whose definition is no longer the one approved. */
export interface ChangedTool {
  readonly tool: string;
  readonly changes: DefinitionChange[];
}

/** The tools of `identity` in `store` whose current definition differs from their pin (tools without a pin are not checked). */
export function changedTools(store: PinStore, identity: string, tools: readonly Tool[]): ChangedTool[] {
  const pins = store[identity] ?? {};
  const changed: ChangedTool[] = [];
  for (const tool of tools) {
    const pin = pins[tool.name];
    if (pin && pin.hash !== toolPinHash(tool)) changed.push({ tool: tool.name, changes: definitionChanges(pin.definition, tool) });
  }
  return changed;
}

/** `store` with `tool` pinned (again) for `identity`: after the user approved it. */
export function withPin(store: PinStore, identity: string, tool: Tool, now: number): PinStore {
  return { ...store, [identity]: { ...(store[identity] ?? {}), [tool.name]: newPin(tool, now) } };
}

/** Reads a pin store from JSON text; throws with a message naming what is wrong. */
export function parsePinStore(text: string): PinStore {
  const value: unknown = JSON.parse(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('a pin file holds a JSON object of servers');
  for (const [identity, tools] of Object.entries(value)) {
    if (tools === null || typeof tools !== 'object' || Array.isArray(tools)) throw new Error(`pins of ${JSON.stringify(identity)} must be an object of tools`);
    for (const [name, pin] of Object.entries(tools as Record<string, unknown>)) {
      const p = pin as Partial<ToolPin> | null;
      if (!p || typeof p.hash !== 'string' || !p.definition || typeof p.definition !== 'object') throw new Error(`the pin of ${JSON.stringify(name)} (${JSON.stringify(identity)}) needs a hash and a definition`);
    }
  }
  return value as PinStore;
}

/** The identity pins are kept under: the command line of a stdio server, the URL of a remote one. */
export function serverIdentity(server: { readonly type: 'stdio'; readonly command: string; readonly args: readonly string[] } | { readonly type: 'http' | 'sse'; readonly url: string }): string {
  return server.type === 'stdio' ? `stdio:${JSON.stringify([server.command, ...server.args])}` : `url:${server.url}`;
}
