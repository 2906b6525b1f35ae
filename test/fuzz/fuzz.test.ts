import { describe, expect, it } from 'vitest';
import { BasePool, makeBase } from '../../src/core/fuzz/base.ts';
import { zstdBomb } from '../../src/core/fuzz/bomb.ts';
import type { Mutation } from '../../src/core/fuzz/mutators.ts';
import { Rng } from '../../src/core/generate/prng.ts';
import { concatBytes, gzipRuns, gzipStored, zstdFrames } from '../../src/core/fuzz/encode.ts';
import { nested } from '../../src/core/fuzz/mutators.ts';
import { caseSeedOf, memoryCeiling, planCase, runCase, runPlannedCase, type FuzzFailure } from '../../src/core/fuzz/runner.ts';
import { MAX_ROW_DEPTH, readLog, readLogText } from '../../src/core/log/reader.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { projectionsOf } from '../../src/core/projections/index.ts';
import { analyzePrompts } from '../../src/core/requests/analyze.ts';
import { chunked, events, header, jsonl, userMessage } from '../helpers/log-builder.ts';

/**
 * A bounded run of the core fuzzer (npm run fuzz runs it for minutes), over
 * generated logs only, plus a pinned case for every bug the fuzzer found.
 * A failure prints its case seed: `npm run fuzz -- --replay <seed> --bases tiny`.
 */
const CASES = 2000;
const codes = (r: { diagnostics: { code: string }[] }) => r.diagnostics.map((d) => d.code);
const enc = new TextEncoder();

describe('fuzz (bounded)', () => {
  it(`runs ${CASES} mutated generated logs without a crash, a hang, a lost event or an unexplained fault`, async () => {
    const pool = new BasePool(6, 'tiny');
    const runSeed = 20261129;
    const failures: FuzzFailure[] = [];
    for (let i = 0; i < CASES; i++) {
      const caseSeed = caseSeedOf(runSeed, i);
      const c = planCase(caseSeed, pool.names, (n) => pool.get(n), { hugeBytes: [1_000, 200_000], maxDepth: 5_000 });
      const report = await runPlannedCase(c, { checkpoints: 1, light: true, budgetMs: (b) => 2_000 + 2_000 * (b / 1e6) });
      if (report.failures.length) failures.push({ caseSeed, base: c.baseName, mutator: c.mutation.mutator, detail: c.mutation.detail, failures: report.failures });
    }
    expect(failures.map((f) => `case ${f.caseSeed} (${f.base}, ${f.mutator}: ${f.detail}): ${f.failures.join('; ')}`)).toEqual([]);
  }, 60_000);
});

const turn = events(
  ['turn/start', { turn: 1 }],
  ['user/message', userMessage('u1', 'héllo — ✓'), { surfaceOp: 'append' }],
  ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
);

