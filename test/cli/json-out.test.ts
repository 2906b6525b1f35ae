import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { jsonPieces, writeJson } from '../../src/cli/json-out.ts';

/** Written in pieces, a document reads exactly as JSON.stringify(value, null, 2) writes it. */
describe('JSON written in pieces', () => {
  const values: unknown[] = [
    { a: 1, b: 'two\nlines "quoted"', c: null, d: undefined, e: () => 1, f: [], g: {}, h: [1, undefined, () => 2, { x: [1, { y: 'z' }] }], i: new Date(0), j: { toJSON: (key: string) => `json of ${key}` } },
    { requests: [{ cut: 1, get messages() { return [{ id: 'm', content: [{ type: 'text', text: 'hi\n' }] }]; }, get hash() { return 'abc'; } }], empty: [] },
    [1, { a: [2, 3] }, 'x'],
    'text',
    42,
    null,
    {},
    { only: undefined },
  ];

  it.each(values.map((v, i) => [i, v]))('value %i', (_i, value) => {
    expect([...jsonPieces(value)].join('')).toBe(JSON.stringify(value, null, 2));
  });

  it('goes to a stream whole, in writes of at most about a megabyte', async () => {
    const big = { items: Array.from({ length: 3000 }, (_, i) => ({ i, text: 'x'.repeat(1000) })) };
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    await writeJson(big, out);
    out.end();
    expect(Buffer.concat(chunks).toString('utf8')).toBe(JSON.stringify(big, null, 2));
    expect(chunks.length).toBeGreaterThan(1);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(1.1 * (1 << 20));
  });
});
