// Peak and retained memory, each reading in a fresh process (`--memory-child`): freed buffers
// from earlier runs must not blur the accounting.
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { Engine } from '../../src/worker/engine.ts';
import { readAheadFile } from '../dropped-file.ts';
import { peakOf } from './heap.ts';
import { baselineYielding, blobPaths, coreLoad, decodedSize, inMemoryBlob, projectionHelper, workerLoadFrom } from './loads.ts';
import { MB, median } from './numbers.ts';

export type MemoryReading = { heap: number; rss: number; retained: number; old: number; helperHeap?: number };

/** Peak and retained memory of the core pass and of the worker's load, each in a new process. */
export function memoryInChild(bytes: Uint8Array): { baseline: MemoryReading; core: MemoryReading; worker: MemoryReading; live: MemoryReading } {
  const file = path.join(os.tmpdir(), `dsh-bench-mem-${process.pid}.bin`);
  fs.writeFileSync(file, bytes);
  try {
    const once = (mode: string): MemoryReading => {
      const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', process.argv[1], '--memory-child', mode, file], { encoding: 'utf8', maxBuffer: 1 << 20 });
      return JSON.parse(out.trim().split('\n').at(-1)!) as MemoryReading;
    };
    // A peak depends on when the collector happens to run: on a small log one process read 22 MB
    // outside the young generation where four others read 14.7-16.2 MB (generated 10 MB). Small
    // logs get three processes and each figure's median (the baseline's too); a big one, one.
    const runs = bytes.length < 32 * MB ? 3 : 1;
    const run = (mode: string): MemoryReading => medianReading(Array.from({ length: runs }, () => once(mode)));
    return { baseline: run('baseline'), core: run('core'), worker: run('worker'), live: run('worker-live') };
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** Each figure's median over several readings (taken field by field). */
export function medianReading(readings: MemoryReading[]): MemoryReading {
  const of = (pick: (r: MemoryReading) => number | undefined) => median(readings.map((r) => pick(r) ?? 0));
  const out: MemoryReading = { heap: of((r) => r.heap), rss: of((r) => r.rss), retained: of((r) => r.retained), old: of((r) => r.old) };
  if (readings.some((r) => r.helperHeap !== undefined)) out.helperHeap = of((r) => r.helperHeap);
  return out;
}

/**
 * In the child: the log as a file on disk (read ahead as a browser reads a
 * dropped file, `readAheadFile`), one load, and the peak and
 * retained memory above the level before it.
 */
export async function memoryChild(mode: string, file: string): Promise<void> {
  if (mode === 'baseline') {
    // The baseline's own peak, the same way: read the file, decode it, split it, JSON.parse every line.
    const reading = await peakOf(() => baselineYielding(file));
    process.stdout.write(JSON.stringify({ heap: reading.heap, rss: reading.rss, retained: reading.retained, old: reading.old }) + '\n');
    return;
  }
  // The helper's host measures its floor after a collection, and in the live reading collects before
  // each sample too. It reads this when it starts (the warm-up below starts it), so it is set first;
  // the timed loads in the main process never collect.
  if (mode !== 'core') process.env.DSH_BENCH_MEMORY = mode === 'worker-live' ? 'live' : 'peak';
  const decoded = decodedSize(new Uint8Array(fs.readFileSync(file)));
  // A small load first: the code's own compiled form and caches are the app's, not the log's.
  const warmUp = generateLog({ dialect: 'v0', seed: 9, turns: 20, stepsPerTurn: 5 }).text;
  await new Engine().load({ kind: 'text', text: warmUp, name: 'warm-up' }, () => {});
  if (mode !== 'core') await workerLoadFrom(new Blob([warmUp]), 'warm-up');
  const helped = mode === 'core' ? null : await projectionHelper();
  // The load reads the file from disk, read ahead in 512 KiB chunks as a browser reads a dropped File. Node cannot
  // hand a file-backed Blob to a worker thread (a browser hands both workers the same File), so the
  // helper reads an in-memory twin of it, made before the measurement starts.
  const blob = await readAheadFile(file);
  blobPaths.set(blob, file);
  if (helped) helped.twin(blob, inMemoryBlob(file));
  const reading = await peakOf(async () => (mode === 'core'
    ? coreLoad(blob.stream() as unknown as AsyncIterable<Uint8Array>, decoded)
    // The engine is returned so it stays alive for the retained reading.
    : (async () => (await workerLoadFrom(blob, 'x')).engine)()), mode === 'worker-live');
  // The helper's heap is its own isolate's: its peak is added (as if both peaked at once; RSS counts the process).
  const helperPeak = helped?.lastPeakBytes() ?? 0;
  const helperOld = helped?.lastPeakOldBytes() ?? 0;
  process.stdout.write(JSON.stringify({ heap: reading.heap + helperPeak, helperHeap: helperPeak, rss: reading.rss, retained: reading.retained, old: reading.old + helperOld, helperOld }) + '\n');
  await helped?.close();
}
