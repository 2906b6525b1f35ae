// Memory accounting for the bench: what a load adds to heap + buffers and RSS, with full
// collections where the figure must count only what is reachable.
import { youngBytes } from '../heap-spaces.ts';

export const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

/**
 * Heap + buffers, RSS, and the part of heap + buffers outside V8's young generation. The young
 * generation is a scratch area of a size V8 sets (it grows to 16 MiB a semi-space under any load
 * that allocates, whatever the log's size): every object starts there, and what survives moves out.
 */
export const usage = () => {
  const m = process.memoryUsage();
  const heap = m.heapUsed + m.arrayBuffers;
  return { heap, rss: m.rss, old: heap - youngBytes() };
};

/** A full collection, twice with a pause: freed buffers are released to the accounting asynchronously. */
export async function settle(): Promise<void> {
  gc();
  // Until two readings agree (a file read from disk frees its buffers over a few turns), at most 8 rounds.
  let last = usage().heap;
  for (let round = 0; round < 8; round++) {
    await new Promise((r) => setTimeout(r, 50));
    gc();
    const now = usage().heap;
    if (Math.abs(now - last) <= last * 0.005) return;
    last = now;
  }
}

/** Peak heap (JS heap + ArrayBuffers: the log's bytes live there) and RSS above the level before `run`. */
export async function peakOf<T>(run: () => Promise<T>, live = false): Promise<{ value: T; heap: number; rss: number; peakRss: number; ms: number; retained: number; old: number }> {
  await settle();
  const base = usage();
  let heap = base.heap;
  let rss = base.rss;
  let old = base.old;
  // `live`: a full collection before each sample, so the peak counts what is reachable, not
  // garbage the collector has yet to reclaim (slow: used only for that reading).
  const sample = setInterval(() => { if (live) gc(); const u = usage(); heap = Math.max(heap, u.heap); rss = Math.max(rss, u.rss); old = Math.max(old, u.old); }, 10);
  const start = performance.now();
  const value = await run();
  const ms = performance.now() - start;
  clearInterval(sample);
  // The reading at the end is a sample too: in `live` mode it counts what is reachable, as the others do.
  if (live) gc();
  const u = usage();
  // What stays after a full collection: the loaded log as the app holds it (garbage excluded).
  await settle();
  const retained = usage().heap - base.heap;
  return { value, heap: Math.max(heap, u.heap) - base.heap, rss: Math.max(rss, u.rss) - base.rss, peakRss: Math.max(rss, u.rss), ms, retained, old: Math.max(old, u.old) - base.old };
}
