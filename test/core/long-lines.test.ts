import { describe, expect, it } from 'vitest';
import { LineStore } from '../../src/core/log/line-store.ts';
import { readLog, readLogText } from '../../src/core/log/reader.ts';
import type { ReadResult } from '../../src/core/log/types.ts';
import { loadSession } from '../../src/core/session/stream-load.ts';
import { assistantData, chunked, events, header, jsonl, userMessage } from '../helpers/log-builder.ts';

/**
 * Lines longer than the reader's limit (issue #18): skipped as they stream
 * in, never joined into one string, reported with line, byte offset and
 * size; everything after them reads as if they were not there.
 */
const LIMIT = 1000;
const enc = new TextEncoder();

const turn = (t: number, from: number) => events(
  ['turn/start', { turn: t }],
  ['step/start', { turn: t, step: 1 }],
  ['user/message', userMessage(`u${t}`, `héllo — ✓ ${t}`), { surfaceOp: 'append' }],
  ['assistant/message', assistantData(`a${t}`, 'hi', t), { surfaceOp: 'append', sourceEventSeqs: [] }],
  ['step/end', { turn: t, step: 1 }],
  ['turn/end', { turn: t, reason: { kind: 'completed' } }],
).map((row) => ({ ...row, seq: (row.seq as number) + from, time: (row.time as number) + from }));

/** A user/message whose text runs to `chars` characters (a writer that never stopped). */
const longMessage = (seq: number, chars: number) =>
  JSON.stringify({ type: 'user/message', seq, time: 5000, surfaceOp: 'append', data: userMessage(`long${seq}`, 'ä'.repeat(chars)) });

const head = jsonl([header(), ...turn(1, 0)]);
const middle = longMessage(6, 5 * LIMIT);
const second = jsonl(turn(2, 7));
const last = longMessage(13, 3 * LIMIT);
/** The same log without the long lines: what every other event must equal. */
const without = head + second;

const view = (r: ReadResult) => r.events.map((e) => JSON.stringify(e));

describe('lines over the line limit', () => {
  const variants = [
    { name: 'the last long line ends with a newline', text: head + middle + '\n' + second + last + '\n', lastRows: 1 },
    { name: 'the last long line is a partial last line', text: head + middle + '\n' + second + last, lastRows: 0 },
  ];
  for (const v of variants) {
    it(`skips a long line in the middle and one at the end: ${v.name}`, async () => {
      const reference = readLogText(without);
      const reads = [
        readLogText(v.text, { maxLineChars: LIMIT }),
        ...(await Promise.all([7, 100, 999, 4096, 1 << 20].map((size) => readLog(chunked(enc.encode(v.text), size), { maxLineChars: LIMIT })))),
      ];
      const middleOffset = enc.encode(head).length;
      const lastOffset = enc.encode(head + middle + '\n' + second).length;
      for (const r of reads) {
        // Every other event as in the log without the long lines; only line numbers after the first one move.
        expect(view(r)).toEqual(view(reference));
        expect(r.origins.map((o) => o.line)).toEqual(reference.origins.map((o) => (o.line > 7 ? o.line + 1 : o.line)));
        const long = r.diagnostics.find((d) => d.code === 'row.too-long');
        expect(long).toMatchObject({ line: 8, severity: 'error', refuses: true });
        expect(long?.message).toContain(`${enc.encode(middle).length} bytes from byte ${middleOffset}`);
        // The one at the end is not committed by a later turn/end: a torn tail that names it.
        const torn = r.diagnostics.find((d) => d.code === 'tail.torn');
        expect(torn?.line).toBe(15);
        expect(torn?.message).toContain(`line 15 (${enc.encode(last).length} bytes from byte ${lastOffset}) too long to read`);
        expect(r.tornTail).toMatchObject({ rows: v.lastRows, bytes: enc.encode(last).length + v.lastRows });
        expect(r.rejectedRows).toEqual([{ line: 8, text: '', unreadBytes: enc.encode(middle).length }]);
        expect(r.diagnostics.filter((d) => d.code === 'row.too-long')).toHaveLength(1);
        // Readers that differ only in chunking agree on everything.
        expect(JSON.stringify(r.diagnostics)).toBe(JSON.stringify(reads[0].diagnostics));
        expect(r.scan).toEqual(reads[0].scan);
      }
    });
  }

  it('gives the streaming load (events re-parsed from their byte ranges) the same events', async () => {
    const text = head + middle + '\n' + second + last + '\n';
    const reference = readLogText(without);
    const session = await loadSession(chunked(enc.encode(text), 333), { maxLineChars: LIMIT });
    const streamed = Array.from({ length: session.loggedCount }, (_, i) => JSON.stringify(session.events.at(i)));
    expect(streamed).toEqual(view(reference));
    expect(session.diagnostics.map((d) => d.code)).toEqual(expect.arrayContaining(['row.too-long', 'tail.torn']));
  });

  it('leaves a line just at the limit alone', () => {
    const line = JSON.stringify({ type: 'x/pad', ignorable: true, seq: 6, time: 1, data: '' });
    const padded = line.replace('"data":""', `"data":"${'p'.repeat(LIMIT - line.length)}"`);
    expect(padded.length).toBe(LIMIT);
    const r = readLogText(head + padded + '\n', { maxLineChars: LIMIT });
    expect(r.events).toHaveLength(7);
    expect(r.diagnostics.map((d) => d.code)).not.toContain('row.too-long');
  });

  it('reports a first line too long to read as the missing header, and reads the rest', () => {
    const text = JSON.stringify({ ...header(), pad: 'x'.repeat(2 * LIMIT) }) + '\n' + jsonl(turn(1, 0));
    const r = readLogText(text, { maxLineChars: LIMIT });
    expect(r.header).toBeNull();
    expect(r.diagnostics.find((d) => d.code === 'row.too-long')).toMatchObject({ line: 1 });
    expect(r.diagnostics.map((d) => d.code)).toContain('header.missing');
    expect(r.events).toHaveLength(6);
  });

  it('lets go of the bytes of a long line as they stream in, never holding it', async () => {
    // A header and one 40 MB line with no newline, in 64 KiB chunks, against a 1 MiB limit.
    const size = 40 << 20;
    const prefix = enc.encode(JSON.stringify(header()) + '\n{"type":"user/message","seq":0,"time":1,"data":{"text":"');
    const source = (async function* () {
      yield prefix;
      const piece = new Uint8Array(1 << 16).fill(0x61);
      for (let sent = 0; sent < size; sent += piece.length) yield piece;
    })();
    const lines = new LineStore(true);
    let held = 0;
    const r = await readLog(source, { lines, maxLineChars: 1 << 20, onProgress: () => { held = Math.max(held, lines.heldBytes); } });
    expect(r.header?.id).toBe('test-session');
    expect(held).toBeLessThan(2 << 20);
    expect(r.tornTail?.bytes).toBe(prefix.length - enc.encode(JSON.stringify(header()) + '\n').length + size);
    expect(r.diagnostics.find((d) => d.code === 'tail.torn')?.message).toMatch(/line 2 \(\d+ bytes from byte \d+\) too long to read/);
  });
});
