import { describe, expect, it } from 'vitest';
import { utf8Bytes } from '../../src/core/util/utf8.ts';

/** Random text mixing 1-, 2-, 3- and 4-byte characters, long enough to cross the counter's slices. */
function randomText(seed: number, length: number): string {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2147483648);
  const pieces = ['a', 'Z', ' ', '\n', 'é', 'ß', '€', '中', '😀', '𝄞'];
  let out = '';
  while (out.length < length) out += pieces[next() % pieces.length];
  return out;
}

describe('utf8Bytes', () => {
  it('equals the encoded length of the whole text and of any prefix, across slice boundaries', () => {
    const encoder = new TextEncoder();
    for (const [seed, length] of [[1, 10], [2, 70], [3, 40_000], [4, 100_003]]) {
      const text = randomText(seed, length);
      expect(utf8Bytes(text)).toBe(encoder.encode(text).length);
      for (let k = 0; k < 25; k++) {
        const end = Math.floor(((k * 7919 + seed) % 1000) / 1000 * text.length);
        // A prefix that cuts a surrogate pair counts the lone half as U+FFFD (3 bytes), as encoding the slice does.
        expect(utf8Bytes(text, end), `seed ${seed} end ${end}`).toBe(encoder.encode(text.slice(0, end)).length);
      }
    }
  });

  it('counts a pair split exactly at a slice boundary as one 4-byte character', () => {
    const text = 'a'.repeat((1 << 15) - 1) + '😀' + 'b';
    expect(utf8Bytes(text)).toBe((1 << 15) - 1 + 4 + 1);
  });
});
