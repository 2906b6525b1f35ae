import { expect } from 'vitest';
import { readLog } from '../../src/core/log/reader.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { loadSession } from '../../src/core/session/stream-load.ts';
import { analyzePrompts } from '../../src/core/requests/analyze.ts';
import { projectionsOf } from '../../src/core/projections/report.ts';
import { Replay } from '../../src/core/replay/replay-index.ts';
import { foldSurface } from '../../src/core/surface/fold.ts';
import { Engine } from '../../src/worker/engine.ts';
import type { EventStore } from '../../src/core/log/event-store.ts';
import type { ByteReader } from '../../src/core/log/read-back.ts';

/** The bytes cut into pieces of `size` (a streaming source). */
export function* pieces(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  for (let o = 0; o < bytes.length; o += size) yield bytes.subarray(o, Math.min(bytes.length, o + size));
}

const json = (x: unknown) => JSON.stringify(x, (_k, v) => (v instanceof Map ? [...v] : v));

// The bytes as a file read back at any offset (as the worker reads a dropped File), counting reads.
export { bytesReadBack } from '../../src/core/log/read-back.ts';

/**
 * The streaming load (one pass, events kept as bytes) must give exactly
 * what reading the whole log into objects and folding it gives: every
 * event (re-parsed from its bytes), origins, surface, findings, and the
 * replay index, whatever the chunk size.
 */
export async function expectStreamMatchesEager(bytes: Uint8Array, chunkSize: number, readBack?: ByteReader): Promise<void> {
  const read = await readLog(pieces(bytes, 1 << 20));
  const eager = foldSession(read);
  const streamed = await loadSession(pieces(bytes, chunkSize), { cacheSize: 64, readBack });
  const store: EventStore = streamed.events;
  expect(streamed.loggedCount).toBe(read.events.length);
  expect(store.length).toBe(eager.events.length);
  // Walk backwards so the small cache cannot serve what was just parsed in order.
  for (let i = store.length - 1; i >= 0; i--) {
    expect(store.at(i)).toEqual(eager.events[i]);
    expect(streamed.originAt(i)).toEqual(eager.originAt(i));
  }
  expect(json(streamed.surface)).toBe(json(eager.surface));
  expect(streamed.diagnostics).toEqual(eager.diagnostics);
  expect(streamed.ok).toBe(eager.ok);
  expect(json(streamed.messages)).toBe(json(eager.messages));
  const { tornTail, scan, rejectedRows, header } = read;
  expect({ tornTail: streamed.read.tornTail, scan: streamed.read.scan, rejectedRows: streamed.read.rejectedRows, header: streamed.read.header })
    .toEqual({ tornTail, scan, rejectedRows, header });
}

/** The worker engine's load (streamed) against the eager pipeline: index, requests, projections, seeks. */
/**
 * `readBack`: loaded as a dropped file whose lines are read back from it. `fileChunks`: that file's stream
 * hands over buffers of its own of this size, as a browser's does; the load frees each (they must all
 * end detached), and every answer must stay the same.
 */
export async function expectEngineMatchesEager(bytes: Uint8Array, seeks: number[], readBack?: ByteReader, fileChunks?: number): Promise<void> {
  const read = await readLog(pieces(bytes, 1 << 20));
  const eager = foldSession(read);
  const engine = new Engine({ readBack: () => readBack ?? null });
  const handed: Uint8Array[] = [];
  const file = fileChunks
    ? ({ size: bytes.length, stream: () => { const parts = pieces(bytes, fileChunks); return new ReadableStream<Uint8Array>({ pull(c) { const p = parts.next(); if (p.done) c.close(); else { const own = p.value.slice(); handed.push(own); c.enqueue(own); } } }); } } as unknown as Blob)
    : new Blob([bytes as Uint8Array<ArrayBuffer>]);
  const summary = await engine.load(readBack ? { kind: 'file', file, name: 'x' } : { kind: 'bytes', bytes, name: 'x' }, () => {});
  if (fileChunks) {
    expect(handed.length).toBeGreaterThan(1);
    expect(handed.filter((c) => c.byteLength > 0)).toEqual([]);
  }
  const replay = (engine as unknown as { replay: Replay<EventStore> }).replay;
  const reference = Replay.walk(eager, 2048);
  expect(replay.index.columns).toEqual(reference.index.columns);
  expect(replay.index.typeNames).toEqual(reference.index.typeNames);
  const prompts = analyzePrompts(eager);
  const got = (engine as unknown as { prompts: ReturnType<typeof analyzePrompts> }).prompts;
  expect(json(got.requests)).toBe(json(prompts.requests));
  expect(got.findings).toEqual(prompts.findings);
  expect(json(got.runtimeContext.snapshots)).toBe(json(prompts.runtimeContext.snapshots));
  const projections = projectionsOf(eager, { history: true });
  const registry = (engine as unknown as { projections: typeof projections }).projections;
  expect(registry.snapshot()).toEqual(projections.snapshot());
  for (const unit of projections.units) expect(registry.changeSeqs(unit.key)).toEqual(projections.changeSeqs(unit.key));
  expect(summary.count).toBe(eager.events.length);
  for (const i of seeks) {
    if (i >= eager.events.length) continue;
    const scratch = foldSurface(eager.events.slice(0, i + 1), read.dialect).state;
    expect(json(replay.surfaceAt(i).state)).toBe(json(scratch));
    // Time travel from the compact history (states folded again from the store) equals every state kept.
    const seq = eager.events[i].seq;
    expect(registry.snapshotAt(seq)).toEqual(projections.snapshotAt(seq));
  }
}
