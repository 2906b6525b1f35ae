import { describe, expect, it } from 'vitest';
import { indexOfSeq } from '../../src/core/replay/seq-index.ts';
import { SeqTable } from '../../src/core/replay/seq-table.ts';
import { Engine } from '../../src/worker/engine.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';

/** A seeded generator (mulberry32): the same columns every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seq column of n events: counting up from `first`, a gap before an event with probability `gaps`, going back with `back`. */
function column(rand: () => number, n: number, first: number, gaps: number, back = 0): number[] {
  const out: number[] = [];
  let s = first;
  for (let i = 0; i < n; i++) {
    out.push(s);
    s += rand() < back ? -Math.floor(rand() * 3) : rand() < gaps ? 2 + Math.floor(rand() * 50) : 1;
  }
  return out;
}

/** Every lookup the table answers, against the column's own: each seq, the ones between and around them. */
function expectSameAsColumn(seqs: number[]): SeqTable {
  const table = SeqTable.of(Float64Array.from(seqs));
  expect(table.length).toBe(seqs.length);
  for (let i = -1; i <= seqs.length; i++) expect(table.at(i)).toBe(seqs[i]);
  const lo = seqs.length ? Math.min(...seqs) - 3 : -3;
  const hi = seqs.length ? Math.max(...seqs) + 3 : 3;
  for (let q = lo; q <= hi; q++) {
    expect(table.indexOf(q)).toBe(indexOfSeq(seqs, q));
    expect(table.indexOf(q + 0.5)).toBe(indexOfSeq(seqs, q + 0.5));
  }
  for (const q of [Infinity, -Infinity, NaN]) expect(table.indexOf(q)).toBe(indexOfSeq(seqs, q));
  return table;
}

describe('the seq table', () => {
  it('keeps a gapless log as one run and answers as its column does', () => {
    const table = expectSameAsColumn(column(random(1), 5000, 0, 0));
    expect(table.compact).toBe(true);
  });

  it('answers as the column on columns with rare gaps, frequent gaps, seqs going back and none at all', () => {
    const rand = random(7);
    let compact = 0;
    for (let round = 0; round < 60; round++) {
      const n = Math.floor(rand() * 400);
      const gaps = [0, 0.002, 0.02, 0.3][round % 4];
      const back = round % 5 === 4 ? 0.05 : 0;
      const table = expectSameAsColumn(column(rand, n, Math.floor(rand() * 20), gaps, back));
      if (table.compact) compact++;
    }
    // Both forms were exercised.
    expect(compact).toBeGreaterThan(10);
    expect(compact).toBeLessThan(60);
  });

  it('keeps a copy of a column whose seqs jump at most events', () => {
    const seqs = Array.from({ length: 1000 }, (_, i) => i * 2);
    expect(expectSameAsColumn(seqs).compact).toBe(false);
  });

  it('is what the worker finds events by once the page has the seq column', async () => {
    // Compactions and image offloads: replaces and projections among the surface's nodes.
    const text = generateLog({ dialect: 'v4', seed: 12, turns: 4, compactEvery: 2, imageOffload: true }).text;
    const engine = new Engine();
    const summary = await engine.load({ kind: 'text', text, name: 't' }, () => {});
    const seqs = Array.from(summary.columns.seq);
    engine.handOverColumns();
    let nodes = 0;
    for (let index = 0; index < summary.count; index += 11) {
      const state = engine.state({ index, window: { from: 0, count: 10_000 } });
      for (const node of state.nodes) expect(seqs[node.index]).toBe(node.seq);
      expect(state.seq).toBe(seqs[index]);
      nodes += state.nodes.length;
    }
    expect(nodes).toBeGreaterThan(100);
  });
});
