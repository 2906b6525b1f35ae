import { describe, expect, it } from 'vitest';
import { jsonCommonPrefixBytes } from '../../src/core/util/json-common-prefix.ts';

/**
 * The walk must give what comparing the two serialized texts gives: the
 * UTF-8 bytes of their common prefix (never ending inside a surrogate pair),
 * or null for equal texts. The oracle here serializes both and compares.
 */
const encoder = new TextEncoder();
function oracle(a: unknown, b: unknown): number | null {
  const ta = JSON.stringify(a);
  const tb = JSON.stringify(b);
  if (ta === tb) return null;
  const n = Math.min(ta.length, tb.length);
  let i = 0;
  while (i < n && ta[i] === tb[i]) i++;
  const c = ta.charCodeAt(i - 1);
  if (i > 0 && i < n && c >= 0xd800 && c <= 0xdbff) i--;
  return encoder.encode(tb.slice(0, i)).length;
}

function random(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
}

// Characters whose escapes or UTF-8 forms differ: quotes, backslashes, controls, 2/3/4-byte, lone halves.
const ALPHABET = ['a', 'b', 'é', '€', '😀', '\ud83d', '\ude00', '"', '\\', '\n', '\t', '\u0001', '\u001f', '\u2028', ' ', '1'];

function text(next: () => number, max = 12): string {
  let s = '';
  const n = Math.floor(next() * max);
  for (let i = 0; i < n; i++) s += ALPHABET[Math.floor(next() * ALPHABET.length)];
  return s;
}

function value(next: () => number, depth = 0): unknown {
  const pick = next();
  if (depth > 3 || pick < 0.3) return text(next);
  if (pick < 0.4) return [0, 1, 12, -0, 1e21, 0.5, NaN, Infinity][Math.floor(next() * 8)];
  if (pick < 0.45) return [true, false, null, undefined][Math.floor(next() * 4)];
  if (pick < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
  const o: Record<string, unknown> = {};
  const n = Math.floor(next() * 4);
  for (let i = 0; i < n; i++) o[['role', 'content', 'text', 'type', 'rôle'][Math.floor(next() * 5)]] = value(next, depth + 1);
  return o;
}

/** A copy of `v` with one change somewhere (or none). */
function mutate(v: unknown, next: () => number): unknown {
  const pick = next();
  if (typeof v === 'string') {
    if (pick < 0.15) return v;
    const at = Math.floor(next() * (v.length + 1));
    const c = ALPHABET[Math.floor(next() * ALPHABET.length)];
    return pick < 0.5 ? v.slice(0, at) + c + v.slice(at) : pick < 0.75 ? v.slice(0, at) : v.slice(0, at) + c + v.slice(at + 1);
  }
  if (Array.isArray(v)) {
    const copy = [...v];
    if (pick < 0.2 || copy.length === 0) copy.push(value(next));
    else if (pick < 0.3) copy.pop();
    else { const i = Math.floor(next() * copy.length); copy[i] = mutate(copy[i], next); }
    return copy;
  }
  if (v && typeof v === 'object') {
    const copy: Record<string, unknown> = { ...(v as Record<string, unknown>) };
    const keys = Object.keys(copy);
    if (pick < 0.2 || keys.length === 0) copy[['text', 'zz', 'role'][Math.floor(next() * 3)]] = value(next);
    else if (pick < 0.3) delete copy[keys[0]];
    else if (pick < 0.35) copy[keys[0]] = undefined;
    else { const k = keys[Math.floor(next() * keys.length)]; copy[k] = mutate(copy[k], next); }
    return copy;
  }
  return pick < 0.5 ? value(next) : v;
}

describe('common prefix of two JSON texts, without writing them', () => {
  it('equals the serialized comparison on 30,000 random pairs', () => {
    const next = random(11);
    let differing = 0;
    for (let i = 0; i < 30_000; i++) {
      const a = value(next);
      const b = next() < 0.5 ? mutate(a, next) : value(next);
      if (JSON.stringify(a) === undefined || JSON.stringify(b) === undefined) continue;
      const want = oracle(a, b);
      if (want !== null) differing++;
      expect(jsonCommonPrefixBytes(a, b), `${JSON.stringify(a)} / ${JSON.stringify(b)}`).toBe(want);
    }
    expect(differing).toBeGreaterThan(15_000);
  });

  it('handles the shapes a compaction makes, and values only JSON.stringify can write', () => {
    const original = { role: 'user', content: [{ type: 'text', text: 'Fix the bug in src/a.ts' }] };
    const summary = { role: 'user', content: [{ type: 'text', text: 'Summary of the conversation so far: ' + 'x'.repeat(30_000) }] };
    expect(jsonCommonPrefixBytes(original, summary)).toBe(oracle(original, summary));
    expect(jsonCommonPrefixBytes(summary, { ...summary })).toBeNull();
    // Around a surrogate: a pair kept whole on one side is a lone half (written \uD83D) on the other.
    for (const [a, b] of [['X😀', 'X\ud83d!'], ['X\ud83d', 'X😀'], ['😀a', '😁a'], ['a\ude00', 'a\ud83d\ude00'], ['\ud83d', '\ud83e'], ['é😀', 'é']]) {
      expect(jsonCommonPrefixBytes({ t: a }, { t: b }), `${a} / ${b}`).toBe(oracle({ t: a }, { t: b }));
    }
    const dated = { at: new Date(0), text: 'é' };
    expect(jsonCommonPrefixBytes(dated, { at: new Date(1), text: 'é' })).toBe(oracle(dated, { at: new Date(1), text: 'é' }));
    const own = { toJSON: () => 'same' };
    expect(jsonCommonPrefixBytes(own, 'same')).toBeNull();
    expect(jsonCommonPrefixBytes([undefined, () => 1], [null, null])).toBeNull();
  });
});
