import { describe, expect, it } from 'vitest';
import { generateFork, generateLog } from '../../src/core/generate/generate-log.ts';
import { gzipStored, zstdRawFrame } from '../../src/core/fuzz/encode.ts';
import { bytesReadBack, expectEngineMatchesEager, expectStreamMatchesEager } from './equivalence.ts';

const enc = (text: string) => new TextEncoder().encode(text);

const logs: [string, string][] = [
  ['v0 packed chunks', generateLog({ dialect: 'v0', seed: 3, turns: 6 }).text],
  ['v4 streams, offload, compaction', generateLog({ dialect: 'v4', seed: 4, turns: 6, imageOffload: true, compactEvery: 2 }).text],
  ['v0 open last turn (restore closers)', generateLog({ dialect: 'v0', seed: 5, turns: 3, openLastTurn: true }).text],
];

describe('streaming load equals reading the whole log', () => {
  it.each(logs)('%s, at several chunk sizes', async (_name, text) => {
    for (const size of [7, 4093, 1 << 20]) await expectStreamMatchesEager(enc(text), size);
  });

  it('a torn tail and a corrupt row in the middle', async () => {
    const lines = generateLog({ dialect: 'v0', seed: 6, turns: 4 }).text.split('\n');
    lines.splice(40, 0, '{"type":"broken"');
    await expectStreamMatchesEager(enc(lines.join('\n') + '{"type":"turn/st'), 333);
  });

  it('a packed row whose first member repeats a seq (members kept out of step with their row)', async () => {
    const lines = generateLog({ dialect: 'v0', seed: 14, turns: 3 }).text.split('\n');
    const k = lines.findIndex((l, i) => i > 20 && l.includes('"seq0"'));
    lines[k] = lines[k].replace(/"seq0":(\d+)/, (_m, n) => `"seq0":${Number(n) - 1}`);
    await expectStreamMatchesEager(enc(lines.join('\n')), 1000);
  });

  it('a subagent fork, CRLF line ends and a BOM', async () => {
    const { child } = generateFork({ dialect: 'v4', seed: 7, turns: 3, afterTurn: 2, childTurns: 2, childSeed: 8 });
    await expectStreamMatchesEager(enc('\ufeff' + child.text.replace(/\n/g, '\r\n')), 101);
  });

  it('rows without seq/time (a normalized snapshot) are numbered the same', async () => {
    const text = generateLog({ dialect: 'v4', seed: 9, turns: 2 }).text.split('\n')
      .map((l, i) => (i === 0 || !l ? l : JSON.stringify((({ seq: _s, time: _t, ...rest }) => rest)(JSON.parse(l))))).join('\n');
    await expectStreamMatchesEager(enc(text), 512);
  });

  it('the engine: replay columns, requests, projections and seeks', async () => {
    for (const text of logs.map(([, t]) => t)) await expectEngineMatchesEager(enc(text), [0, 5, 77, 400, 1999, 2048, 2500, 4000]);
  });
});

describe('lines read back from the file instead of kept', () => {
  it.each(logs)('%s: every event parsed again from the file equals the eager read', async (_name, text) => {
    for (const size of [7, 65536]) {
      const file = bytesReadBack(enc(text));
      await expectStreamMatchesEager(enc(text), size, file);
      // Walked backwards with a cache of 64 events: the lines came from the file.
      expect(file.reads).toBeGreaterThan(0);
    }
  });

  it('a torn tail, a corrupt row, CRLF line ends and a BOM', async () => {
    const lines = generateLog({ dialect: 'v0', seed: 6, turns: 4 }).text.split('\n');
    lines.splice(40, 0, '{"type":"broken"');
    const bytes = enc('\ufeff' + lines.join('\r\n') + '{"type":"turn/st');
    const file = bytesReadBack(bytes);
    await expectStreamMatchesEager(bytes, 333, file);
    expect(file.reads).toBeGreaterThan(0);
  });

  it('a zstd log is read back through its frames; a gzip log keeps its decoded bytes (its stream cannot be entered part-way)', async () => {
    const zstd = zstdRawFrame(enc(logs[1][1]));
    const zstdFile = bytesReadBack(zstd);
    await expectStreamMatchesEager(zstd, 4093, zstdFile);
    expect(zstdFile.reads).toBeGreaterThan(0);
    const gzip = gzipStored(enc(logs[1][1]));
    const gzipFile = bytesReadBack(gzip);
    await expectStreamMatchesEager(gzip, 4093, gzipFile);
    expect(gzipFile.reads).toBe(0);
  });

  it('the engine loading a dropped file: replay columns, requests, projections and seeks', async () => {
    for (const text of logs.map(([, t]) => t)) {
      const file = bytesReadBack(enc(text));
      await expectEngineMatchesEager(enc(text), [0, 5, 77, 400, 1999, 2048, 2500, 4000], file);
      expect(file.reads).toBeGreaterThan(0);
    }
  });

  it('the engine frees each chunk of a dropped file as it lets it go, and answers as before', async () => {
    for (const text of logs.map(([, t]) => t)) {
      const file = bytesReadBack(enc(text));
      await expectEngineMatchesEager(enc(text), [0, 5, 77, 400, 1999, 2048, 2500, 4000], file, 4096);
      expect(file.reads).toBeGreaterThan(0);
    }
  });
});

