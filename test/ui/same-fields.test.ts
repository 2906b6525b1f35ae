import { describe, expect, it } from 'vitest';
import { shallow } from 'zustand/shallow';
import { sameFields } from '../../src/ui/same-fields.ts';

describe('sameFields (the rows\' memo comparison)', () => {
  it('agrees with zustand shallow on plain objects, keys missing, extra, undefined and NaN', () => {
    const shared = { list: [1] };
    const values = [0, -0, 1, NaN, undefined, null, 'a', '', shared, shared.list, { list: [1] }];
    let seed = 7;
    const rand = (n: number) => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) >>> 16) % n;
    const make = () => {
      const o: Record<string, unknown> = {};
      for (const key of ['a', 'b', 'c', 'd']) if (rand(3)) o[key] = values[rand(values.length)];
      return o;
    };
    let differing = 0;
    for (let i = 0; i < 3000; i++) {
      const a = make();
      const b = rand(2) ? { ...a } : make();
      if (rand(4) === 0) delete b[Object.keys(b)[0]];
      expect(sameFields(a, b)).toBe(shallow(a, b));
      expect(sameFields(b, a)).toBe(shallow(b, a));
      if (!shallow(a, b)) differing++;
    }
    // Both outcomes were exercised.
    expect(differing).toBeGreaterThan(500);
    expect(differing).toBeLessThan(2500);
  });

  it('tells a key holding undefined from a missing key', () => {
    expect(sameFields({ a: undefined }, {})).toBe(false);
    expect(sameFields({}, { a: undefined })).toBe(false);
    expect(sameFields({ a: undefined }, { a: undefined })).toBe(true);
  });
});
