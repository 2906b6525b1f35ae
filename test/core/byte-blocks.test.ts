import { describe, expect, it } from 'vitest';
import { ByteBlocks } from '../../src/core/log/byte-blocks.ts';
import { LineStore } from '../../src/core/log/line-store.ts';
import { ReusedBytes } from '../../src/core/log/reused-bytes.ts';
import { mulberry32 } from '../../src/core/generate/prng.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { zstdRawFrame } from '../../src/core/fuzz/encode.ts';
import { bytesReadBack } from '../../src/core/log/read-back.ts';
import { readLog } from '../../src/core/log/reader.ts';
import { concatBytes } from '../../src/core/util/bytes.ts';
import { pieces } from '../stream/equivalence.ts';

describe('copies of reused bytes', () => {
  it('a copy keeps its bytes until it is released, whatever is copied and released around it', () => {
    const rand = mulberry32(7);
    const blocks = new ByteBlocks(256, 2);
    const live: { view: Uint8Array; expected: Uint8Array }[] = [];
    const buffers = new Set<ArrayBufferLike>();
    const intact = () => live.every(({ view, expected }) => view.length === expected.length && view.every((b, i) => b === expected[i]));
    let copies = 0;
    for (let step = 0; step < 5000; step++) {
      if (live.length > 12 || (live.length && rand() < 0.45)) {
        // Released mostly in order, as a log's lines are let go, sometimes out of it.
        const at = rand() < 0.8 ? 0 : Math.floor(rand() * live.length);
        blocks.release(live.splice(at, 1)[0].view);
      } else {
        const expected = Uint8Array.from({ length: 1 + Math.floor(rand() * 100) }, () => Math.floor(rand() * 256));
        const view = blocks.copy(expected);
        copies++;
        buffers.add(view.buffer);
        live.push({ view, expected });
      }
      if (!intact()) throw new Error(`a live copy changed at step ${step}`);
    }
    // Written again, not a new block per copy: a few blocks for thousands of copies.
    expect(copies).toBeGreaterThan(2000);
    expect(buffers.size).toBeLessThan(copies / 10);
  });

  it('blocks let go a frame at a time are written again, not left for the collector', () => {
    // A zstd frame of about 245 KB (the bench's raw frames of 500 lines) is copied in 64 KiB pieces, and
    // its lines are let go together once the scan is 256 KiB past them: four blocks come back at once.
    const blocks = new ByteBlocks();
    const piece = new Uint8Array(blocks.blockBytes).fill(7);
    const held: Uint8Array[] = [];
    const buffers = new Set<ArrayBufferLike>();
    let mostHeld = 0;
    for (let frame = 0; frame < 200; frame++) {
      for (let k = 0; k < 4; k++) {
        const view = blocks.copy(piece);
        buffers.add(view.buffer);
        held.push(view);
      }
      mostHeld = Math.max(mostHeld, blocks.blockCount);
      // Keep the last 256 KiB (four pieces) behind the frame being read.
      while (held.length > 8) blocks.release(held.shift()!);
    }
    // Every buffer ever made was one held at some moment: no new block per frame.
    expect(buffers.size).toBeLessThanOrEqual(mostHeld);
    expect(buffers.size).toBeLessThan(16);
  });

  it('bytes that are not a copy are left alone when released; a copy bigger than a block is refused', () => {
    const blocks = new ByteBlocks(16, 1);
    const other = new Uint8Array([1, 2, 3]);
    blocks.release(other);
    expect(other).toEqual(new Uint8Array([1, 2, 3]));
    expect(() => blocks.copy(new Uint8Array(17))).toThrow(RangeError);
  });

  it('the line store keeps reused bytes as copies: what the source writes next does not reach its lines', () => {
    const lines = new LineStore(true);
    const arena = new ReusedBytes(200_000);
    const enc = new TextEncoder();
    const texts = ['{"a":1}\n{"b":"', 'x'.repeat(150_000) + '"}\n', '{"c":3}\n'];
    let at = 0;
    const ranges: [number, number][] = [];
    for (const t of texts) {
      const bytes = enc.encode(t);
      arena.set(bytes);
      lines.add(arena.subarray(0, bytes.length));
      // The source writes its arena again, as the zstd decoder does after a hand-on.
      arena.fill(0x7a);
      at += bytes.length;
    }
    const all = texts.join('');
    for (let nl = all.indexOf('\n'), start = 0; nl >= 0; start = nl + 1, nl = all.indexOf('\n', start)) {
      lines.nextLine();
      ranges.push([lines.lastStart, lines.lastEnd]);
      expect(lines.text(lines.lastStart, lines.lastEnd)).toBe(all.slice(start, nl));
    }
    expect(ranges.length).toBe(3);
    expect(lines.byteLength).toBe(at);
  });

  it('a zstd log read with its lines read back from the file cycles through a few blocks of copies', async () => {
    const text = generateLog({ dialect: 'v0', seed: 5, turns: 60, stepsPerTurn: 4 }).text;
    const lines = text.split('\n');
    const enc = new TextEncoder();
    // A frame per batch of 12 lines, each declaring its size (decoded whole, into the arena).
    const frames: Uint8Array[] = [];
    for (let i = 0; i < lines.length - 1; i += 12) frames.push(zstdRawFrame(enc.encode(lines.slice(i, Math.min(i + 12, lines.length - 1)).join('\n') + '\n')));
    const bytes = concatBytes(frames);
    const store = new LineStore(true);
    let most = 0;
    const read = await readLog(pieces(bytes, 65_536), { lines: store, readBack: bytesReadBack(bytes), onProgress: () => { most = Math.max(most, store.copyBlocks); } });
    expect(read.events.length).toBeGreaterThan(1000);
    expect(read.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    // Blocks of 64 KiB: the log needs dozens of them, a few at a time are in use.
    const decoded = enc.encode(text).length;
    expect(decoded / 65_536).toBeGreaterThan(20);
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(10);
    // Read to its end, what the file gives back is let go and no spare is kept.
    expect(store.copyBlocks).toBeLessThanOrEqual(1);
  });
});
