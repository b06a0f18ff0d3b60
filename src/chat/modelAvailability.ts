// What MCP Host can truthfully say about the language models @mcp may use. VS Code's
// `lm.selectChatModels()` lists every model a provider declares, signed in or not, with quota or
// not: "listed" is not "usable", and nothing short of a request tells them apart. And VS Code
// calls a chat participant only with a model: with none selected in the chat's model picker it
// falls back to Copilot's default model, and without one answers "Language model unavailable"
// before @mcp runs, for every request, /tools included (measured in VS Code 1.139).

/** A listed model, as the log names it. */
export interface ListedModel {
  readonly vendor: string;
  readonly id: string;
}

/** What is needed for @mcp to run at all: said in the log, and in the participant's description. */
export const MODEL_NEEDED = 'VS Code runs @mcp (even /tools) only with a model selected in the chat\'s model picker that can answer (signed in, with quota); otherwise it answers "Language model unavailable" before @mcp is called';

/** The log line after a look at the models (`why`: start-up, extensions changed…). */
export function describeListedModels(why: string, models: readonly ListedModel[]): string {
  if (models.length === 0) return `Language models: none listed (${why}). ${MODEL_NEEDED}: install and sign in to a model provider (GitHub Copilot, or another extension's).`;
  return `Language models listed (${why}): ${models.map((m) => `${m.vendor}/${m.id}`).join(', ')}. Listed is not usable: whether one can answer (signed in, with quota) shows only at a request. ${MODEL_NEEDED}.`;
}
