import { describe, expect, it } from 'vitest';
import { readLog } from '../../src/core/log/reader.ts';
import { LineStore } from '../../src/core/log/line-store.ts';

/**
 * The reader splits decoded text and finds each line's bytes in step with it
 * (the event store re-reads lines from those ranges): the range must be
 * exactly the line's bytes, whatever the chunking and wherever multi-byte
 * characters, invalid bytes and the decoder's 32 KiB slices fall.
 */
function random(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
}

const encoder = new TextEncoder();

function logBytes(next: () => number): { bytes: Uint8Array; lines: Uint8Array[] } {
  const header = encoder.encode(JSON.stringify({ type: 'session', version: 0, id: 's', createdAt: 0 }));
  const lines: Uint8Array[] = [header];
  for (let seq = 0; seq < 700; seq++) {
    const pick = next();
    // Mostly long ASCII text (whole slices of it), some accents and emoji, some raw invalid bytes.
    const body = pick < 0.6 ? 'x'.repeat(Math.floor(next() * 400)) : pick < 0.8 ? 'é😀€'.repeat(Math.floor(next() * 60)) : 'plain';
    const line = encoder.encode(JSON.stringify({ type: 'session/title', seq, time: seq, data: { title: body } }));
    if (pick > 0.95) {
      // An invalid byte inside the string (decoded as U+FFFD), and a lead byte cut short.
      const bad = new Uint8Array(line.length + 2);
      const cut = line.length - 4;
      bad.set(line.subarray(0, cut));
      bad.set([0xff, 0xe2], cut);
      bad.set(line.subarray(cut), cut + 2);
      lines.push(bad);
    } else lines.push(line);
  }
  const total = lines.reduce((n, l) => n + l.length + 1, 0);
  const bytes = new Uint8Array(total);
  let o = 0;
  for (const l of lines) { bytes.set(l, o); o += l.length; bytes[o++] = 10; }
  return { bytes, lines };
}

describe('line byte ranges', () => {
  for (const [seed, chunk] of [[1, 1 << 20], [2, 65536], [3, 40_000], [4, 32768], [5, 7919]] as const) {
    it(`are each line's exact bytes (seed ${seed}, ${chunk}-byte chunks)`, async () => {
      const { bytes, lines } = logBytes(random(seed));
      const pieces = function* () { for (let o = 0; o < bytes.length; o += chunk) yield bytes.subarray(o, o + chunk); };
      const ranges: [number, number][] = [];
      const read = await readLog(pieces(), { lines: new LineStore(true), retainEvents: false, onEvent: (a) => void ranges.push([a.start, a.end]) });
      expect(read.diagnostics.filter((d) => d.code.startsWith('row.'))).toEqual([]);
      expect(ranges.length).toBe(lines.length - 1);
      let at = lines[0].length + 1;
      ranges.forEach(([start, end], i) => {
        expect([start, end]).toEqual([at, at + lines[i + 1].length]);
        at = end + 1;
      });
    });
  }

  it('are exact after a slice that ends inside a broken sequence (the next slice then decodes one character more)', async () => {
    // Byte 32767, the last of the first 32 KiB slice, is a lone lead byte: the decoder writes its U+FFFD
    // at the start of the next slice's text. With one two-byte character in that slice, its text has as
    // many characters as the slice has bytes, yet they are not one for one.
    const header = encoder.encode(JSON.stringify({ type: 'session', version: 0, id: 's', createdAt: 0 }) + '\n');
    const open = encoder.encode('{"type":"session/title","seq":0,"time":0,"data":{"title":"');
    const pad = 32767 - header.length - open.length;
    const first = new Uint8Array([...open, ...encoder.encode('x'.repeat(pad)), 0xe2, ...encoder.encode('"}}')]);
    expect(header.length + open.length + pad).toBe(32767);
    const rest: Uint8Array[] = [first];
    for (let seq = 1; seq < 90; seq++) rest.push(encoder.encode(JSON.stringify({ type: 'session/title', seq, time: seq, data: { title: seq === 40 ? 'caf\u00e9' : 'y'.repeat(300) } })));
    const bytes = new Uint8Array([...header, ...rest.flatMap((l) => [...l, 10])]);
    const ranges: [number, number][] = [];
    await readLog([bytes], { lines: new LineStore(true), retainEvents: false, onEvent: (a) => void ranges.push([a.start, a.end]) });
    let at = header.length;
    expect(ranges.length).toBe(rest.length);
    ranges.forEach(([start, end], i) => {
      expect([start, end]).toEqual([at, at + rest[i].length]);
      at = end + 1;
    });
  });

  it('are exact with a byte-order mark, CRLF endings and lines that cross 1-, 3- and 5-byte chunks', async () => {
    // The scan starts a line's length in characters past its start: a BOM (3 bytes, 1 character), a
    // CR kept in the line, pairs (4 bytes, 2 units) and 3-byte characters must each land it short of the newline.
    const rows = ['\ufeff' + JSON.stringify({ type: 'session', version: 0, id: 's', createdAt: 0 })];
    for (let seq = 0; seq < 40; seq++) rows.push(JSON.stringify({ type: 'session/title', seq, time: seq, data: { title: ['a', '😀', '€x', 'é'.repeat(seq)][seq % 4] } }) + (seq % 3 === 0 ? '\r' : ''));
    const encoded = rows.map((r) => encoder.encode(r));
    const bytes = new Uint8Array(encoded.reduce((n, l) => n + l.length + 1, 0));
    let o = 0;
    for (const l of encoded) { bytes.set(l, o); o += l.length; bytes[o++] = 10; }
    for (const chunk of [1, 3, 5]) {
      const pieces = function* () { for (let p = 0; p < bytes.length; p += chunk) yield bytes.subarray(p, p + chunk); };
      const ranges: [number, number][] = [];
      const read = await readLog(pieces(), { lines: new LineStore(true), retainEvents: false, onEvent: (a) => void ranges.push([a.start, a.end]) });
      expect(read.diagnostics.filter((d) => d.code.startsWith('row.'))).toEqual([]);
      let at = encoded[0].length + 1;
      expect(ranges.length).toBe(rows.length - 1);
      ranges.forEach(([start, end], i) => {
        expect([start, end]).toEqual([at, at + encoded[i + 1].length]);
        at = end + 1;
      });
    }
  });
});
