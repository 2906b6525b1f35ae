import { describe, expect, it } from 'vitest';
import { loadRun } from '../../src/core/compare/run.ts';
import { summarizeRun } from '../../src/core/compare/summary.ts';
import { TurnOutcomeTally } from '../../src/core/session/turn-outcomes.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import type { LogEvent } from '../../src/core/log/types.ts';

/**
 * A comparison's run summary shows how each turn ended. The outcomes are noted
 * as the load walks the log (issue #15 × #20): read afterwards, a long log read
 * back from its file was read whole once more for one or two events a turn.
 */
const event = (seq: number, type: string, data: Record<string, unknown>): LogEvent => ({ seq, time: seq, type, data }) as LogEvent;

describe('turn outcomes', () => {
  it('are each turn start in order, with its end reason: ended without one, open without an end, numbered by position without a number', () => {
    const tally = new TurnOutcomeTally();
    const events = [
      event(0, 'turn/start', { turn: 1 }),
      event(1, 'turn/end', { turn: 1, reason: { kind: 'completed' } }),
      event(2, 'turn/start', { turn: 2 }),
      event(3, 'turn/end', { turn: 2, reason: {} }),
      event(4, 'turn/start', {}),
      event(5, 'turn/start', { turn: 7 }),
      event(6, 'turn/end', { turn: 7, reason: { kind: 'aborted' } }),
      event(7, 'turn/end', { reason: { kind: 'lost' } }),
    ];
    for (const e of events) tally.after(e);
    expect(tally.outcomes()).toEqual([
      { turn: 1, outcome: 'completed' },
      { turn: 2, outcome: 'ended' },
      { turn: 3, outcome: 'open' },
      { turn: 7, outcome: 'aborted' },
    ]);
  });

  it('come from the walk: the summary reads no event of the log, and counts every turn', () => {
    const text = generateLog({ dialect: 'v0', seed: 5, turns: 6, compactEvery: 3 }).text;
    const { run } = loadRun(readLogText(text), 'log.jsonl');
    let reads = 0;
    const summary = summarizeRun({ ...run, eventAt: (seq) => { reads++; return run.eventAt(seq); } });
    expect(reads).toBe(0);
    expect(summary.turns).toBe(6);
    expect(summary.turnOutcomes.map((t) => t.turn)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(summary.turnOutcomes.every((t) => t.outcome !== 'open')).toBe(true);
  });
});
