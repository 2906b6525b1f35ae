import { describe, expect, it } from 'vitest';
import { jsonEqual } from '../../src/core/util/json.ts';

/** The projection history's equality, against a plain reading of its rule: same kinds, same members (order ignored), equal values. */
function reference(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => reference(v, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && reference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function random(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
}

describe('jsonEqual', () => {
  it('agrees with the rule on 20,000 pairs that share parts, differ deep, reorder keys and hold undefined', () => {
    const next = random(3);
    const leaves = [0, 1, NaN, 'a', 'b', true, null, undefined, -0];
    const value = (d: number): unknown => {
      const p = next();
      if (d > 3 || p < 0.4) return leaves[Math.floor(next() * leaves.length)];
      if (p < 0.7) return Array.from({ length: Math.floor(next() * 3) }, () => value(d + 1));
      const o: Record<string, unknown> = {};
      for (const k of ['x', 'y', 'z'].filter(() => next() < 0.6)) o[k] = value(d + 1);
      return o;
    };
    const variant = (v: unknown): unknown => {
      if (Array.isArray(v)) return next() < 0.2 ? [...v, 1] : v.map((x) => (next() < 0.3 ? variant(x) : x));
      if (v && typeof v === 'object') {
        // Keys in another order, one member rebuilt or replaced, or shared as it is.
        const entries = Object.entries(v).reverse().map(([k, x]) => [k, next() < 0.3 ? variant(x) : x] as const);
        if (next() < 0.1) entries.push(['w', undefined]);
        return Object.fromEntries(entries);
      }
      return next() < 0.2 ? value(3) : v;
    };
    let equal = 0;
    for (let i = 0; i < 20_000; i++) {
      const a = value(0);
      const b = variant(a);
      const want = reference(a, b);
      if (want) equal++;
      expect(jsonEqual(a, b)).toBe(want);
    }
    expect(equal).toBeGreaterThan(2_000);
    expect(equal).toBeLessThan(18_000);
  });
});
