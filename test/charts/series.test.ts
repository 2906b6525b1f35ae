import { describe, expect, it } from 'vitest';
import { callAtIndex, callColumns, drawnCalls, usageColumns } from '../../src/core/charts/aligned.ts';
import { callTokens, replaceMarks, seriesValueAt, surfaceSeries } from '../../src/core/charts/series.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { SurfaceTotals } from '../../src/core/surface/surface-totals.ts';
import { Engine } from '../../src/worker/engine.ts';
import { packRequestRows, unpackRequestRows } from '../../src/worker/request-rows-wire.ts';

const totalsOf = (points: [number, number][]) => {
  const t = new SurfaceTotals();
  for (const [seq, tokens] of points) t.record(seq, 1, tokens);
  return t;
};

describe('chart series (issue #19)', () => {
  it('keeps every surface change when they fit, and bins a long series keeping each bin\'s peak and last level', () => {
    const points: [number, number][] = Array.from({ length: 10_000 }, (_, i) => [i, i === 4321 ? 1e6 : (i * 7) % 1000]);
    const whole = surfaceSeries(totalsOf(points.slice(0, 50)), (s) => s);
    expect(whole.binned).toBe(false);
    expect([...whole.tokens]).toEqual(points.slice(0, 50).map((p) => p[1]));
    const binned = surfaceSeries(totalsOf(points), (s) => s, 400);
    expect(binned.binned).toBe(true);
    expect(binned.changes).toBe(10_000);
    expect(binned.x.length).toBeLessThanOrEqual(400);
    expect([...binned.x]).toEqual([...binned.x].sort((a, b) => a - b));
    expect(Math.max(...binned.tokens)).toBe(1e6);
    expect(binned.x.at(-1)).toBe(9999);
    expect(binned.tokens.at(-1)).toBe(points[9999][1]);
  });

  it('reads a step series at any index: the last point at or before it', () => {
    const x = [2, 5, 9];
    const y = [10, 20, 30];
    expect([0, 2, 4, 5, 8, 9, 100].map((at) => seriesValueAt(x, y, at))).toEqual([0, 10, 10, 20, 20, 30, 30]);
  });

  it('tells a compaction\'s replace from another rewrite', () => {
    const r = (seq: number) => ({ seq, start: 0, end: 0, shadowedSeqs: [1, 2], index: 0 });
    // Compaction events at 10 and 40; replaces at 12 (after 10), 20 (nothing since 12), 41 (after 40).
    expect(replaceMarks([r(12), r(20), r(41)], (s) => s, [10, 40]).map((m) => m.compaction)).toEqual([true, false, true]);
  });

  it('maps logged usage to buckets; the prompt is fresh + cache read + cache write', () => {
    expect(callTokens(3, 40, { inputTokens: 100, cacheReadTokens: 900, cacheWriteTokens: 5, outputTokens: 7 }, 128_000, ['compaction']))
      .toEqual({ call: 3, index: 40, fresh: 100, cacheRead: 900, cacheWrite: 5, output: 7, prompt: 1005, contextWindow: 128_000, breakReasons: ['compaction'] });
    expect(callTokens(0, 1, undefined, undefined, [])).toEqual({ call: 0, index: 1, breakReasons: [] });
    const cols = callColumns([callTokens(0, 1, { inputTokens: 1, outputTokens: 2 }, undefined, []), callTokens(1, 5, { inputTokens: 3, cacheReadTokens: 4, outputTokens: 5 }, undefined, [])]);
    expect(cols.stacked).toEqual([[1, 3], [1, 7], [1, 7], [3, 12]]);
    expect(cols.cacheRead).toEqual([null, 4]);
  });

  it('on a generated log, the charts equal the core at three cursors and count every call', async () => {
    const text = generateLog({ dialect: 'v0', seed: 19, turns: 6, compactEvery: 2 }).text;
    const engine = new Engine();
    const summary = await engine.load({ kind: 'text', text, name: 'g.jsonl' }, () => {});
    const data = engine.charts();
    expect(data.calls).toHaveLength(summary.requests.length);
    expect(data.calls.map((c) => c.index)).toEqual(summary.requests.map((r) => r.cutIndex));
    // The page draws the calls from the summary's request rows (the worker leaves them out when asked): the same figures.
    expect(summary.requests.map((r) => r.tokens)).toEqual(data.calls);
    expect(unpackRequestRows(packRequestRows(summary.requests)).map((r) => r.tokens)).toEqual(data.calls);
    expect(engine.charts(false).calls).toEqual([]);
    expect(engine.charts(false).surface).toEqual(data.surface);
    expect(data.marks).toHaveLength(summary.replacements.length);
    expect(data.marks.filter((m) => m.compaction).length).toBeGreaterThan(0);
    const cols = usageColumns(data.surface, data.calls);
    expect(cols.x).toEqual([...cols.x].sort((a, b) => a - b));
    for (const at of [3, Math.floor(summary.count / 2), summary.count - 1]) {
      expect(seriesValueAt(data.surface.x, data.surface.tokens, at)).toBe(engine.state({ index: at, window: { from: 0, count: 0 } }).tokens);
      const k = callAtIndex(data.calls, at);
      expect(k).toBe(summary.requests.findLastIndex((r) => r.cutIndex <= at));
    }
    // The logged prompt of each call, where it reported input.
    for (const c of data.calls) if (c.prompt !== undefined) expect(cols.logged[cols.x.indexOf(c.index)]).toBeGreaterThanOrEqual(c.prompt);
  });
});

