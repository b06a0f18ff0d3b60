// The names a language model sees for MCP tools: unique across every server, and within the name
// rules models accept (`^[a-zA-Z0-9_-]{1,64}$`, the strictest of the common APIs).
import type { Tool } from '../client/schemas';

/** What language model APIs accept as a tool name. */
export const MODEL_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;
/** The longest share of a name the server prefix may take, so the tool's own name stays readable. */
const MAX_SERVER_PREFIX = 24;

/** A tool of a running server. */
export interface ServerTool {
  /** The registry's id of the server (what the tool-call use case is given). */
  readonly serverId: string;
  /** The server's name as the user sees it. */
  readonly serverName: string;
  readonly tool: Tool;
}

/** A tool with the name the model knows it by. */
export interface NamedTool extends ServerTool {
  readonly modelName: string;
}

/** `text` with every character a model name may not hold replaced by `_`, runs squeezed. */
function sanitize(text: string): string {
  return text.replace(/[^a-zA-Z0-9_-]+/g, '_').replace(/_{2,}/g, '_').replace(/^_+|_+$/g, '') || 'x';
}

/**
 * Gives each tool a model name `<server>_<tool>` (sanitized, cut to 64 characters), unique among
 * `tools` and `reserved` (names the host offers itself, such as `find_tools`): a name taken
 * already gets `_2`, `_3`… Deterministic: the same tools in the same order get the same names.
 */
export function nameToolsForModel(tools: readonly ServerTool[], reserved: readonly string[] = []): NamedTool[] {
  const taken = new Set(reserved.map((n) => n.toLowerCase()));
  return tools.map((t) => {
    const prefix = sanitize(t.serverName).slice(0, MAX_SERVER_PREFIX);
    const base = `${prefix}_${sanitize(t.tool.name)}`.slice(0, MAX_LENGTH);
    let name = base;
    // Case-insensitive: some model APIs treat names that differ only in case as one.
    for (let n = 2; taken.has(name.toLowerCase()); n++) {
      const suffix = `_${n}`;
      name = base.slice(0, MAX_LENGTH - suffix.length) + suffix;
    }
    taken.add(name.toLowerCase());
    return { ...t, modelName: name };
  });
}
