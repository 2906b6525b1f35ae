import { describe, expect, it } from 'vitest';
import { countAtOrBelow } from '../../src/core/util/sorted.ts';

describe('countAtOrBelow', () => {
  it('counts the entries at or below a value', () => {
    const a = Float64Array.from([1, 3, 3, 7]);
    expect([0, 1, 2, 3, 6, 7, 8].map((v) => countAtOrBelow(a, v))).toEqual([0, 1, 1, 3, 3, 4, 4]);
    expect(countAtOrBelow([], 5)).toBe(0);
    expect(countAtOrBelow(a, NaN)).toBe(0);
  });

  it('counts only the first `length` entries of a growable column, as a subarray of them would', () => {
    // A grown column: filled to 4, the rest zeros (not in order).
    const column = new Uint32Array(16);
    column.set([2, 4, 4, 9]);
    for (const length of [0, 1, 3, 4]) {
      for (let v = -1; v <= 10; v += 0.5) expect(countAtOrBelow(column, v, length)).toBe(countAtOrBelow(column.subarray(0, length), v));
    }
    expect(countAtOrBelow(column, 100, 4)).toBe(4);
  });
});
