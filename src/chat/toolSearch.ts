// Searching tools by what they do: BM25 over each tool's name, title, description and parameter
// names and descriptions, fields weighted (a word in the name counts more than one in a long
// description), with the server's name and the lines of its instructions that name the tool as
// context. Words meet through a light stemmer ("created", "creating", "create") and a small table
// of the synonyms plain requests use for the words servers use ("add" and "sum", "folder" and
// "directory", "remember" and "memory"); a tool that matches more of the request's words ranks
// above one that matches a single rare word many times. Measured against a naive BM25 on
// test/chat/toolSearchSet.json (`npm run bench`). Deterministic and local: no network, no model;
// ties keep the tools' order.
import type { Tool } from '../client/schemas';

/** A tool to search, with what it is known by (server name, model name). */
export interface SearchableTool {
  readonly serverName: string;
  readonly tool: Tool;
  /** The server's instructions: the lines that name the tool tell what it is for. */
  readonly serverInstructions?: string;
}

export interface ToolMatch<T extends SearchableTool = SearchableTool> {
  readonly item: T;
  readonly score: number;
}

/** Field weights (BM25F-style term frequency per field). */
const WEIGHTS = { name: 3, title: 2, server: 1, instructions: 0.75, description: 1, paramName: 1.5, paramDescription: 0.75 } as const;
const K1 = 1.2;
const B = 0.75;
/** What a synonym of a request's word counts, against the word itself. */
const SYNONYM_WEIGHT = 0.6;

const STOP_WORDS = new Set('a an and are as at be by for from has have i in is it its me my of on or that the this to was what when which with you your do does can all any there some up again please'.split(' '));

/**
 * Words plain requests use for the words tool descriptions use, as groups of stems (after
 * searchTerms' stemming). A word of the request also matches the other words of its groups.
 */
const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['add', 'sum', 'plus', 'total'],
  ['add', 'creat', 'make', 'insert', 'new'],
  ['remember', 'memory', 'observation', 'store', 'save'],
  ['forget', 'remov', 'delet', 'eras'],
  ['folder', 'directory'],
  ['picture', 'photo', 'imag'],
  ['renam', 'mov'],
  ['show', 'display', 'view'],
  ['find', 'look', 'search', 'lookup'],
  ['many', 'count', 'number'],
  ['several', 'multipl'],
  ['small', 'tiny'],
  ['people', 'person', 'entity'],
  ['backup', 'back'],
  ['repeat', 'echo'],
  ['money', 'currency', 'dollar', 'euro'],
  ['web', 'link', 'url', 'page'],
];

const SYNONYMS: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, Set<string>>();
  for (const group of SYNONYM_GROUPS) for (const word of group) for (const other of group) if (other !== word) (map.get(word) ?? map.set(word, new Set()).get(word)!).add(other);
  return new Map([...map].map(([k, v]) => [k, [...v]]));
})();

/** Words of `text`: camelCase, snake_case and kebab-case split, lower-cased, stemmed. */
export function searchTerms(text: string): string[] {
  const words = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0 && !STOP_WORDS.has(w));
  return words.map(stem);
}

/**
 * A light stemmer: "files" and "file", "listing" and "list", "created" and "create" meet; short
 * words stay as they are.
 */
function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) return w.slice(0, -3) + 'y';
  if (w.length > 4 && /(ch|sh|x|ss)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 7 && w.endsWith('ment')) w = w.slice(0, -4);
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
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
  for (const line of instructionLinesNaming(item.serverInstructions, tool.name)) add(line, WEIGHTS.instructions);
  add(tool.description, WEIGHTS.description);
  for (const p of parameters(tool.inputSchema)) {
    add(p.name, WEIGHTS.paramName);
    add(p.description, WEIGHTS.paramDescription);
  }
  return { tf, length };
}

/** The lines (sentences) of a server's instructions that name the tool: what the server says it is for. */
function instructionLinesNaming(instructions: string | undefined, name: string): string[] {
  if (!instructions || name.length < 3) return [];
  return instructions.split(/\n|(?<=[.;])\s+/).filter((line) => line.includes(name));
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
    const wanted = terms.length + (prefix === undefined ? 0 : 1);
    this.docs.forEach((doc, index) => {
      let score = 0;
      let matched = 0;
      for (const term of terms) {
        // The word itself or the best of its synonyms at a discount, whichever tells more.
        let best = this.termScore(doc, term);
        for (const other of SYNONYMS.get(term) ?? []) best = Math.max(best, SYNONYM_WEIGHT * this.termScore(doc, other));
        if (best > 0) matched++;
        score += best;
      }
      if (prefix !== undefined) {
        // The doc's own words are few; the vocabulary can be thousands (one number per tool).
        let best = 0;
        // A word typed past its stem ("deploym" over "deployment", kept as "deploy") still matches it.
        for (const term of doc.tf.keys()) if (term.startsWith(prefix) || (term.length >= 4 && prefix.startsWith(term))) best = Math.max(best, this.termScore(doc, term));
        if (best > 0) matched++;
        score += best;
      }
      // A tool that matches more of the request's words ranks above one that matches a single word well.
      if (score > 0) scored.push({ index, score: score * (0.5 + (0.5 * matched) / Math.max(1, wanted)) });
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
