import { describe, expect, it } from 'vitest';
import { zstdBomb } from '../../src/core/fuzz/bomb.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { LoadStopped } from '../../src/core/log/load-stopped.ts';
import { estimateLoad, memoryBudget, LoadGuard } from '../../src/core/log/memory-budget.ts';
import { readLog, type ReadProgress } from '../../src/core/log/reader.ts';
import { Engine } from '../../src/worker/engine.ts';
import { memoryBudgetFromUrl } from '../../src/worker/memory.ts';
import type { Response } from '../../src/worker/protocol.ts';
import { chunked } from '../helpers/log-builder.ts';

/** Hostile sizes at the worker (issue #18): a log that will not fit is stopped with a finding, and the open log stays. */
const MiB = 2 ** 20;
const enc = new TextEncoder();

describe('the memory estimate', () => {
  const progress = (p: Partial<ReadProgress>): ReadProgress => ({ bytesIn: 0, lines: 0, events: 0, decodedBytes: 0, skippedBytes: 0, ...p });

  it('counts a file as at least its size before reading, then projects from what it has read', () => {
    expect(estimateLoad(1000 * MiB, null).decodedBytes).toBe(1000 * MiB);
    // A zstd file read 8 MiB in: 10× ratio, 70 bytes per event, nothing skipped.
    const zstd = estimateLoad(100 * MiB, progress({ bytesIn: 8 * MiB, decodedBytes: 80 * MiB, events: (80 * MiB) / 70 }));
    expect(zstd.decodedBytes).toBe(1000 * MiB);
    expect(zstd.events).toBe(Math.round((1000 * MiB) / 70));
    expect(zstd.neededBytes).toBeGreaterThan(zstd.decodedBytes + zstd.events * 100);
    // The same with nine tenths in lines too long to read: those bytes are never held.
    const skipped = estimateLoad(100 * MiB, progress({ bytesIn: 8 * MiB, decodedBytes: 80 * MiB, skippedBytes: 72 * MiB, events: (8 * MiB) / 70 }));
    expect(skipped.neededBytes).toBeLessThan(zstd.neededBytes / 5);
    // A plain file read back from disk: its events' state counts, its bytes do not.
    const plain = estimateLoad(1000 * MiB, progress({ bytesIn: 80 * MiB, decodedBytes: 80 * MiB, events: (80 * MiB) / 70 }));
    const readBack = estimateLoad(1000 * MiB, progress({ bytesIn: 80 * MiB, decodedBytes: 80 * MiB, events: (80 * MiB) / 70, readBack: true }));
    expect(plain.neededBytes - readBack.neededBytes).toBe(1000 * MiB);
    // The first megabytes say little: until then the file size alone counts.
    expect(estimateLoad(100 * MiB, progress({ bytesIn: 1000, decodedBytes: 50_000, events: 10 })).decodedBytes).toBe(100 * MiB);
  });

  it('takes the smaller of what the browser reports, and an explicit budget over both', () => {
    expect(memoryBudget({}).bytes).toBe(3 * 2 ** 30);
    expect(memoryBudget({ heapLimit: 4 * 2 ** 30, heapUsed: 2 ** 30 }).bytes).toBe(3 * 2 ** 30);
    expect(memoryBudget({ heapLimit: 4 * 2 ** 30, deviceMemoryGiB: 2 }).bytes).toBe(2 ** 30);
    expect(memoryBudget({ heapLimit: 4 * 2 ** 30, override: 5 * MiB }).bytes).toBe(5 * MiB);
    expect(memoryBudgetFromUrl('?url=x&memoryBudget=64')).toBe(64 * MiB);
    expect(memoryBudgetFromUrl('?memoryBudget=lots')).toBeUndefined();
    expect(memoryBudgetFromUrl(undefined)).toBeUndefined();
  });

  it('stops a read in time: a guard in the progress callback ends it with a finding at the line it reached', async () => {
    const text = generateLog({ dialect: 'v0', seed: 3, turns: 200 }).text;
    const bytes = enc.encode(text);
    const guard = new LoadGuard(null, { bytes: 40 * MiB, source: 'a test budget' });
    let lines = 0;
    const stopped = await readLog(chunked(bytes, 64 * 1024), {
      retainEvents: false,
      // Pretend each byte costs a megabyte of events: the guard must stop the read after a chunk or two.
      onProgress: (p) => { lines = p.lines; guard.check({ ...p, events: p.decodedBytes }); },
    }).catch((err) => err);
    expect(stopped).toBeInstanceOf(LoadStopped);
    expect(stopped.finding).toMatchObject({ code: 'load.too-big', line: lines });
    expect(lines).toBeLessThan(text.split('\n').length / 4);
    expect(stopped.message).toMatch(/would need about .* of memory, and a test budget allows about 40 MB/);
  });
});

