// `prompts/get` for the editor, recorded in the call history either way: for Get Prompt, the
// prompt panel and @mcp's prompt commands. Apart from getPrompt.ts, which opens the panels, so the
// prompt panel can fetch without importing the code that loads it.
import type { GetPromptResult } from '../../client/schemas';
import { McpLocalError } from '../../protocol/errors';
import { describeFailure, summarizeFailure, summarizePart, promptDisplay } from '../../usecases/resultModel';
import type { UseCaseContext } from './useCaseContext';

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
