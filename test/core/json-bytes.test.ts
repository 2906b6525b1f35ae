import { describe, expect, it } from 'vitest';
import { jsonBytes } from '../../src/core/util/json-bytes.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';

const encoder = new TextEncoder();
const stringified = (v: unknown) => { const t = JSON.stringify(v); return t === undefined ? 0 : encoder.encode(t).length; };

/** A small deterministic generator (the test must be reproducible). */
function random(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
}

// Every class of character JSON treats differently: plain, escaped quote and backslash, the five
// short control escapes, other controls (\u00XX), DEL, 2- and 3-byte UTF-8, pairs, lone halves.
const PIECES = ['a', 'Z', ' ', '"', '\\', '/', '\b', '\t', '\n', '\f', '\r', '\u0000', '\u001f', '\u007f', 'é', 'ß', '€', '中', '\uffff', '😀', '\ud83d', '\ude00', '\ud800x', 'x\udfff'];

function randomString(next: () => number): string {
  let s = '';
  const n = Math.floor(next() * 12);
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(next() * PIECES.length)];
  return s;
}

function randomValue(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 3 ? 6 : 9));
  switch (pick) {
    case 0: return randomString(next);
    case 1: return [0, -0, 1.5, -3, 1e21, 1e-7, 123456789012345680000, NaN, Infinity, -Infinity][Math.floor(next() * 10)];
    case 2: return next() < 0.5;
    case 3: return null;
    case 4: return undefined;
    case 5: return randomString(next).repeat(Math.floor(next() * 40));
    case 6: case 7: {
      const o: Record<string, unknown> = {};
      const n = Math.floor(next() * 5);
      for (let i = 0; i < n; i++) o[next() < 0.2 ? String(Math.floor(next() * 9)) : randomString(next)] = randomValue(next, depth + 1);
      if (next() < 0.1) o.skipped = () => 1;
      return o;
    }
    default: {
      const a = Array.from({ length: Math.floor(next() * 5) }, () => randomValue(next, depth + 1));
      if (next() < 0.1) a.push(undefined, () => 1);
      return a;
    }
  }
}

describe('jsonBytes', () => {
  it('equals the UTF-8 length of JSON.stringify on 20,000 random values of every JSON shape and character class', () => {
    const next = random(7);
    for (let i = 0; i < 20_000; i++) {
      const v = randomValue(next, 0);
      expect(jsonBytes(v), JSON.stringify(v)).toBe(stringified(v));
    }
  });

  it('agrees on every event payload of a generated log (the messages a load sizes)', () => {
    const { text } = generateLog({ dialect: 'v0', seed: 3, turns: 12, stepsPerTurn: 4 });
    const rows = text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(rows.length).toBeGreaterThan(100);
    for (const row of rows) expect(jsonBytes(row)).toBe(stringified(row));
  });

  it('asks JSON.stringify for what is not plain JSON data (toJSON, dates, a toJSON that gives undefined)', () => {
    const values = [new Date(0), { when: new Date(0) }, { toJSON: () => 'x' }, [{ toJSON: () => undefined }], { a: { toJSON: () => undefined }, b: 1 }, Object.create(null)];
    for (const v of values) expect(jsonBytes(v)).toBe(stringified(v));
  });
});