describe('the worker engine under a memory budget', () => {
  it('stops a log that will not fit, says how big it is and what to do, and keeps the open log', async () => {
    const engine = new Engine();
    const budget = 40 * MiB;
    const small = generateLog({ dialect: 'v4', seed: 2, turns: 2 }).text;
    const first = await engine.load({ kind: 'text', text: small, name: 'small.jsonl' }, () => {}, { memoryBudget: budget });
    // 3.3 MB, 63 k events: its size alone passes (1.4 × 3.3 MB + 32 MB), its events per byte, once read, do not.
    const big = enc.encode(generateLog({ dialect: 'v0', seed: 5, turns: 100 }).text);
    const replies: Response[] = [];
    await engine.handle({ id: 7, op: 'load', source: { kind: 'bytes', bytes: big, name: 'big.jsonl' }, memoryBudget: budget }, (msg) => replies.push(msg as Response));
    const reply = replies.at(-1)!;
    expect(reply).toMatchObject({ id: 7, ok: false, finding: { code: 'load.too-big', severity: 'warning' } });
    const error = (reply as { error: string }).error;
    expect(error).toMatch(/^the log is too big for this tab: about 3 MB of text and [\d,]+ events would need about \d+ MB of memory, and the budget set for this page \(memoryBudget\) allows about 40 MB\. Loading stopped after 1 MB \([\d,]+ events\)\. The open log stays as it was\./);
    expect(error).toContain('npm run inspect');
    // The open log answers as before.
    expect(engine.rows(0, 3).map((r) => r.index)).toEqual([0, 1, 2]);
    expect(engine.state({ index: first.count - 1, window: { from: 0, count: 10 } }).index).toBe(first.count - 1);
    // With room, the same log opens.
    const opened = await engine.load({ kind: 'bytes', bytes: big, name: 'big.jsonl' }, () => {}, { memoryBudget: 512 * MiB });
    expect(opened.count).toBeGreaterThan(60_000);
  });

  it('opens the issue-18 bomb, its line over the limit never held: the header, the events before it, and its finding', async () => {
    const { bytes, head } = zstdBomb(100_000_000);
    const engine = new Engine();
    // 100 MB of one line under a 64 MiB budget fits: past the 1 MiB line limit its bytes are let go as they come.
    const summary = await engine.load({ kind: 'bytes', bytes, name: 'bomb.zst' }, () => {}, { memoryBudget: 64 * MiB, maxLineChars: MiB });
    expect(summary.header?.type).toBe('session');
    expect(summary.count - summary.syntheticCount).toBe(head.split('\n').length - 2);
    const torn = summary.diagnostics.find((d) => d.code === 'tail.torn');
    expect(torn?.message).toMatch(new RegExp(`line ${head.split('\n').length} \\(100000000 bytes from byte ${enc.encode(head).length}\\) too long to read`));
    // Under the default limit (just under V8's string limit) a 100 MB line is read whole, and that does not fit 64 MiB.
    await expect(engine.load({ kind: 'bytes', bytes, name: 'bomb.zst' }, () => {}, { memoryBudget: 64 * MiB })).rejects.toThrow(/too big for this tab/);
    expect(engine.rows(0, 1)).toHaveLength(1);
  });

  it('turns an unexpected error during the load into a finding naming the line and seq', async () => {
    const engine = new Engine();
    await engine.load({ kind: 'text', text: generateLog({ dialect: 'v4', seed: 2, turns: 1 }).text, name: 'a.jsonl' }, () => {});
    const replies: Response[] = [];
    // A source that fails half-way, as a file read can.
    const text = generateLog({ dialect: 'v4', seed: 4, turns: 2 }).text;
    const half = enc.encode(text.slice(0, text.indexOf('\n', text.length / 2) + 1));
    const failing = new Blob([half]);
    let pulls = 0;
    const stream = () => new ReadableStream<Uint8Array>({
      pull(c) { if (pulls++ === 0) c.enqueue(new Uint8Array(half)); else c.error(new TypeError('the file could not be read')); },
    });
    const file = Object.assign(failing, { stream });
    await engine.handle({ id: 1, op: 'load', source: { kind: 'file', file, name: 'b.jsonl' } }, (msg) => replies.push(msg as Response));
    const reply = replies.at(-1) as { ok: false; error: string; finding: { code: string; line: number; seq: number } };
    expect(reply.ok).toBe(false);
    expect(reply.finding.code).toBe('load.failed');
    const lines = half.reduce((n, b) => n + (b === 10 ? 1 : 0), 0);
    expect(reply.finding.line).toBe(lines);
    expect(reply.finding.seq).toBe(lines - 2);
    expect(reply.error).toBe(`The load stopped at line ${lines}, seq ${lines - 2} on an unexpected error: TypeError: the file could not be read`);
    expect(engine.rows(0, 1)).toHaveLength(1);
  });
  it('turns an error while the index and summary are built into a finding at the log\'s last line and seq; the open log stays', async () => {
    const engine = new Engine();
    await engine.load({ kind: 'text', text: generateLog({ dialect: 'v4', seed: 2, turns: 1 }).text, name: 'a.jsonl' }, () => {});
    const before = engine.rows(0, 1)[0];
    const text = generateLog({ dialect: 'v4', seed: 4, turns: 2 }).text;
    const proto = Engine.prototype as unknown as { summarize: (...args: unknown[]) => unknown };
    const real = proto.summarize;
    proto.summarize = () => { throw new RangeError('index too big'); };
    const replies: Response[] = [];
    try {
      await engine.handle({ id: 1, op: 'load', source: { kind: 'text', text, name: 'b.jsonl' } }, (msg) => replies.push(msg as Response));
    } finally {
      proto.summarize = real;
    }
    const reply = replies.at(-1) as { ok: false; error: string; finding: { code: string; line: number; seq: number } };
    expect(reply.ok).toBe(false);
    expect(reply.finding.code).toBe('load.failed');
    const lines = text.trimEnd().split('\n');
    expect(reply.finding.line).toBe(lines.length);
    expect(reply.finding.seq).toBe((JSON.parse(lines.at(-1)!) as { seq: number }).seq);
    expect(reply.error).toContain('on an unexpected error: RangeError: index too big');
    expect(engine.rows(0, 1)[0]).toEqual(before);
  });
});
