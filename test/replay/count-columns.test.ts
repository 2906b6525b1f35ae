import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { Engine } from '../../src/worker/engine.ts';
import { ReplayBuilder, type ReplayColumns } from '../../src/core/replay/replay-index.ts';
import { PartialLog } from '../../src/store/partial-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';

/**
 * The turn and step columns take 2 bytes an event (issue #15: a long session's
 * columns are half its file), and 4 once a value does not fit — holding what
 * an Int32Array holds, as every value was stored before.
 */
describe('the turn and step columns', () => {
  const log = generateLog({ dialect: 'v0', seed: 4, turns: 3, stepsPerTurn: 3 });
  const rows = log.lines.slice(1).map((l) => JSON.parse(l) as { type: string; seq: number; data: Record<string, unknown> });

  /** The turn and step each event of a log sorts into, by the index's rule, as an Int32Array stores them. */
  function expected(text: string): { turn: number[]; step: number[] } {
    const events = readLogText(text).events;
    let turn = 0;
    let step = 0;
    const out = { turn: [] as number[], step: [] as number[] };
    for (const e of events) {
      const d = e.data ?? {};
      if (e.type === 'turn/start') { turn = typeof d.turn === 'number' ? d.turn : turn + 1; step = 0; }
      if (e.type === 'step/start') step = typeof d.step === 'number' ? d.step : step + 1;
      out.turn.push(Int32Array.of(turn)[0]);
      out.step.push(Int32Array.of(step)[0]);
    }
    return out;
  }
  const logged = (summary: { columns: ReplayColumns; count: number; syntheticCount: number }, key: 'turn' | 'step') =>
    Array.from(summary.columns[key].subarray(0, summary.count - summary.syntheticCount));

  it('are 2 bytes an event for ordinary turns and steps', async () => {
    const summary = await new Engine().load({ kind: 'text', text: log.text, name: 'a' }, () => {});
    expect(summary.columns.turn).toBeInstanceOf(Uint16Array);
    expect(summary.columns.step).toBeInstanceOf(Uint16Array);
    const want = expected(log.text);
    expect(logged(summary, 'turn')).toEqual(want.turn);
    expect(logged(summary, 'step')).toEqual(want.step);
    expect(Math.max(...want.turn)).toBe(3);
  });

  it('widen to 4 bytes for a turn past 65535 and a negative or fractional step, values as before', async () => {
    let turns = 0;
    let steps = 0;
    const changed = rows.map((e) => {
      if (e.type === 'turn/start' && ++turns >= 2) return { ...e, data: { ...e.data, turn: 70_000 + turns } };
      if (e.type === 'step/start' && ++steps === 4) return { ...e, data: { ...e.data, step: -2.5 } };
      return e;
    });
    const text = [log.lines[0], ...changed.map((e) => JSON.stringify(e))].join('\n') + '\n';
    const summary = await new Engine().load({ kind: 'text', text, name: 'b' }, () => {});
    expect(summary.columns.turn).toBeInstanceOf(Int32Array);
    expect(summary.columns.step).toBeInstanceOf(Int32Array);
    const want = expected(text);
    expect(want.turn).toContain(70_003);
    expect(want.step).toContain(-2);
    expect(logged(summary, 'turn')).toEqual(want.turn);
    expect(logged(summary, 'step')).toEqual(want.step);
  });

  it('widen on the page too, when a later part of a loading log brings wider ones', () => {
    const part = (turn: number, seq: number): ReplayColumns => {
      const b = new ReplayBuilder();
      b.after({ type: 'turn/start', seq, time: 1, data: { turn } }, { nodes: [], nextSeq: seq + 1, replaceGeneration: 0, contentGeneration: 0, projected: new Map(), replacements: [] }, { kind: 'none', seq });
      return b.rowsSince(0).columns;
    };
    const first = part(7, 0);
    const second = part(90_000, 1);
    expect(first.turn).toBeInstanceOf(Uint16Array);
    expect(second.turn).toBeInstanceOf(Int32Array);
    const page = new PartialLog('c');
    const header = { type: 'session', version: 0, id: 'x', createdAt: 1, cwd: '/' } as never;
    page.append({ from: 0, columns: first, timeBase: 1, typeNames: ['turn/start'], header, version: 0 });
    const summary = page.append({ from: 1, columns: second, timeBase: 1, typeNames: ['turn/start'], header, version: 0 });
    expect(Array.from(summary.columns.turn)).toEqual([7, 90_000]);
    expect(Array.from(summary.columns.seq)).toEqual([0, 1]);
  });

  it('are sized once on the page for the rows the worker expects the log to hold', () => {
    // A thousand-row report at a time of a log expected to hold 50,000 rows: no copy after the first report.
    const report = (from: number): ReplayColumns => {
      const b = new ReplayBuilder();
      for (let k = 0; k < 1000; k++) b.after({ type: 'turn/start', seq: from + k, time: 1, data: { turn: 1 } }, { nodes: [], nextSeq: from + k + 1, replaceGeneration: 0, contentGeneration: 0, projected: new Map(), replacements: [] }, { kind: 'none', seq: from + k });
      return b.rowsSince(0).columns;
    };
    const header = { type: 'session', version: 0, id: 'x', createdAt: 1, cwd: '/' } as never;
    const page = new PartialLog('e');
    const buffers = new Set<ArrayBufferLike>();
    let summary = null;
    for (let from = 0; from < 50_000; from += 1000) {
      summary = page.append({ from, columns: report(from), timeBase: 1, typeNames: ['turn/start'], header, version: 0, expected: 50_000 });
      buffers.add(summary.columns.seq.buffer);
    }
    expect(buffers.size).toBe(1);
    expect(summary!.count).toBe(50_000);
    expect(Array.from(summary!.columns.seq.subarray(49_990))).toEqual(Array.from({ length: 10 }, (_, k) => 49_990 + k));
    // Without the estimate the columns grow by copying.
    const unsized = new PartialLog('u');
    const grown = new Set<ArrayBufferLike>();
    for (let from = 0; from < 50_000; from += 1000) grown.add(unsized.append({ from, columns: report(from), timeBase: 1, typeNames: ['turn/start'], header, version: 0 }).columns.seq.buffer);
    expect(grown.size).toBeGreaterThan(1);
  });
});
