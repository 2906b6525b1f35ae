import { describe, expect, it } from 'vitest';
import { firstDifference, sameFlatRow } from '../../src/worker/list-tails.ts';

describe("a followed log's lists sent from their first change (issue #15)", () => {
  it.each([
    [{ a: 1, b: 'x' }, { a: 1, b: 'x' }, true],
    [{ a: 1, b: 'x' }, { b: 'x', a: 1 }, true],
    [{ a: 1 }, { a: 2 }, false],
    [{ a: 1 }, { a: 1, b: 2 }, false],
    [{ a: 1, b: 2 }, { a: 1 }, false],
    // An absent field and one set to undefined: a structured clone keeps the difference.
    [{ a: 1, b: undefined }, { a: 1 }, false],
    [{ a: 1 }, { a: 1, b: undefined }, false],
    [{ a: 1, b: undefined }, { a: 1, c: undefined }, false],
    [{ names: ['x', 'y'] }, { names: ['x', 'y'] }, true],
    [{ names: ['x', 'y'] }, { names: ['x'] }, false],
    [{ names: ['x', 'y'] }, { names: ['x', 'z'] }, false],
    [{ shadowedBy: null }, { shadowedBy: 3 }, false],
  ])('sameFlatRow(%j, %j) is %s', (a, b, same) => {
    expect(sameFlatRow(a, b)).toBe(same);
  });

  it('finds the first entry that differs, or the shorter length', () => {
    const rows = [{ seq: 1 }, { seq: 2 }, { seq: 3 }];
    expect(firstDifference(rows, rows.map((r) => ({ ...r })))).toBe(3);
    expect(firstDifference(rows, [...rows, { seq: 4 }])).toBe(3);
    expect(firstDifference(rows, [{ seq: 1 }, { seq: 5 }, { seq: 3 }])).toBe(1);
    expect(firstDifference(rows, rows.slice(0, 2))).toBe(2);
    expect(firstDifference([], rows)).toBe(0);
  });
});
