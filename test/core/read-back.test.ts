import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BlockCache } from '../../src/core/log/read-back.ts';
import { KEEP_BEHIND, LineStore } from '../../src/core/log/line-store.ts';
import { readLog } from '../../src/core/log/reader.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { pathReadBack } from '../../src/cli/node-source.ts';
import { bytesReadBack, pieces } from '../stream/equivalence.ts';
import { Engine } from '../../src/worker/engine.ts';
import { loadRiders } from '../../src/worker/load-riders.ts';
import { loadSession } from '../../src/core/session/stream-load.ts';
import type { EventStore } from '../../src/core/log/event-store.ts';
import type { Request } from '../../src/worker/operations.ts';
import type { Response } from '../../src/worker/protocol.ts';

/** Bytes 0…n-1 with a pattern that shows any offset error. */
const patterned = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + (i >> 8)) & 0xff);

describe('reading a file back in blocks', () => {
  const bytes = patterned(10_000);

  it('gives the bytes of any range, across blocks and at the end of the file', () => {
    const cache = new BlockCache(bytesReadBack(bytes), 256, 16);
    for (const [a, b] of [[0, 1], [0, 256], [255, 257], [100, 1900], [9_990, 10_000], [5_000, 5_000], [1_234, 3_210]]) {
      expect([...cache.read(a, b)]).toEqual([...bytes.subarray(a, b)]);
    }
  });

  it('reads neighbouring lines once, and the missing blocks of a range in one read', () => {
    const file = bytesReadBack(bytes);
    const cache = new BlockCache(file, 256, 16);
    cache.read(10, 20);
    cache.read(30, 200);
    expect(file.reads).toBe(1);
    // Blocks 0 and 3 are present: 1 and 2 come in one read, 3 is not read again.
    cache.read(900, 1000);
    cache.read(0, 1000);
    expect(file.reads).toBe(3);
  });

  it('keeps the recently used blocks only, and reads a range longer than half of them whole', () => {
    const file = bytesReadBack(bytes);
    // No read-ahead here (no scan reads): one block a read.
    const cache = new BlockCache(file, 256, 4, 1, 1);
    for (let b = 0; b < 6; b++) cache.read(b * 256, b * 256 + 10);
    expect(file.reads).toBe(6);
    cache.read(5 * 256, 5 * 256 + 1); // still kept
    expect(file.reads).toBe(6);
    cache.read(0, 1); // let go
    expect(file.reads).toBe(7);
    expect([...cache.read(100, 1000)]).toEqual([...bytes.subarray(100, 1000)]);
    expect([...cache.read(100, 1000)]).toEqual([...bytes.subarray(100, 1000)]);
    expect(file.reads).toBe(9);
  });
});

describe('reading ahead on a scan', () => {
  const bytes = patterned(100_000);

  it('reads more a round trip the longer reads go on in order, one block for a read elsewhere', () => {
    const sizes: number[] = [];
    const inner = bytesReadBack(bytes);
    const file = { size: inner.size, read: (a: number, b: number) => { sizes.push(b - a); return inner.read(a, b); } };
    const cache = new BlockCache(file, 256, 64, 4, 32);
    // Lines of 100 bytes, in order, over the whole file: a block, then a scan that reads 4, 8, 16
    // and then 32 blocks at a time (a read starts at the block of the line it is for), to the end.
    // A look back at a kept block now and then reads nothing and leaves the scan as it was.
    for (let at = 0; at + 100 <= bytes.length; at += 100) {
      expect([...cache.read(at, at + 100)]).toEqual([...bytes.subarray(at, at + 100)]);
      if (at % 5_000 === 0) expect([...cache.read(10, 20)]).toEqual([...bytes.subarray(10, 20)]);
    }
    const blocks = sizes.map((n) => Math.ceil(n / 256));
    expect(blocks.slice(0, 5)).toEqual([1, 4, 8, 16, 32]);
    expect(blocks.slice(5, -1).every((n) => n === 32)).toBe(true);
    expect(blocks.at(-1)).toBeLessThanOrEqual(32);
    // Each scan read overlaps the one before by at most the block a line straddled.
    expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(bytes.length + 256 * sizes.length);
    // A read elsewhere starts over: one block, then 4 a read again.
    const before = sizes.length;
    cache.read(10_000, 10_010);
    cache.read(10_240, 10_250);
    expect(sizes.slice(before).map((n) => Math.ceil(n / 256))).toEqual([1, 4]);
    // Reads far apart (a lookup of an earlier line) read their own block only.
    const scattered = bytesReadBack(bytes);
    let bytesRead = 0;
    const far = new BlockCache({ size: scattered.size, read: (a: number, b: number) => { bytesRead += b - a; return scattered.read(a, b); } }, 256, 64, 8);
    for (const at of [50_000, 10_000, 90_000, 30_000, 70_000]) far.read(at, at + 10);
    expect(scattered.reads).toBe(5);
    expect(bytesRead).toBe(5 * 256);
  });
});

