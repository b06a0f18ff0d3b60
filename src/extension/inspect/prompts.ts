// "Get Prompt": asks for the prompt's arguments (required ones marked, the server's completions
// offered), gets it, and shows the messages in a read-only panel.
import type { GetPromptResult, Prompt } from '../../client/schemas';
import { McpLocalError } from '../../protocol/errors';
import { describeFailure, summarizeFailure, summarizePart, promptDisplay } from '../../inspect/resultModel';
import { askArguments } from './argumentInput';
import type { InspectContext } from './context';
import type { OpenResource } from './results';
import { ViewPanel } from './viewPanel';

export async function getPrompt(ctx: InspectContext, serverId: string, name: string, openResource: OpenResource, preset?: Record<string, string>): Promise<GetPromptResult | undefined> {
  const client = ctx.requireClient(serverId);
  const prompt: Prompt = ctx.server(serverId)?.prompts?.find((p) => p.name === name) ?? { name };
  const args = prompt.arguments ?? [];
  let values: Record<string, string> | undefined = preset;
  if (!values) {
    values = args.length
      ? await askArguments({
          title: `Prompt ${prompt.title ?? prompt.name}`,
          args: args.map((a) => ({ name: a.name, title: a.title, description: a.description, required: a.required === true })),
          client,
          ref: { type: 'ref/prompt', name },
          log: (text) => ctx.deps.log(serverId, 'debug', text),
        })
      : {};
  }
  if (!values) return undefined;
  const startedAt = Date.now();
  const started = performance.now();
  let result: GetPromptResult;
  try {
    result = await client.getPrompt(name, values, { timeoutMs: ctx.timeoutMs(serverId) });
  } catch (error) {
    const failure = describeFailure(error);
    ctx.history.add({ serverId, kind: 'prompt', name, arguments: values, outcome: McpLocalError.is(error, 'timeout') ? 'timeout' : 'error', summary: summarizeFailure(failure), durationMs: performance.now() - started, time: startedAt });
    throw error;
  }
  const display = promptDisplay(result);
  const first = display.messages[0]?.parts[0];
  ctx.history.add({
    serverId,
    kind: 'prompt',
    name,
    arguments: values,
    outcome: 'ok',
    summary: `${display.messages.length} message${display.messages.length === 1 ? '' : 's'}${first ? `: ${summarizePart(first)}` : ''}`,
    durationMs: performance.now() - started,
    time: startedAt,
  });
  const shownArgs = Object.entries(values).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ');
  ViewPanel.show(ctx, `prompt:${serverId}:${name}`, `Prompt: ${name}`, `${prompt.title ? `${prompt.title} — ` : ''}${ctx.serverName(serverId)}${shownArgs ? ` — ${shownArgs}` : ''}`, serverId, openResource).showPrompt(name, result);
  return result;
}
