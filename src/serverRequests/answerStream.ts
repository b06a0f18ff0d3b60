// Reads a language model's streamed answer and stops it where the sampling request says:
// at `maxTokens` (counted by the model's own tokenizer when there is one, estimated otherwise)
// or at the first of `stopSequences` (cut before it). VS Code's chat models take neither limit,
// so the host enforces them while reading.

export interface AnswerLimits {
  readonly maxTokens: number;
  readonly stopSequences?: readonly string[];
  /** The model's token count of a text; an estimate (4 characters a token) is used without it. */
  readonly countTokens?: (text: string) => Promise<number>;
}

export interface CollectedAnswer {
  readonly text: string;
  /** "endTurn" when the stream ended on its own, "maxTokens" or "stopSequence" when cut. */
  readonly stopReason: 'endTurn' | 'maxTokens' | 'stopSequence';
}

/** Text grown by this many characters since the last count is counted again. */
const COUNT_EVERY_CHARS = 200;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * Collects `chunks` until they end or a limit is hit; then calls `stop()` (to cancel the model's
 * request) and returns what was kept.
 */
export async function collectAnswer(chunks: AsyncIterable<string>, limits: AnswerLimits, stop: () => void = () => {}): Promise<CollectedAnswer> {
  const stops = (limits.stopSequences ?? []).filter((s) => s.length > 0);
  const longestStop = stops.reduce((n, s) => Math.max(n, s.length), 0);
  const count = limits.countTokens ?? ((t: string) => Promise.resolve(estimateTokens(t)));
  let text = '';
  let countedAt = 0;
  for await (const chunk of chunks) {
    const before = text.length;
    text += chunk;
    if (stops.length > 0) {
      // Only the new text, plus enough before it for a sequence split across chunks.
      const from = Math.max(0, before - longestStop + 1);
      let cut = -1;
      for (const s of stops) {
        const i = text.indexOf(s, from);
        if (i >= 0 && (cut < 0 || i < cut)) cut = i;
      }
      if (cut >= 0) {
        stop();
        return { text: text.slice(0, cut), stopReason: 'stopSequence' };
      }
    }
    if (text.length - countedAt >= COUNT_EVERY_CHARS || estimateTokens(text) > limits.maxTokens) {
      countedAt = text.length;
      if ((await count(text)) > limits.maxTokens) {
        stop();
        return { text, stopReason: 'maxTokens' };
      }
    }
  }
  if (text.length !== countedAt && (await count(text)) > limits.maxTokens) return { text, stopReason: 'maxTokens' };
  return { text, stopReason: 'endTurn' };
}