describe('fuzz regressions', () => {
  it('readLogText counts UTF-8 bytes, as readLog does', async () => {
    const text = jsonl([header(), ...turn]) + '{"partial';
    const a = readLogText(text);
    const b = await readLog(chunked(enc.encode(text), 5));
    expect(a.scan).toEqual(b.scan);
    expect(a.scan.totalBytes).toBe(enc.encode(text).length);
  });

  it('keeps an unreadable first line as a rejected row', () => {
    const text = '{"type":"session",\n' + jsonl(turn);
    const r = readLogText(text);
    expect(codes(r)).toContain('header.missing');
    expect(r.rejectedRows).toContainEqual({ line: 1, text: '{"type":"session",' });
  });

  it('reports a row without seq in a log whose rows carry seqs, at its line', () => {
    const rows = jsonl([header(), ...turn]).split('\n');
    const later = rows.map((l, i) => (i === 2 ? l.replace('"seq":1,', '') : l)).join('\n');
    expect(readLogText(later).diagnostics).toContainEqual(expect.objectContaining({ code: 'row.envelope', line: 3 }));
    const first = rows.map((l, i) => (i === 1 ? l.replace('"seq":0,', '') : l)).join('\n');
    expect(readLogText(first).diagnostics).toContainEqual(expect.objectContaining({ code: 'row.envelope', line: 2 }));
  });

  it('rejects a row nested deeper than the limit instead of crashing the fold', () => {
    // Lines up to 1 MiB characters are parsed before their nesting is checked, longer ones (600,000
    // levels) checked first; a deep line that is not valid JSON either is still too deep, not unparsable.
    for (const [depth, valid] of [[MAX_ROW_DEPTH + 10, true], [100_000, true], [600_000, true], [MAX_ROW_DEPTH + 10, false], [600_000, false]] as const) {
      const deep = `{"type":"user/message","seq":1,"time":1,"surfaceOp":"append","data":{"id":"d","role":"user","content":[{"type":"text","text":"x","meta":${nested(depth, 'mixed')}}],"source":{"kind":"user"}}}`;
      const text = jsonl([header(), turn[0]]) + (valid ? deep : deep.slice(0, -3)) + '\n' + jsonl([{ ...turn[2], seq: 2 }]);
      const r = readLogText(text);
      expect(r.diagnostics).toContainEqual(expect.objectContaining({ code: 'row.too-deep', line: 3 }));
      expect(codes(r)).not.toContain('row.unparsable');
      expect(r.rejectedRows.map((x) => x.line)).toContain(3);
      expect(() => foldSession(r)).not.toThrow();
    }
    const ok = `{"type":"x/deep","ignorable":true,"seq":1,"time":1,"data":${nested(MAX_ROW_DEPTH - 2, 'array')}}`;
    expect(codes(readLogText(jsonl([header(), turn[0]]) + ok + '\n'))).not.toContain('row.too-deep');
  });

  it('reads a huge line arriving in small chunks in linear time', async () => {
    const big = JSON.stringify({ type: 'blob/x', ignorable: true, seq: 1, time: 1, data: 'y'.repeat(8 << 20) });
    const bytes = enc.encode(jsonl([header(), turn[0]]) + big + '\n');
    const t0 = Date.now();
    const r = await readLog(chunked(bytes, 16 * 1024));
    expect(Date.now() - t0).toBeLessThan(3_000);
    expect(r.events).toHaveLength(2);
  });

  it('sniffs binary content the same whatever the chunk size', async () => {
    const bytes = new Uint8Array(4096).map((_, i) => (i * 37) & 0xff);
    const whole = await readLog([bytes]);
    const bytewise = await readLog(chunked(bytes, 1));
    expect(codes(whole)).toContain('bytes.not-text');
    expect(codes(bytewise)).toEqual(codes(whole));
  });

  it('gives byte-level faults the line where decoding stopped', async () => {
    const frames = zstdFrames([jsonl([header(), turn[0]]), jsonl(turn.slice(1))]);
    const bad = frames.slice();
    bad[frames.length - 1 - (jsonl(turn.slice(1)).length + 12)] ^= 0xff; // the second frame's magic
    const r = await readLog([bad]);
    const d = r.diagnostics.find((x) => x.code.startsWith('bytes.'));
    expect(d?.line).toBe(3);
    expect(r.events).toHaveLength(1);
  });

  it('reads a gzip file with a bad CRC the same whatever the chunk size, keeping all but its last piece', async () => {
    const rows = events(...Array.from({ length: 600 }, (_, k) => ['user/message', userMessage(`u${k}`, `message ${k}`), { surfaceOp: 'append' }] as [string, unknown, Record<string, unknown>]));
    const text = jsonl([header(), ...rows]);
    const gz = gzipStored(enc.encode(text));
    gz[gz.length - 8] ^= 0xff;
    const results = await Promise.all([Infinity, 1000, 7].map((n) => readLog(Number.isFinite(n) ? chunked(gz, n) : [gz])));
    for (const r of results) {
      expect(codes(r)).toContain('bytes.gzip-corrupt');
      expect(r.events.length).toBe(results[0].events.length);
      expect(JSON.stringify(r.diagnostics)).toBe(JSON.stringify(results[0].diagnostics));
    }
    // The platform decoder drops the output of the failing write: at most one 16 KiB piece.
    expect(enc.encode(text).length - results[0].scan.totalBytes).toBeLessThanOrEqual(16 * 1024);
  });

  it('points the torn-tail finding at the first bad row, blank lines or not', () => {
    const text = jsonl([header(), turn[0]]) + '{"broken\n\n\n' + jsonl([{ ...turn[1], seq: 1 }]);
    const torn = readLogText(text).diagnostics.find((d) => d.code === 'tail.torn');
    expect(torn?.line).toBe(3);
  });

  it('folds a log whose payloads have the wrong shape (data null, content not an array) without throwing', () => {
    for (const [type, data] of [['turn/start', null], ['assistant/message', { turn: 1, step: 1, message: { id: 'a', role: 'assistant', content: -1, source: { kind: 'model', provider: 'p', model: 'm' } } }], ['assistant/message', { turn: 1, step: 1, message: { content: {} } }], ['tool/call', null], ['step/start', 'x']] as const) {
      const rows = events(['turn/start', { turn: 1 }], [type, data, type === 'assistant/message' ? { surfaceOp: 'append', sourceEventSeqs: [] } : {}]);
      const r = readLogText(jsonl([header(), ...rows]));
      expect(() => foldSession(r)).not.toThrow();
      expect(codes(foldSession(r))).toContain('payload.schema');
    }
  });

  it('analyzes prompts, requests and projections of a log with null payloads without throwing', () => {
    for (const type of ['assistant/chunk', 'assistant/message', 'request/header', 'tool/result', 'user/message', 'turn/end']) {
      const rows = events(['turn/start', { turn: 1 }], ['step/start', { turn: 1, step: 1 }], ['assistant/chunk', { turn: 1, step: 1, chunk: { type: 'text-delta', index: 0, text: 'a' } }], [type, null]);
      const session = foldSession(readLogText(jsonl([header(), ...rows])));
      expect(() => analyzePrompts(session), type).not.toThrow();
      expect(() => projectionsOf(session).snapshot(), type).not.toThrow();
    }
  });

  it('decides a binary file from its first 1,024 characters, whatever the chunk size', async () => {
    const garbage = new Uint8Array(4000).map((_, i) => (i * 37) % 256);
    garbage.set(enc.encode('\n{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}\n'), 1500);
    const results = await Promise.all([61, 1024, 65536].map((size) => readLog(chunked(garbage, size))));
    for (const r of results) {
      expect(codes(r)).toEqual(['bytes.not-text', 'header.missing']);
      expect(r.events).toEqual([]);
    }
    expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
  });
});