describe('packed runs walked in bulk', () => {
  it('a visitor without a run hook sees every member, in order, as the eager walk shows it', async () => {
    const { loadSession } = await import('../../src/core/session/stream-load.ts');
    const { foldSession } = await import('../../src/core/session/fold-session.ts');
    const { readLogText } = await import('../../src/core/log/reader.ts');
    const { pieces } = await import('./equivalence.ts');
    const text = generateLog({ dialect: 'v0', seed: 11, turns: 3 }).text;
    const seen = (into: string[]) => ({
      before: (e: { seq: number }, s: { nextSeq: number; nodes: number[] }) => void into.push(`b${e.seq}/${s.nextSeq}/${s.nodes.length}`),
      after: (e: { seq: number; type: string; data: unknown }, s: { nextSeq: number }, p: { kind: string }) => void into.push(`a${e.seq}/${s.nextSeq}/${p.kind}/${e.type}/${JSON.stringify(e.data)}`),
    });
    const eager: string[] = [];
    foldSession(readLogText(text), { riders: [seen(eager)] });
    const streamed: string[] = [];
    let runs = 0;
    await loadSession(pieces(enc(text), 4096), { riders: () => [seen(streamed), { run: () => void runs++ }] });
    expect(runs).toBeGreaterThan(10);
    expect(streamed).toEqual(eager);
  });
});

describe('checkpoints by bytes', () => {
  it('a checkpoint also closes after enough changed bytes; seeks still equal a fold from scratch', async () => {
    const { loadSession } = await import('../../src/core/session/stream-load.ts');
    const { Replay, ReplayBuilder } = await import('../../src/core/replay/replay-index.ts');
    const { foldSurface } = await import('../../src/core/surface/fold.ts');
    const { readLogText } = await import('../../src/core/log/reader.ts');
    const { pieces } = await import('./equivalence.ts');
    const { Rng } = await import('../../src/core/generate/prng.ts');
    for (const dialect of ['v0', 'v4'] as const) {
      const text = generateLog({ dialect, seed: 13, turns: 5, compactEvery: 2, imageOffload: dialect === 'v4' }).text;
      let builder: InstanceType<typeof ReplayBuilder> | null = null;
      const session = await loadSession(pieces(enc(text), 8192), { riders: (_m, store) => [(builder = ReplayBuilder.forStore(store, { checkpointEvery: 512, capacity: 16, checkpointBytes: 4000 }))] });
      const replay = new Replay(session, builder!.finish(session.loggedCount));
      const at = replay.index.checkpointAt;
      expect(at.length).toBeGreaterThan(Math.ceil(session.events.length / 512) + 3);
      // Never closer than K/32 events apart: each checkpoint clones the surface.
      for (let k = 1; k < at.length; k++) expect(at[k] - at[k - 1]).toBeGreaterThanOrEqual(16);
      expect(at[0]).toBe(0);
      const eager = readLogText(text).events;
      const rng = new Rng(3);
      for (let k = 0; k < 40; k++) {
        const i = rng.int(0, session.events.length - 1);
        if (i >= eager.length) continue; // a restore closer: not in the eager read
        const scratch = foldSurface(eager.slice(0, i + 1), dialect).state;
        expect(JSON.stringify(replay.surfaceAt(i).state)).toBe(JSON.stringify(scratch));
        expect(replay.refoldDistance(i)).toBeLessThanOrEqual(512);
      }
    }
  });
});
