import fs from 'node:fs';
import { decompress } from 'fzstd';
import { describe, expect, it, vi } from 'vitest';
import { zstdFrame, zstdRawFrame } from '../../src/core/fuzz/encode.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { decodeBytes, type DecodeInfo } from '../../src/core/log/bytes.ts';
import type { Diagnostic } from '../../src/core/diagnostics/diagnostic.ts';
import { concatBytes } from '../../src/core/util/bytes.ts';
import { ReusedBytes } from '../../src/core/log/reused-bytes.ts';
import { bytesReadBack, expectStreamMatchesEager, pieces } from '../stream/equivalence.ts';

/** Pushes into fzstd's streaming decoder, which the decoding avoids where a frame declares its size. */
const streamed = vi.hoisted(() => ({ pushes: 0 }));
vi.mock('fzstd', async (importOriginal) => {
  const real = await importOriginal<typeof import('fzstd')>();
  class Counted extends real.Decompress {
    override push(chunk: Uint8Array, final?: boolean): void {
      streamed.pushes++;
      super.push(chunk, final);
    }
  }
  return { ...real, Decompress: Counted };
});

/**
 * A generated log (generateLog v0, seed 15, 7 turns) compressed by the zstd CLI (v1.5.4, default
 * level, checksums) as DSH writes it: a frame per batch of 1-11 lines, most compressed from a file
 * (they declare their size), every sixth from standard input (they do not), and one batch of
 * over 128 KiB (a frame of several compressed blocks).
 */
const fixture = new Uint8Array(fs.readFileSync(new URL('../fixtures/batches.jsonl.zst', import.meta.url)));

/** `reuse`: as the reader asks for them, each chunk copied before the next is asked for (chunks may share one arena). */
async function decodeAll(bytes: Uint8Array, chunk: number, reuse = false): Promise<{ chunks: Uint8Array[]; diagnostics: Diagnostic[]; info: DecodeInfo; arenas: number }> {
  const diagnostics: Diagnostic[] = [];
  const info: DecodeInfo = { decodedBytes: 0 };
  const chunks: Uint8Array[] = [];
  const arenas = new Set<ArrayBufferLike>();
  for await (const c of decodeBytes(pieces(bytes, chunk), diagnostics, undefined, info, { reuse })) {
    if (c instanceof ReusedBytes) arenas.add(c.buffer);
    chunks.push(reuse ? c.slice() : c);
  }
  return { chunks, diagnostics, info, arenas: arenas.size };
}

const text = (chunks: Uint8Array[]) => new TextDecoder().decode(concatBytes(chunks));

describe('zstd frames decoded', () => {
  it('a log compressed as DSH writes it decodes to what a one-shot decode gives, however it is cut', async () => {
    const expected = new TextDecoder().decode(decompress(fixture));
    expect(expected.split('\n').length).toBeGreaterThan(300);
    for (const chunk of [1, 17, 4093, 65_536, fixture.length]) {
      const { chunks, diagnostics, info } = await decodeAll(fixture, chunk);
      expect(diagnostics).toEqual([]);
      expect(text(chunks)).toBe(expected);
      // Every frame is indexed for read-back, those that declare no size too.
      expect(info.frames!.covered).toBe(info.decodedBytes);
    }
  });

  it('decoded for a reader that copies what it keeps, whole frames share one arena and give the same bytes', async () => {
    const expected = new TextDecoder().decode(decompress(fixture));
    for (const chunk of [1, 17, 4093, 65_536, fixture.length]) {
      const { chunks, diagnostics, info, arenas } = await decodeAll(fixture, chunk, true);
      expect(diagnostics).toEqual([]);
      expect(text(chunks)).toBe(expected);
      expect(info.frames!.covered).toBe(info.decodedBytes);
      // Hundreds of whole frames, decoded into one or two arenas (it grows once for the frame over 128 KiB).
      expect(arenas).toBeGreaterThan(0);
      expect(arenas).toBeLessThanOrEqual(3);
    }
    // Without copying, a kept chunk is written over by later frames: the contract is real.
    const kept: Uint8Array[] = [];
    for await (const c of decodeBytes(pieces(fixture, 4093), [], undefined, undefined, { reuse: true })) kept.push(c);
    expect(text(kept)).not.toBe(expected);
  });

  it('the compressed log loads as its plaintext does, its lines read back through its frames', async () => {
    const file = bytesReadBack(fixture);
    await expectStreamMatchesEager(fixture, 4093, file);
    expect(file.reads).toBeGreaterThan(0);
  });

  it('a frame that declares its size is decoded whole; one that does not streams through the decoder', async () => {
    const log = new TextEncoder().encode(generateLog({ dialect: 'v0', seed: 3, turns: 20 }).text);
    const cut = (frame: (b: Uint8Array) => Uint8Array) => {
      const frames: Uint8Array[] = [];
      for (let o = 0; o < log.length; o += 2000) frames.push(frame(log.subarray(o, Math.min(log.length, o + 2000))));
      return concatBytes(frames);
    };
    for (const [bytes, streams] of [[cut(zstdRawFrame), false], [cut((b) => zstdFrame([b])), true]] as const) {
      for (const reuse of [false, true]) {
        streamed.pushes = 0;
        const { chunks, diagnostics } = await decodeAll(bytes, 65_536, reuse);
        expect(diagnostics).toEqual([]);
        expect(text(chunks)).toBe(new TextDecoder().decode(log));
        expect(streamed.pushes > 0).toBe(streams);
      }
    }
  });

  it('a frame whose blocks cannot make the size it declares gives what its blocks hold, not the declared size', async () => {
    const enc = new TextEncoder();
    // The header says 1 MiB; the one raw block holds 9 bytes.
    const lying = zstdRawFrame(enc.encode('{"b":2}\n\n'));
    new DataView(lying.buffer).setUint32(5, 1 << 20, true);
    const bytes = concatBytes([zstdRawFrame(enc.encode('{"a":1}\n')), lying, zstdRawFrame(enc.encode('{"c":3}\n'))]);
    const { chunks } = await decodeAll(bytes, 7);
    expect(text(chunks).startsWith('{"a":1}\n{"b":2}\n\n')).toBe(true);
    expect(concatBytes(chunks).length).toBeLessThan(1 << 20);
  });

  it('frames that declare no size stream between whole ones, in order; a torn last frame keeps its complete lines', async () => {
    const enc = new TextEncoder();
    const parts = ['{"a":1}\n', '{"b":2}\n', 'x\n', '{"c":3}\n{"d":'];
    const bytes = concatBytes([zstdRawFrame(enc.encode(parts[0])), zstdFrame([enc.encode(parts[1])]), zstdFrame([enc.encode(parts[2])]), zstdRawFrame(enc.encode(parts[3]))]);
    const torn = bytes.subarray(0, bytes.length - 3);
    for (const chunk of [1, 5, 64]) {
      for (const reuse of [false, true]) {
        expect(text((await decodeAll(bytes, chunk, reuse)).chunks)).toBe(parts.join(''));
        const cut = await decodeAll(torn, chunk, reuse);
        expect(text(cut.chunks)).toBe(parts.slice(0, 3).join(''));
        expect(cut.diagnostics.map((d) => d.code)).toEqual(['bytes.torn-frame']);
      }
    }
  });
});
