// "Get Prompt": a prompt with arguments opens its form (PromptPanel: the same form as a tool's,
// with the server's completions); one without arguments, or with the values given by a script,
// is fetched at once and its messages are shown in a read-only panel.
import type { GetPromptResult, Prompt } from '../../client/schemas';
import { McpLocalError } from '../../protocol/errors';
import { describeFailure, summarizeFailure, summarizePart, promptDisplay } from '../../usecases/resultModel';
import type { UseCaseContext } from './useCaseContext';
import { loadPromptPanel, loadViewPanel } from './lazyPanels';
import type { OpenResource } from './rawResults';

export async function getPrompt(ctx: UseCaseContext, serverId: string, name: string, openResource: OpenResource, preset?: Record<string, string>): Promise<GetPromptResult | undefined> {
  await ctx.client(serverId);
  const prompt: Prompt = ctx.server(serverId)?.prompts?.find((p) => p.name === name) ?? { name };
  if (!preset && (prompt.arguments ?? []).length > 0) {
    (await loadPromptPanel()).show(ctx, serverId, prompt, openResource);
    return undefined;
  }
  const values = preset ?? {};
  const result = await fetchPrompt(ctx, serverId, name, values, ctx.timeoutMs(serverId));
  const shownArgs = Object.entries(values).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ');
  (await loadViewPanel()).show(ctx, `prompt:${serverId}:${name}`, `Prompt: ${name}`, `${prompt.title ? `${prompt.title} — ` : ''}${ctx.serverName(serverId)}${shownArgs ? ` — ${shownArgs}` : ''}`, serverId, openResource).showPrompt(name, result);
  return result;
}

/** `prompts/get`, recorded in the history either way. */
export async function fetchPrompt(ctx: UseCaseContext, serverId: string, name: string, values: Record<string, string>, timeoutMs: number): Promise<GetPromptResult> {
  const client = await ctx.client(serverId);
  const startedAt = Date.now();
  const started = performance.now();
  let result: GetPromptResult;
  try {
    result = await client.getPrompt(name, values, { timeoutMs });
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
  return result;
}
