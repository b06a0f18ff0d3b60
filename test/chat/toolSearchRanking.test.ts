// Tool search ranks on what a tool does (issue 38, item 22): on plain-language requests over the
// tools of real and fixture servers, ours is above a naive BM25 on top-1 and top-5.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { naiveBm25Ranking, oursRanking, readToolSearchSet, scoreRanking } from './toolSearchRanking';

const SET = join(__dirname, '..', '..', '..', 'test', 'chat', 'toolSearchSet.json');

describe('tool search ranking', () => {
  const set = readToolSearchSet(SET);

  test('the set: at least 80 tools of several servers, and the requests name tools it has', () => {
    const keys = new Set(set.servers.flatMap((s) => s.tools.map((t) => `${s.name}/${t.name}`)));
    assert.ok(keys.size >= 80, `${keys.size} tools`);
    assert.ok(set.servers.length >= 5);
    for (const q of set.queries) for (const e of q.expected) assert.ok(keys.has(e), `${q.query}: ${e}`);
  });

  test('requests in other words than the tool\'s: "sum"/"add", "folder"/"directory", "remember"/"memory"', () => {
    const rank = oursRanking(set);
    assert.equal(rank('add two numbers')[0], 'everything/get-sum');
    assert.equal(rank('what is the sum of 3 and 4')[0], 'everything/get-sum');
    assert.equal(rank('make a new folder')[0], 'filesystem/create_directory');
    assert.match(rank('remember that Alice works at Acme')[0], /^memory\//);
    assert.equal(rank('how many support tickets are there')[0], 'many-tools/count_ticket');
  });

  test('ours beats a naive BM25 on top-1 and on top-5', () => {
    const ours = scoreRanking(set, oursRanking(set));
    const bm25 = scoreRanking(set, naiveBm25Ranking(set));
    const report = `ours top-1 ${ours.top1.toFixed(2)} top-5 ${ours.top5.toFixed(2)}; BM25 top-1 ${bm25.top1.toFixed(2)} top-5 ${bm25.top5.toFixed(2)}\nours missed:\n${ours.misses.join('\n')}`;
    assert.ok(ours.top1 > bm25.top1, report);
    assert.ok(ours.top5 > bm25.top5, report);
    // By a margin, not by a request: at the time of writing 84% and 96% against 64% and 82%.
    assert.ok(ours.top1 >= bm25.top1 + 0.1 && ours.top5 >= 0.9, report);
  });
});
