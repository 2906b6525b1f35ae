import { describe, expect, it } from 'vitest';
import { SeqMap } from '../../src/core/util/seq-map.ts';

function random(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
}

/** Random operations on a SeqMap and a Map side by side; every read must agree. */
function agreeWithMap(seed: number, seqOf: (next: () => number, i: number) => number, projectedEnd?: (seq: number) => number): SeqMap {
  const next = random(seed);
  const ours = new SeqMap(projectedEnd);
  const theirs = new Map<number, number>();
  for (let i = 0; i < 20_000; i++) {
    const seq = seqOf(next, i);
    const op = next();
    if (op < 0.6) { const v = Math.floor(next() * 1e6); ours.set(seq, v); theirs.set(seq, v); }
    else if (op < 0.8) { ours.delete(seq); theirs.delete(seq); }
    expect(ours.get(seq)).toBe(theirs.get(seq));
    expect(ours.has(seq)).toBe(theirs.has(seq));
    expect(ours.size).toBe(theirs.size);
  }
  for (const [seq, v] of theirs) expect(ours.get(seq)).toBe(v);
  return ours;
}

describe('SeqMap', () => {
  it('agrees with a Map on the seqs of a log (ascending, near the ones seen)', () => {
    agreeWithMap(1, (next, i) => Math.max(0, i - Math.floor(next() * 50)));
  });

  it('agrees with a Map after a jump, a negative or a fractional seq moves it to a hash map', () => {
    agreeWithMap(2, (next, i) => (i === 5000 ? 1e12 : i === 9000 ? -3 : i === 12_000 ? 2.5 : Math.floor(next() * (i + 10))));
  });

  it('holds a seq far past the others (a jump) beside the ones before it', () => {
    const m = new SeqMap();
    m.set(0, 1);
    m.set(2 ** 40, 2);
    expect(m.get(2 ** 40)).toBe(2);
    expect(m.get(0)).toBe(1);
    expect(m.size).toBe(2);
  });

  it('agrees with a Map whatever the projection of its size says (too low, too high, none)', () => {
    agreeWithMap(3, (next, i) => Math.max(0, i - Math.floor(next() * 50)), (seq) => seq * 3);
    agreeWithMap(4, (next, i) => Math.max(0, i - Math.floor(next() * 50)), () => 10);
    agreeWithMap(5, (next, i) => (i === 7000 ? 1e12 : Math.floor(next() * (i + 10))), () => 1e9);
  });

  it('grows to the projected size instead of doubling: fewer outgrown arrays', () => {
    const sizesWhileFilling = (projectedEnd?: (seq: number) => number) => {
      const m = new SeqMap(projectedEnd);
      const sizes = new Set<number>();
      for (let seq = 0; seq < 100_000; seq++) { m.set(seq, seq & 7); sizes.add(m.capacity); }
      expect(m.get(99_999)).toBe(99_999 & 7);
      return sizes.size;
    };
    const doubling = sizesWhileFilling();
    const projected = sizesWhileFilling(() => 100_000);
    expect(doubling).toBeGreaterThanOrEqual(7);
    expect(projected).toBeLessThanOrEqual(5);
  });
});
