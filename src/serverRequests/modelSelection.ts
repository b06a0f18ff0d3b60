// Which language model answers a sampling request. The server's `modelPreferences.hints` are
// name substrings tried in order (the spec: "the first match is taken"), matched against each
// available model's id, family and name; the priorities only break ties between models that
// match the same hint. No hint matches → the caller asks the user.

/** A language model as the host sees it (mapped from vscode.LanguageModelChat). */
export interface ModelInfo {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly vendor: string;
  readonly version?: string;
  readonly maxInputTokens?: number;
}

export interface ModelPreferencesView {
  readonly hints: readonly string[];
  readonly costPriority?: number;
  readonly speedPriority?: number;
  readonly intelligencePriority?: number;
}

export type ModelChoice =
  | { readonly kind: 'hint'; readonly model: ModelInfo; readonly hint: string }
  | { readonly kind: 'none' };

function fields(m: ModelInfo): string[] {
  return [m.id, m.family, m.name].map((s) => s.toLowerCase());
}

/**
 * The first hint (in the server's order) that names an available model. Among the models one
 * hint matches, one whose id, family or name equals the hint wins; then, when the server cares
 * more about intelligence than speed and cost, the one with the larger context window; else the
 * first in the list the host got.
 */
export function chooseModel(preferences: ModelPreferencesView | undefined, models: readonly ModelInfo[]): ModelChoice {
  for (const raw of preferences?.hints ?? []) {
    const hint = raw.trim().toLowerCase();
    if (hint === '') continue;
    const matches = models.filter((m) => fields(m).some((f) => f.includes(hint)));
    if (matches.length === 0) continue;
    const exact = matches.filter((m) => fields(m).includes(hint));
    const pool = exact.length > 0 ? exact : matches;
    return { kind: 'hint', model: tieBreak(pool, preferences), hint: raw };
  }
  return { kind: 'none' };
}

function tieBreak(pool: readonly ModelInfo[], preferences: ModelPreferencesView | undefined): ModelInfo {
  if (pool.length === 1 || !preferences) return pool[0];
  const intelligence = preferences.intelligencePriority ?? 0;
  const other = Math.max(preferences.speedPriority ?? 0, preferences.costPriority ?? 0);
  if (intelligence > other) {
    let best = pool[0];
    for (const m of pool) if ((m.maxInputTokens ?? 0) > (best.maxInputTokens ?? 0)) best = m;
    return best;
  }
  return pool[0];
}

/** "GPT-4o (copilot · gpt-4o)" for pickers and logs. */
export function describeModel(m: ModelInfo): string {
  const detail = [m.vendor, m.family !== m.name ? m.family : undefined].filter(Boolean).join(' · ');
  return detail ? `${m.name} (${detail})` : m.name;
}
