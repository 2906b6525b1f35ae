import { describe, expect, it } from 'vitest';
import { zstdRawFrame } from '../../src/core/fuzz/encode.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { KEEP_BEHIND, LineStore } from '../../src/core/log/line-store.ts';
import { readLog } from '../../src/core/log/reader.ts';
import { concatBytes } from '../../src/core/util/bytes.ts';
import { bytesReadBack, expectStreamMatchesEager, pieces } from '../stream/equivalence.ts';

const enc = new TextEncoder();
const text = generateLog({ dialect: 'v4', seed: 41, turns: 40, imageOffload: true, compactEvery: 3 }).text;
const plain = enc.encode(text);

/** The log as zstd frames cut at these decoded offsets (DSH cuts at line ends; a writer may cut anywhere). */
function framed(cuts: number[], log = plain): Uint8Array {
  const at = [0, ...cuts.filter((c) => c > 0 && c < log.length), log.length];
  return concatBytes(at.slice(1).map((end, i) => zstdRawFrame(log.subarray(at[i], end))));
}

/** Offsets after every `n`-th line. */
function lineCuts(n: number, log = plain): number[] {
  const cuts: number[] = [];
  for (let i = 0, lines = 0; i < log.length; i++) if (log[i] === 10 && ++lines % n === 0) cuts.push(i + 1);
  return cuts;
}

/** The streaming load with lines read back from `bytes` equals the eager read; returns the file reads it made. */
async function readBackMatchesEager(bytes: Uint8Array, chunkSize: number): Promise<number> {
  const file = bytesReadBack(bytes);
  await expectStreamMatchesEager(bytes, chunkSize, file);
  return file.reads;
}

/** The most bytes the line store held while loading, and at the end. */
async function heldWhileLoading(bytes: Uint8Array): Promise<{ peak: number; end: number; readBackAll: boolean }> {
  const lines = new LineStore(true);
  let peak = 0;
  await readLog(pieces(bytes, 4096), { lines, readBack: bytesReadBack(bytes), onProgress: () => { peak = Math.max(peak, lines.heldBytes); } });
  return { peak, end: lines.heldBytes, readBackAll: lines.readsBackAll };
}

describe('a zstd log read back through its frames', () => {
  it('frames of whole lines: every event parsed again from the file, and no decoded bytes held', async () => {
    const bytes = framed(lineCuts(20));
    expect(await readBackMatchesEager(bytes, 4093)).toBeGreaterThan(0);
    const held = await heldWhileLoading(bytes);
    expect(plain.length).toBeGreaterThan(500_000);
    // The bytes kept behind the scan for the load's look-backs, and the decoded chunk being scanned
    // (a frame's output comes in pieces of up to a few blocks).
    expect(held.peak).toBeLessThan(KEEP_BEHIND + 300_000);
    expect(held.readBackAll).toBe(true);
  });

  it('frames cut inside lines: read back across frame ends', async () => {
    const cuts = Array.from({ length: 300 }, (_, i) => Math.floor((i + 1) * (plain.length / 301)) + (i % 7));
    const bytes = framed(cuts);
    expect(await readBackMatchesEager(bytes, 777)).toBeGreaterThan(0);
    expect((await heldWhileLoading(bytes)).readBackAll).toBe(true);
  });

  it('a frame of a few bytes (under the 18 fzstd waits for before it decodes) is indexed like the others', async () => {
    const cuts = lineCuts(20);
    const k = cuts.findIndex((c) => c > plain.length / 2);
    const bytes = framed([...cuts.slice(0, k), cuts[k] - 3, ...cuts.slice(k)]);
    expect(zstdRawFrame(plain.subarray(cuts[k] - 3, cuts[k])).length).toBeLessThan(18);
    expect(await readBackMatchesEager(bytes, 4093)).toBeGreaterThan(0);
    const held = await heldWhileLoading(bytes);
    expect(held.readBackAll).toBe(true);
    expect(held.end).toBe(0);
  });

  it('a frame too big to decode again for a line ends the run: from it on, the decoded bytes are kept', async () => {
    const log = enc.encode(generateLog({ dialect: 'v4', seed: 42, turns: 100 }).text);
    const cuts = lineCuts(20, log);
    // Frames of 20 lines up to a quarter of the log, one frame of the next ~1.1 MB, then small frames again.
    const quarter = cuts.findIndex((c) => c > log.length / 4);
    const big = cuts.findIndex((c) => c > cuts[quarter] + 1_100_000);
    expect(big).toBeGreaterThan(0);
    const bytes = framed([...cuts.slice(0, quarter + 1), ...cuts.slice(big)], log);
    expect(await readBackMatchesEager(bytes, 65536)).toBeGreaterThan(0);
    const held = await heldWhileLoading(bytes);
    expect(held.readBackAll).toBe(false);
    // What follows the run is held; what it covers is not.
    expect(held.end).toBeGreaterThan(log.length - cuts[quarter] - 8192);
    expect(held.end).toBeLessThan(log.length - cuts[quarter] + 8192);
  });

  it('the blocks of one frame decode it once', async () => {
    const bytes = framed([plain.length >> 1]);
    const file = bytesReadBack(bytes);
    const lines = new LineStore(true);
    await readLog(pieces(bytes, 65536), { lines, readBack: file });
    const before = file.reads;
    // Three blocks of the first frame, far apart: one read and one decode of it.
    for (const at of [0, 70_000, 300_000]) expect(lines.bytes(at, at + 100)).toEqual(plain.subarray(at, at + 100));
    expect(file.reads - before).toBe(1);
  });

  it('one frame for the whole log: its bytes are kept, nothing is read back', async () => {
    const bytes = zstdRawFrame(plain);
    expect(await readBackMatchesEager(bytes, 4093)).toBe(0);
  });

  it('a torn last frame: the lines before it are read back, the torn frame\'s kept', async () => {
    const whole = framed(lineCuts(50));
    const bytes = whole.subarray(0, whole.length - 300);
    expect(await readBackMatchesEager(bytes, 4093)).toBeGreaterThan(0);
  });

  it('a frame that no longer decodes to what was read says so', async () => {
    const bytes = framed(lineCuts(20));
    const told: string[] = [];
    // Read in full while loading, then the file ends early: its first frame reads short.
    let shrunk = false;
    const file = { size: bytes.length, read: (a: number, b: number) => bytes.slice(a, shrunk ? Math.min(b, 200) : b), failed: (m: string) => { told.push(m); } };
    const again = new LineStore(true);
    await readLog(pieces(bytes, 4096), { lines: again, readBack: file });
    shrunk = true;
    expect(() => again.text(0, 150)).toThrow(/changed on disk after it was opened/);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/zstd frame at byte 0 no longer decodes/);
  });
});
