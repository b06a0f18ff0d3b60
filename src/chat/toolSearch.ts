// Searching tools by what they do: BM25 over each tool's name, title, description and parameter
// names and descriptions, fields weighted (a word in the name counts more than one in a long
// description). Deterministic and local: no network, no model; ties keep the tools' order.
import type { Tool } from '../client/schemas';

/** A tool to search, with what it is known by (server name, model name). */
export interface SearchableTool {
  readonly serverName: string;
  readonly tool: Tool;
}

export interface ToolMatch<T extends SearchableTool = SearchableTool> {
  readonly item: T;
  readonly score: number;
}

/** Field weights (BM25F-style term frequency per field). */
const WEIGHTS = { name: 3, title: 2, server: 1, description: 1, paramName: 1.5, paramDescription: 0.75 } as const;
const K1 = 1.2;
const B = 0.75;

const STOP_WORDS = new Set('a an and are as at be by for from has have i in is it its me my of on or that the this to was what when which with you your do does can all any'.split(' '));

/** Words of `text`: camelCase, snake_case and kebab-case split, lower-cased, a plain plural `s` dropped. */
export function searchTerms(text: string): string[] {
  const words = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0 && !STOP_WORDS.has(w));
  return words.map(stem);
}

/** A light stemmer: "files" and "file", "listing" and "list" meet; short words stay as they are. */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return word.slice(0, -3) + 'y';
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('es') && /(ch|sh|x|ss)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}

/** The parameters of a schema, one level down (names and descriptions). */
function parameters(schema: unknown): { name: string; description: string }[] {
  const props = (schema as { properties?: unknown } | undefined)?.properties;
  if (!props || typeof props !== 'object') return [];
  return Object.entries(props as Record<string, unknown>).map(([name, p]) => ({ name, description: typeof (p as { description?: unknown })?.description === 'string' ? (p as { description: string }).description : '' }));
}

/** A document's weighted term frequencies and weighted length. */
function documentOf(item: SearchableTool): { tf: Map<string, number>; length: number } {
  const tf = new Map<string, number>();
  let length = 0;
  const add = (text: string | undefined, weight: number) => {
    for (const term of searchTerms(text ?? '')) {
      tf.set(term, (tf.get(term) ?? 0) + weight);
      length += weight;
    }
  };
  const { tool } = item;
  add(tool.name, WEIGHTS.name);
  add(tool.title ?? tool.annotations?.title, WEIGHTS.title);
  add(item.serverName, WEIGHTS.server);
  add(tool.description, WEIGHTS.description);
  for (const p of parameters(tool.inputSchema)) {
    add(p.name, WEIGHTS.paramName);
    add(p.description, WEIGHTS.paramDescription);
  }
  return { tf, length };
}

/** An index over a fixed list of tools; build once per tool list, search many times. */
export class ToolSearchIndex<T extends SearchableTool = SearchableTool> {
  private readonly docs: { tf: Map<string, number>; length: number }[];
  private readonly documentFrequency = new Map<string, number>();
  private readonly averageLength: number;

  constructor(readonly items: readonly T[]) {
    this.docs = items.map(documentOf);
    for (const doc of this.docs) for (const term of doc.tf.keys()) this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
    this.averageLength = this.docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, this.docs.length);
  }

  /**
   * The best `limit` matches of `query`, best first; tools that share no word with it are left out.
   * `asYouType`: the query is still being typed, so its last word (unless a space ends the query)
   * also matches the words it begins ("invo" finds "invoice"), scored as the best of them.
   */
  search(query: string, limit = 10, options: { asYouType?: boolean } = {}): ToolMatch<T>[] {
    const terms = [...new Set(searchTerms(query))];
    const prefix = options.asYouType && /[a-z0-9]$/i.test(query) ? terms.pop() : undefined;
    const scored: { index: number; score: number }[] = [];
    this.docs.forEach((doc, index) => {
      let score = 0;
      for (const term of terms) score += this.termScore(doc, term);
      if (prefix !== undefined) {
        // The doc's own words are few; the vocabulary can be thousands (one number per tool).
        let best = 0;
        for (const term of doc.tf.keys()) if (term.startsWith(prefix)) best = Math.max(best, this.termScore(doc, term));
        score += best;
      }
      if (score > 0) scored.push({ index, score });
    });
    scored.sort((a, b) => b.score - a.score || a.index - b.index);
    return scored.slice(0, Math.max(0, limit)).map(({ index, score }) => ({ item: this.items[index], score: Math.round(score * 1000) / 1000 }));
  }

  /** BM25 of one term in one document (0 when the document lacks it). */
  private termScore(doc: { tf: Map<string, number>; length: number }, term: string): number {
    const f = doc.tf.get(term);
    if (!f) return 0;
    const df = this.documentFrequency.get(term) ?? 0;
    const idf = Math.log(1 + (this.docs.length - df + 0.5) / (df + 0.5));
    return (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * doc.length) / (this.averageLength || 1)));
  }
}
