import { describe, expect, it } from 'vitest';
import { Decompress } from 'fzstd';
import { zstdFrame, zstdRawFrame } from '../../src/core/fuzz/encode.ts';
import { MAX_ZSTD_BLOCK, ZstdFrameWalker } from '../../src/core/log/zstd-walk.ts';

/**
 * The zstd reader hands the decoder pieces of at most 64 blocks (issue #15:
 * 256-byte pieces cost 7% of a zstd log's load in the decoder's per-push
 * work). Whatever the pieces, a push's output stays within 64 blocks plus
 * the one in progress, the pieces cover the input exactly, and a limit is
 * found where the byte-by-byte walk finds it.
 */
function pieces(bytes: Uint8Array, chunk: number, maxBlocks = 64): Uint8Array[] {
  const walker = new ZstdFrameWalker();
  const out: Uint8Array[] = [];
  for (let c = 0; c < bytes.length; c += chunk) {
    const part = bytes.subarray(c, c + chunk);
    for (let o = 0; o < part.length; ) {
      const { used, fault } = walker.take(part.subarray(o), maxBlocks, 256);
      expect(fault).toBeNull();
      expect(used).toBeGreaterThan(0);
      out.push(part.subarray(o, o + used));
      o += used;
    }
  }
  return out;
}

function outputPerPush(parts: Uint8Array[]): number[] {
  let produced = 0;
  const d = new Decompress((data) => { produced += data.length; });
  return parts.map((p, k) => { produced = 0; d.push(p, k === parts.length - 1); return produced; });
}

describe('zstd pieces for the decoder', () => {
  it('bound the output of RLE blocks (a few bytes each, 128 KiB out) to 64 blocks a push', () => {
    const bomb = zstdFrame([{ repeat: 0x41, count: 300 * MAX_ZSTD_BLOCK }]);
    for (const chunk of [bomb.length, 1000, 7]) {
      const parts = pieces(bomb, chunk);
      expect(parts.reduce((n, p) => n + p.length, 0)).toBe(bomb.length);
      const out = outputPerPush(parts);
      expect(out.reduce((a, b) => a + b, 0)).toBe(300 * MAX_ZSTD_BLOCK);
      expect(Math.max(...out)).toBeLessThanOrEqual(65 * MAX_ZSTD_BLOCK);
    }
  });

  it('give ordinary blocks in long pieces, and the same text', () => {
    const text = new TextEncoder().encode('{"type":"x"}\n'.repeat(40_000));
    const frame = zstdRawFrame(text);
    const parts = pieces(frame, frame.length);
    // 520 KB of raw blocks: a handful of pushes, not two thousand 256-byte ones.
    expect(parts.length).toBeLessThan(5);
    const chunks: Uint8Array[] = [];
    const d = new Decompress((data) => { chunks.push(data); });
    parts.forEach((p, k) => d.push(p, k === parts.length - 1));
    expect(Buffer.concat(chunks).equals(Buffer.from(text))).toBe(true);
  });

  it('stop at a frame whose window is over the limit, keeping what the byte walk keeps', () => {
    const good = zstdRawFrame(new TextEncoder().encode('ok\n'));
    const huge = zstdFrame([{ repeat: 1, count: 10 }], { windowLog: 31 });
    const bytes = new Uint8Array([...good, ...huge]);
    const byFeed = new ZstdFrameWalker().feed(bytes);
    // Pieces end with their frame: the good frame is one piece, the fault is found in the next.
    const walker = new ZstdFrameWalker();
    const first = walker.take(bytes, 64, 256);
    expect(first).toEqual({ used: good.length, fault: null, frame: { start: 0, end: good.length, skippable: false, contentSize: 3, plainBlockBytes: 3, compressedBlocks: 0 } });
    const byTake = walker.take(bytes.subarray(first.used), 64, 256);
    expect(byFeed).not.toBeNull();
    expect(byTake.fault).toEqual({ ...byFeed, keep: byFeed!.keep - good.length });
    expect(byTake.fault!.keep).toBe(0);
  });

  it('end a piece where a frame ends, saying where it lay (the zstd read-back indexes frames by it)', () => {
    const frames = [zstdRawFrame(new TextEncoder().encode('{"a":1}\n'.repeat(50))), zstdRawFrame(new TextEncoder().encode('{"b":2}\n'))];
    const bytes = new Uint8Array([...frames[0], ...frames[1]]);
    const walker = new ZstdFrameWalker();
    // Fed in two chunks that cut the first frame: its end is said by the piece that reaches it.
    const a = walker.take(bytes.subarray(0, 100), 64, 256);
    expect(a).toMatchObject({ used: 100, frame: null });
    const b = walker.take(bytes.subarray(100), 64, 256);
    expect(b.used).toBe(frames[0].length - 100);
    expect(b.frame).toEqual({ start: 0, end: frames[0].length, skippable: false, contentSize: 400, plainBlockBytes: 400, compressedBlocks: 0 });
    const c = walker.take(bytes.subarray(frames[0].length), 64, 256);
    expect(c.frame).toEqual({ start: frames[0].length, end: bytes.length, skippable: false, contentSize: 8, plainBlockBytes: 8, compressedBlocks: 0 });
  });
});