describe('per-call charts of a long session (issue #15)', () => {
  // Deterministic, uneven values with gaps (undefined: a call that reported nothing).
  const values = Array.from({ length: 10_007 }, (_, i) => (i % 97 === 0 ? undefined : ((i * 7919) % 1009) + (i === 6543 ? 1e6 : 0)));

  it('draws every call when they fit, else at most the limit, ascending, each bin by its biggest', () => {
    expect(drawnCalls(50, (i) => values[i], 400)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    const drawn = drawnCalls(values.length, (i) => values[i], 400);
    expect(drawn.length).toBeLessThanOrEqual(400);
    expect(drawn).toEqual([...drawn].sort((a, b) => a - b));
    expect(new Set(drawn).size).toBe(drawn.length);
    expect(drawn).toContain(6543);
    // Every call lies in the bin of one drawn call, and none in it is bigger.
    const per = values.length / 400;
    for (let b = 0; b < 400; b++) {
      const from = Math.floor(b * per);
      const to = Math.floor((b + 1) * per);
      const inBin = drawn.filter((k) => k >= from && k < to);
      expect(inBin).toHaveLength(1);
      const max = Math.max(...values.slice(from, to).filter((v): v is number => v !== undefined));
      expect(values[inBin[0]]).toBe(max);
    }
  });

  it('keeps a bin\'s lowest as well as its highest for the prompt dots', () => {
    const drawn = drawnCalls(values.length, (i) => values[i], 400, true);
    expect(drawn.length).toBeLessThanOrEqual(400);
    const per = values.length / 200;
    for (let b = 0; b < 200; b++) {
      const from = Math.floor(b * per);
      const to = Math.floor((b + 1) * per);
      const known = values.slice(from, to).filter((v): v is number => v !== undefined);
      const got = drawn.filter((k) => k >= from && k < to).map((k) => values[k]);
      expect(got).toContain(Math.max(...known));
      expect(got).toContain(Math.min(...known));
    }
  });

  it('maps each drawn bar back to its call, and keeps the logged prompts\' extremes on the usage chart', () => {
    const calls = values.map((v, i) => callTokens(i, i * 3, v === undefined ? undefined : { inputTokens: v, outputTokens: i % 5 }, 1_000_000, []));
    const cols = callColumns(calls, 400);
    expect(cols.binned).toBe(true);
    expect(cols.x.length).toBeLessThanOrEqual(400);
    cols.call.forEach((k, p) => {
      expect(cols.x[p]).toBe(calls[k].call + 1);
      expect(cols.fresh[p]).toBe(calls[k].fresh ?? null);
      expect(cols.stacked[3][p]).toBe((calls[k].fresh ?? 0) + (calls[k].output ?? 0));
    });
    expect(cols.x[cols.call.indexOf(6543)]).toBe(6544);
    const usage = usageColumns({ x: new Float64Array([0, 30_000]), tokens: new Float64Array([5, 9]), changes: 2, binned: false }, calls, 400);
    expect(usage.loggedBinned).toBe(true);
    const logged = usage.logged.filter((v): v is number => v !== null);
    expect(logged.length).toBeLessThanOrEqual(400);
    expect(Math.max(...logged)).toBe(Math.max(...calls.map((c) => c.prompt ?? 0)));
    expect(usage.window.at(-1)).toBe(1_000_000);
    // Few calls: every one is drawn.
    expect(callColumns(calls.slice(0, 30), 400).call).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });
});
