// How well tool search ranks: plain-language requests over the tool lists of real and fixture
// servers (toolSearchSet.json), ranked by our ToolSearchIndex and by a naive BM25 over each
// tool's name and description, as top-1 and top-5 (a request counts when one of its expected
// tools is there). Used by `npm run bench` and by the unit test that holds ours above BM25.
import { readFileSync } from 'node:fs';
import type { Tool } from '../../src/client/schemas';
import { SearchableTool, ToolSearchIndex } from '../../src/chat/toolSearch';

export interface ToolSearchSet {
  readonly servers: readonly { readonly name: string; readonly instructions?: string; readonly tools: readonly Tool[] }[];
  readonly queries: readonly { readonly query: string; readonly expected: readonly string[] }[];
}

export interface RankingScore {
  readonly top1: number;
  readonly top5: number;
  /** The requests whose expected tool was not first, with what came first. */
  readonly misses: readonly string[];
}

export function readToolSearchSet(file: string): ToolSearchSet {
  return JSON.parse(readFileSync(file, 'utf8')) as ToolSearchSet;
}

export function searchableTools(set: ToolSearchSet): SearchableTool[] {
  return set.servers.flatMap((s) => s.tools.map((tool) => ({ serverName: s.name, tool, ...(s.instructions ? { serverInstructions: s.instructions } : {}) })));
}

/** Scores a ranking function (query → tool keys `server/tool`, best first) on the set. */
export function scoreRanking(set: ToolSearchSet, rank: (query: string) => readonly string[]): RankingScore {
  let top1 = 0;
  let top5 = 0;
  const misses: string[] = [];
  for (const { query, expected } of set.queries) {
    const ranked = rank(query);
    if (expected.includes(ranked[0])) top1++;
    else misses.push(`${query} → ${ranked[0] ?? '(nothing)'} (expected ${expected.join(' or ')})`);
    if (ranked.slice(0, 5).some((k) => expected.includes(k))) top5++;
  }
  return { top1: top1 / set.queries.length, top5: top5 / set.queries.length, misses };
}

const key = (t: SearchableTool) => `${t.serverName}/${t.tool.name}`;

export function oursRanking(set: ToolSearchSet): (query: string) => string[] {
  const index = new ToolSearchIndex(searchableTools(set));
  return (query) => index.search(query, 5).map((m) => key(m.item));
}

/** A naive BM25 (k1 1.2, b 0.75) over each tool's name and description, split on non-letters, lower-cased: the baseline. */
export function naiveBm25Ranking(set: ToolSearchSet): (query: string) => string[] {
  const tools = searchableTools(set);
  const words = (text: string) => text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  const docs = tools.map((t) => {
    const tf = new Map<string, number>();
    const w = words(`${t.tool.name} ${t.tool.description ?? ''}`);
    for (const x of w) tf.set(x, (tf.get(x) ?? 0) + 1);
    return { tf, length: w.length };
  });
  const df = new Map<string, number>();
  for (const d of docs) for (const x of d.tf.keys()) df.set(x, (df.get(x) ?? 0) + 1);
  const avg = docs.reduce((s, d) => s + d.length, 0) / docs.length;
  return (query) => {
    const terms = [...new Set(words(query))];
    return docs
      .map((d, i) => {
        let score = 0;
        for (const t of terms) {
          const f = d.tf.get(t);
          if (!f) continue;
          const n = df.get(t)!;
          score += (Math.log(1 + (docs.length - n + 0.5) / (n + 0.5)) * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.length) / avg));
        }
        return { i, score };
      })
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score || a.i - b.i)
      .slice(0, 5)
      .map((s) => key(tools[s.i]));
  };
}

/** The bench's lines: top-1 and top-5 of ours and of the naive BM25, PASS when ours is above on both. */
export function toolSearchBenchLines(file: string): { lines: string[]; ok: boolean } {
  const set = readToolSearchSet(file);
  const ours = scoreRanking(set, oursRanking(set));
  const bm25 = scoreRanking(set, naiveBm25Ranking(set));
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
  const ok = ours.top1 > bm25.top1 && ours.top5 > bm25.top5;
  const tools = set.servers.reduce((n, s) => n + s.tools.length, 0);
  return {
    ok,
    lines: [
      '',
      `## Tool search ranking (${set.queries.length} requests over ${tools} tools of ${set.servers.length} servers)`,
      '',
      '| ranking | top-1 | top-5 |',
      '|---|---|---|',
      `| MCP Host (find_tools, Find Tool…) | ${pct(ours.top1)} | ${pct(ours.top5)} |`,
      `| naive BM25 (name + description) | ${pct(bm25.top1)} | ${pct(bm25.top5)} |`,
      `| ours above BM25 on both | ${ok ? 'PASS' : 'MISS'} | |`,
    ],
  };
}