describe('a plain log read back from its file', () => {
  const text = generateLog({ dialect: 'v0', seed: 21, turns: 30 }).text;
  const bytes = new TextEncoder().encode(text);

  it('holds no chunk past its scan, and reads every line back as it was', async () => {
    const lines = new LineStore(true);
    let held = 0;
    let saidReadBack = false;
    const read = await readLog(pieces(bytes, 4096), { lines, readBack: bytesReadBack(bytes), onProgress: (p) => { held = Math.max(held, lines.heldBytes); saidReadBack ||= p.readBack === true; } });
    // The progress says so: the memory estimate then counts none of the log's bytes.
    expect(saidReadBack).toBe(true);
    expect(bytes.length).toBeGreaterThan(100_000);
    // At most the bytes kept behind the scan for the load's look-backs, the chunk being scanned and the one just pushed.
    expect(held).toBeLessThanOrEqual(KEEP_BEHIND + 2 * 4096);
    // After the load, none: the file gives every line back.
    expect(lines.heldBytes).toBe(0);
    const kept = new LineStore(true);
    saidReadBack = false;
    await readLog(pieces(bytes, 4096), { lines: kept, onProgress: (p) => { saidReadBack ||= p.readBack === true; } });
    expect(kept.heldBytes).toBe(bytes.length);
    expect(saidReadBack).toBe(false);
    const ends = text.split('\n');
    let at = 0;
    for (const line of ends.slice(0, read.events.length)) {
      expect(lines.text(at, at + new TextEncoder().encode(line).length)).toBe(line);
      at += new TextEncoder().encode(line).length + 1;
    }
  });

  it('lets a big chunk go once the scan is far enough into the next, not when a third comes', async () => {
    // A browser hands a busy worker a File's bytes in chunks of up to 2 MiB, far more than the bytes kept behind the scan.
    const chunk = 4 * KEEP_BEHIND;
    const big = new TextEncoder().encode(generateLog({ dialect: 'v0', seed: 22, turns: 700 }).text);
    expect(big.length).toBeGreaterThan(3 * chunk);
    const lines = new LineStore(true);
    let held = 0;
    await readLog(pieces(big, chunk), { lines, readBack: bytesReadBack(big), onProgress: () => { held = Math.max(held, lines.heldBytes); } });
    // Once a chunk is scanned: that chunk and the lines of the open one; the chunk before it is gone.
    expect(held).toBeLessThanOrEqual(chunk + 64 * 1024);
  });

  it('a file that shrank after it was opened says so', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-read-back-'));
    const file = path.join(dir, 'log.jsonl');
    try {
      fs.writeFileSync(file, bytes);
      const reader = pathReadBack(file);
      expect([...reader.read(5, 50)]).toEqual([...bytes.subarray(5, 50)]);
      fs.writeFileSync(file, bytes.subarray(0, 100));
      expect(() => reader.read(50, 500)).toThrow(/shorter than when it was opened/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the lines a load looks back at', () => {
  it('are read from the bytes kept behind the scan, not from the file, and the file gives them back after the load', async () => {
    // Compactions: each one's prefix analysis reads the messages the call before it sent.
    const text = generateLog({ dialect: 'v4', seed: 23, turns: 120, compactEvery: 3 }).text;
    const bytes = new TextEncoder().encode(text);
    expect(bytes.length).toBeGreaterThan(8 * KEEP_BEHIND);
    // The load as the worker does it: the walk with the prompt and request analysis riding on it.
    const readsWhileLoading = async (keepBehind?: number) => {
      const file = bytesReadBack(bytes);
      let store: EventStore | null = null;
      let held = 0;
      const session = await loadSession(pieces(bytes, 65536), {
        readBack: file, keepBehind,
        riders: (meta, s) => { store = s; return loadRiders(meta, bytes.length, s).visitors; },
        onProgress: () => { held = Math.max(held, (store as unknown as { lines: LineStore } | null)?.lines.heldBytes ?? 0); },
      });
      return { reads: file.reads, held, file, session, lines: (store as unknown as { lines: LineStore }).lines };
    };
    // Without a window the look-backs each read the file.
    const unkept = (await readsWhileLoading(0)).reads;
    expect(unkept).toBeGreaterThan(10);
    const { reads, held, file, session, lines } = await readsWhileLoading();
    // With it, hardly any (33 → 1 here: what lies further back, or is read once the read has ended).
    expect(reads).toBeLessThanOrEqual(unkept / 10);
    expect(held).toBeLessThanOrEqual(KEEP_BEHIND + 2 * 65536);
    expect(lines.heldBytes).toBe(0);
    // After the load the lines come from the file, as they were.
    const start = bytes.indexOf(10, bytes.length >> 1) + 1;
    const end = bytes.indexOf(10, start);
    expect(lines.text(start, end)).toBe(new TextDecoder().decode(bytes.subarray(start, end)));
    expect(file.reads).toBe(reads + 1);
    expect(session.loggedCount).toBeGreaterThan(0);
  });
});

describe('a line skipped as too long inside the look-back window', () => {
  it('lets no line around it be read wrong, during the load or after it', async () => {
    const lines = generateLog({ dialect: 'v0', seed: 24, turns: 30, compactEvery: 3 }).text.split('\n');
    // A 60 KB row (not JSON the reader keeps: too long) in the middle, across several 4 KiB chunks.
    const at = lines.length >> 1;
    const text = [...lines.slice(0, at), `{"pad":"${'x'.repeat(60_000)}"}`, ...lines.slice(at)].join('\n');
    const bytes = new TextEncoder().encode(text);
    const eager = await readLog(pieces(bytes, 1 << 20), { maxLineChars: 10_000 });
    const file = bytesReadBack(bytes);
    const streamed = await loadSession(pieces(bytes, 4096), { readBack: file, maxLineChars: 10_000, cacheSize: 16 });
    expect(streamed.diagnostics.some((d) => /long|skipped/i.test(d.message))).toBe(true);
    expect(streamed.loggedCount).toBe(eager.events.length);
    for (let i = streamed.loggedCount - 1; i >= 0; i--) expect(streamed.events.at(i), `event ${i}`).toEqual(eager.events[i]);
  });
});

describe('the engine when the file can no longer be read back', () => {
  it('says so once, with the answer that met it, and keeps answering', async () => {
    const text = generateLog({ dialect: 'v4', seed: 22, turns: 200 }).text;
    const bytes = new TextEncoder().encode(text);
    let gone = false;
    const file = bytesReadBack(bytes);
    const engine = new Engine({
      readBack: () => ({ size: file.size, read: (a, b) => { if (gone) throw new Error('the file changed on disk after it was opened'); return file.read(a, b); } }),
    });
    const answers: Response[] = [];
    let id = 0;
    const ask = (req: Record<string, unknown>) => engine.handle({ id: ++id, ...req } as unknown as Request, (msg) => { if (!('progress' in (msg as object))) answers.push(msg as Response); });
    await ask({ op: 'load', source: { kind: 'file', file: new Blob([bytes]), name: 'log.jsonl' } });
    expect(answers.at(-1)).toMatchObject({ ok: true });
    expect(answers.at(-1)).not.toHaveProperty('lost');
    gone = true;
    // Events far apart, not in the parsed-event cache (a share of a 6 MB log) nor in the 2 MiB of blocks read last: each needs its line again.
    const count = (answers.at(-1) as { result: { count: number } }).result.count;
    for (const index of [1, Math.floor(count / 3), Math.floor(count / 2)]) await ask({ op: 'event', index });
    const lost = answers.filter((a) => 'lost' in a && a.lost);
    expect(lost).toHaveLength(1);
    expect((lost[0] as { lost: string }).lost).toMatch(/^log\.jsonl: the file changed on disk/);
    // Every query was answered (the ones that met the lost file with an error), none hangs.
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3, 4]);
  });
});
