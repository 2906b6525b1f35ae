import { describe, expect, it } from 'vitest';
import { typeCensus } from '../../src/core/session/type-census.ts';
import { mulberry32 } from '../../src/core/generate/prng.ts';

describe('typeCensus: one pass over the type column', () => {
  it('counts each type among the first rows and lists the rows of the flagged types, in order', () => {
    const rand = mulberry32(11);
    const types = 7;
    const column = Uint16Array.from({ length: 5000 }, () => Math.floor(rand() * types));
    const flagged = Uint8Array.from({ length: types }, (_v, id) => (id === 2 || id === 5 ? 1 : 0));
    const count = 4321; // the logged rows; synthetic ones after them are not counted
    const { perType, flaggedRows } = typeCensus(column, count, types, flagged);
    const expectedCounts = new Uint32Array(types);
    const expectedRows: number[] = [];
    for (let i = 0; i < count; i++) {
      expectedCounts[column[i]]++;
      if (column[i] === 2 || column[i] === 5) expectedRows.push(i);
    }
    expect([...perType]).toEqual([...expectedCounts]);
    expect(flaggedRows).toEqual(expectedRows);
    expect(perType.reduce((a, b) => a + b, 0)).toBe(count);
  });

  it('finds nothing in an empty column', () => {
    const { perType, flaggedRows } = typeCensus(new Uint8Array(0), 0, 3, new Uint8Array([1, 1, 1]));
    expect([...perType]).toEqual([0, 0, 0]);
    expect(flaggedRows).toEqual([]);
  });
});
