// "Get Prompt": a prompt with arguments opens its form (PromptPanel: the same form as a tool's,
// with the server's completions); one without arguments, or with the values given by a script,
// is fetched at once and its messages are shown in a read-only panel.
import type { GetPromptResult, Prompt } from '../../client/schemas';
import type { UseCaseContext } from './useCaseContext';
import { loadPromptPanel, loadViewPanel } from './lazyPanels';
import type { OpenResource } from './rawResults';
import { fetchPrompt } from './fetchPrompt';

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
