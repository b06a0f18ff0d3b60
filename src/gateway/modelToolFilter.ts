// "Off for models" through the gateway: a tool the user switched off for language models is not
// listed to a gateway client (VS Code's chat, or another client with a model behind it) and a
// call of it is refused, so the switch means every model through every path.
import { WireError } from '../protocol/errors';
import { ErrorCodes } from '../protocol/messages';

/** Whether the user switched the tool `name` off for models. */
export type ToolHidden = (name: string) => boolean;

/** Throws for a `tools/call` of a switched-off tool; anything else passes. */
export function refuseHiddenToolCall(method: string, params: Record<string, unknown> | undefined, hidden: ToolHidden): void {
  if (method !== 'tools/call') return;
  const name = params?.name;
  if (typeof name === 'string' && hidden(name)) throw new WireError(ErrorCodes.InvalidParams, `Tool ${name} is switched off for language models in MCP Host ("Off for models"), so it cannot be called through the gateway.`);
}

/** A `tools/list` result without the switched-off tools; anything else as it came. */
export function withoutHiddenTools(method: string, result: unknown, hidden: ToolHidden): unknown {
  if (method !== 'tools/list' || !result || typeof result !== 'object') return result;
  const tools = (result as { tools?: unknown }).tools;
  if (!Array.isArray(tools)) return result;
  const kept = tools.filter((t) => !(t && typeof t === 'object' && typeof (t as { name?: unknown }).name === 'string' && hidden((t as { name: string }).name)));
  return kept.length === tools.length ? result : { ...(result as Record<string, unknown>), tools: kept };
}
