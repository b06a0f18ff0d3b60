import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LineBudget, LogBacklog, channelShows, joinLogEntries, type BacklogLineKind } from '../../../src/extension/logs/logBacklog';
import { LogLevel, formatLogTime } from '../../../src/extension/logs/logFormat';

interface Line {
  readonly kind: BacklogLineKind;
  readonly n: number;
}

/** A backlog that counts how often its classifier runs: the cost of a flood, in lines looked at. */
function backlog(limit: number) {
  let looks = 0;
  const b = new LogBacklog<Line>((line) => {
    looks++;
    return line.kind;
  }, limit);
  return { b, looks: () => looks };
}

describe('the output channel backlog', () => {
  test('under the limit nothing drops, and lines come out in order', () => {
    const { b } = backlog(100);
    for (let n = 0; n < 100; n++) b.push({ kind: n % 2 ? 'frame' : 'message', n });
    assert.equal(b.takeDrops(), undefined);
    assert.deepEqual(b.take(3).map((l) => l.n), [0, 1, 2]);
    assert.equal(b.size, 97);
  });

  test('past the limit the oldest frame lines go first, then the oldest server messages; MCP Host lines never', () => {
    const { b } = backlog(10);
    b.push({ kind: 'keep', n: 0 });
    for (let n = 1; n <= 6; n++) b.push({ kind: 'message', n });
    for (let n = 7; n <= 9; n++) b.push({ kind: 'frame', n });
    assert.equal(b.size, 10, 'at the limit: nothing dropped yet');
    assert.equal(b.takeDrops(), undefined);
    b.push({ kind: 'frame', n: 10 });
    // 11 lines, down to 5: the 4 frames go, then the 2 oldest messages.
    assert.deepEqual(b.takeDrops(), { frames: 4, messages: 2 });
    assert.deepEqual(b.take(100).map((l) => l.n), [0, 3, 4, 5, 6]);
  });

  test('a flood of 200,000 server messages stays bounded and costs a few passes, not one per line', () => {
    const { b, looks } = backlog(10_000);
    b.push({ kind: 'keep', n: -1 });
    let written = 0;
    for (let n = 0; n < 200_000; n++) {
      b.push({ kind: 'message', n });
      assert.ok(b.size <= 10_000, `backlog ${b.size} after ${n} lines`);
      // The channel writes 200 lines a turn, one turn per 1,000 lines that arrive.
      if (n % 1000 === 999) written += b.take(200).length;
    }
    const drops = b.takeDrops()!;
    assert.equal(written + b.size + drops.messages, 200_001, 'every line is written, waiting or counted as dropped');
    const first = b.take(1)[0];
    assert.ok(first.kind === 'keep' || written > 0, 'MCP Host’s own line was kept');
    // Each pass looks at ≤ 2 × 10,000 lines and frees 5,000: linear in the flood.
    assert.ok(looks() < 200_001 * 10, `the classifier ran ${looks()} times for 200,001 lines`);
  });

  test('a backlog filled with lines that never drop waits for as many again before the next pass', () => {
    const { b, looks } = backlog(100);
    for (let n = 0; n < 1_000; n++) b.push({ kind: 'keep', n });
    assert.equal(b.size, 1_000, 'nothing of MCP Host is dropped');
    assert.equal(b.takeDrops(), undefined);
    // Not one pass per line over the limit.
    assert.ok(looks() < 1_000 * 20, `the classifier ran ${looks()} times`);
  });
});

describe('the lines written per turn', () => {
  test('halve after a turn over the budget, down to the floor, and grow back slowly after quick ones', () => {
    const budget = new LineBudget(8, 8, 200);
    assert.equal(budget.size, 32);
    budget.measured(54, 32);
    assert.equal(budget.size, 16, 'a 54 ms turn halves the next');
    budget.measured(20, 16);
    budget.measured(20, 8);
    budget.measured(20, 8);
    assert.equal(budget.size, 8, 'never below the floor');
    budget.measured(1, 8);
    assert.equal(budget.size, 16, 'a quick full turn grows it by the floor');
    budget.measured(1, 3);
    assert.equal(budget.size, 16, 'a turn that wrote less than it could says nothing about a full one');
    budget.measured(6, 16);
    assert.equal(budget.size, 16, 'a turn within the budget but not well under it keeps the size');
    for (let i = 0; i < 100; i++) budget.measured(0.5, budget.size);
    assert.equal(budget.size, 200, 'never above the ceiling');
  });
});

describe("a turn's lines in one log call", () => {
  // VS Code's log file entry: "2026-11-27 20:14:03.123 [trace] text" (its file logger's pattern).
  const ENTRY = /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) \[(trace|debug|info|warning|error)\] (.*)$/;

  test('each entry after the first starts a line stamped as VS Code stamps a call: the time, its own level', () => {
    const now = Date.UTC(2026, 10, 27, 20, 14, 3, 45);
    const text = joinLogEntries(
      [
        { level: 'trace', text: '← notifications/message {"n":1}' },
        { level: 'info', text: 'server info: [flood] message 1' },
        { level: 'warn', text: 'connection (noise): a line' },
        { level: 'error', text: 'it failed' },
        { level: 'debug', text: 'notifications/tools/list_changed' },
      ],
      now,
    );
    const lines = text.split('\n');
    assert.equal(lines[0], '← notifications/message {"n":1}', 'the first is the call itself: VS Code stamps it');
    const rest = lines.slice(1).map((line) => ENTRY.exec(line));
    assert.ok(rest.every(Boolean), text);
    assert.deepEqual(rest.map((m) => m![2]), ['info', 'warning', 'error', 'debug']);
    assert.deepEqual(rest.map((m) => m![3]), ['server info: [flood] message 1', 'connection (noise): a line', 'it failed', 'notifications/tools/list_changed']);
    assert.ok(rest.every((m) => m![1] === formatLogTime(now)));
  });

  test('one entry is its text alone', () => {
    assert.equal(joinLogEntries([{ level: 'info', text: 'only' }], 0), 'only');
  });

  test("only what the channel's level shows is joined", () => {
    assert.equal(channelShows(LogLevel.Trace, 'trace'), true);
    assert.equal(channelShows(LogLevel.Info, 'debug'), false);
    assert.equal(channelShows(LogLevel.Info, 'info'), true);
    assert.equal(channelShows(LogLevel.Warning, 'info'), false);
    assert.equal(channelShows(LogLevel.Warning, 'error'), true);
    assert.equal(channelShows(LogLevel.Off, 'error'), false);
  });
});