describe('fuzz: hostile sizes (issue #18)', () => {
  const pool = new BasePool(4, 'tiny');
  const heap = () => { const m = process.memoryUsage(); return m.heapUsed + m.arrayBuffers; };

  for (const mutator of ['giant-line', 'giant-string', 'blank-lines', 'big-numbers', 'expanding']) {
    it(`runs ${mutator} cases without a crash, a lost event or an unexplained fault`, async () => {
      const failures: string[] = [];
      for (let i = 0; i < 30; i++) {
        const caseSeed = caseSeedOf(18, i);
        const c = planCase(caseSeed, pool.names, (n) => pool.get(n), { hugeBytes: [1_000, 300_000], bombBytes: [10_000, 3_000_000] }, mutator);
        expect(c.mutation.mutator).toBe(mutator);
        const report = await runPlannedCase(c, { checkpoints: 1, light: true, memory: heap, budgetMs: (b) => 2_000 + 2_000 * (b / 1e6) });
        if (report.failures.length) failures.push(`case ${caseSeed} (${c.mutation.detail}): ${report.failures.join('; ')}`);
      }
      expect(failures).toEqual([]);
    }, 60_000);
  }

  it('reads a 300 MB zstd bomb and a 100 MB gzip bomb holding a bounded amount of memory', async () => {
    // The bomb (a valid log, then a user/message that never ends), with an expansion that dwarfs the ceiling.
    const { bytes, head } = zstdBomb(300_000_000);
    const base = makeBase('bomb-head', head);
    const line = base.lines.length + 1;
    const mutation: Mutation = {
      mutator: 'expanding', detail: 'the issue-18 bomb', bytes, encoding: 'zstd', prefixText: head,
      maxLineChars: 1 << 20, expands: 300_000_000, fault: { kind: 'line', line, exact: true }, equivalent: { sameEvents: true },
    };
    const report = await runCase(base, mutation, new Rng(18), { checkpoints: 1, light: true, memory: heap });
    expect(report.failures).toEqual([]);
    const ceiling = memoryCeiling(base.bytes.length, 1 << 20);
    expect(300_000_000 / ceiling).toBeGreaterThan(1.5);
    expect(report.held).toBeLessThan(ceiling);
    expect(bytes.length).toBeLessThan(300_000_000 / 5000);
    // gzip copies expand about 160×: a 100 MB line in well under a megabyte.
    const open = '{"type":"user/message","seq":1,"time":1,"surfaceOp":"append","data":{"id":"g","role":"user","content":[{"type":"text","text":"';
    const gz = gzipRuns([enc.encode(jsonl([header(), turn[0]]) + open), { repeat: 0x61, count: 100_000_000 }]);
    expect(gz.length).toBeLessThan(1 << 20);
    const floor = heap();
    let peak = floor;
    const r = await readLog([gz], { maxLineChars: 1 << 20, onProgress: () => { peak = Math.max(peak, heap()); } });
    expect(r.events).toHaveLength(1);
    expect(r.tornTail?.bytes).toBe(open.length + 100_000_000);
    expect(peak - floor).toBeLessThan(memoryCeiling(0, 1 << 20));
  }, 120_000);

  it('stops before a zstd frame that asks for a 2 GiB window or a block over 128 KiB, keeping what came before', async () => {
    const before = jsonl([header(), ...turn]);
    for (const header of [
      Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0xa0, 0x00, 0x00, 0x00, 0x80), // single segment, declared size 2 GiB
      Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0x00, 21 << 3), // window descriptor 2^31
      Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0x00, 11 << 3, 0x03, 0x00, 0x80, 0x0a), // 2 MiB window, a last RLE block of 1 MiB
    ]) {
      const bytes = concatBytes([zstdFrames([before]), header, Uint8Array.of(0x0b, 0x00, 0x04, 0x0a)]);
      for (const size of [7, 256, 1 << 20]) {
        const r = await readLog(chunked(bytes, size));
        expect(r.events).toHaveLength(3);
        const d = r.diagnostics.find((x) => x.code === 'bytes.zstd-limit');
        expect(d?.message).toMatch(/window|block/);
        expect(d?.line).toBe(5);
      }
    }
  });
});
