import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { watchChunks } from '../../src/worker/watched-chunks.ts';
import { Engine } from '../../src/worker/engine.ts';

/** A clock the test moves: the source's waits and the reader's work are whatever the test says. */
function fakeClock() {
  let now = 1000;
  vi.spyOn(performance, 'now').mockImplementation(() => now);
  return { advance: (ms: number) => { now += ms; } };
}

const bytes = (...values: number[]) => new Uint8Array(values);

afterEach(() => vi.restoreAllMocks());

describe('watched chunks: a load\'s input, fingerprinted and timed on its way to the reader', () => {
  it('hands every chunk on unchanged and in order, each to the tap first', async () => {
    const source = [bytes(1, 2), bytes(3), bytes(4, 5, 6)];
    const tapped: Uint8Array[] = [];
    const watched = watchChunks((async function* () { yield* source; })(), (c) => tapped.push(c));
    const read: Uint8Array[] = [];
    for await (const chunk of watched.chunks) {
      expect(tapped.at(-1)).toBe(chunk);
      read.push(chunk);
    }
    expect(read).toEqual(source);
    expect(read.every((c, i) => c === source[i])).toBe(true);
  });

  it('counts the time spent waiting for the source, not the time the reader works on a chunk', async () => {
    const clock = fakeClock();
    // The source takes 30, 40 and 50 ms to produce its chunks and 5 ms to say it is done.
    const source = (async function* () {
      for (const wait of [30, 40, 50]) { clock.advance(wait); yield bytes(wait); }
      clock.advance(5);
    })();
    const watched = watchChunks(source, () => {});
    let chunks = 0;
    for await (const _chunk of watched.chunks) {
      expect(watched.waitedMs()).toBe([30, 70, 120][chunks++]);
      clock.advance(1000); // the reader's work on the chunk
    }
    expect(watched.waitedMs()).toBe(125);
  });

  it('lets the source go when the load stops early', async () => {
    let closed = false;
    const source = (async function* () { try { for (let i = 0; ; i++) yield bytes(i); } finally { closed = true; } })();
    const watched = watchChunks(source, () => {});
    for await (const chunk of watched.chunks) if (chunk[0] === 2) break;
    expect(closed).toBe(true);
  });

  it('a file\'s or a download\'s load says how long it waited for its bytes; text already in memory has no such wait', async () => {
    const text = generateLog({ dialect: 'v4', seed: 11, turns: 3 }).text;
    const fromFile = await new Engine().load({ kind: 'file', file: new Blob([text]), name: 'a.jsonl' }, () => {});
    expect(fromFile.sourceWaitMs).toBeGreaterThanOrEqual(0);
    expect(fromFile.sourceWaitMs).toBeLessThanOrEqual(fromFile.loadMs + 1); // (two clocks, each to the ms)
    // A download says its wait too (a data: URL here: the same fetch and body stream as a link's log).
    const url = `data:application/x-ndjson;base64,${Buffer.from(text).toString('base64')}`;
    const fromUrl = await new Engine().load({ kind: 'url', url, name: 'a.jsonl' }, () => {});
    expect(fromUrl.sourceWaitMs).toBeGreaterThanOrEqual(0);
    expect(fromUrl.count).toBe(fromFile.count);
    const fromText = await new Engine().load({ kind: 'text', text, name: 'a.jsonl' }, () => {});
    expect(fromText.sourceWaitMs).toBeUndefined();
    expect(fromText.count).toBe(fromFile.count);
  });
});
