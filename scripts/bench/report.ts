// What the bench prints, and bench/report.json.
import fs from 'node:fs';
import type { FolderMeasure } from './folder.ts';
import type { Interleaved, Measure } from './measure.ts';
import type { gigabyteRun } from './workloads.ts';
import { MB, round } from './numbers.ts';

export function print(m: Measure): void {
  const mb = (m.fileBytes / MB).toFixed(1);
  console.log(`\n${m.name}: ${mb} MB, ${m.events} events`);
  console.log(`  load   ${m.load.ms} ms vs baseline ${m.load.baselineMs} ms (decompress + split + JSON.parse): ratio ${m.load.ratio}× (target ≤ 1.5×; paired median ${m.load.pairedMedian}×) — read, decompress, parse, fold, index`);
  const solo = m.engineLoad.withoutHelper;
  console.log(`         app's worker load ${m.engineLoad.ms} ms: ratio ${m.engineLoad.ratio}× (paired median ${m.engineLoad.pairedMedian}×) — the same pass plus the request/prompt analysis and projections (projections folded by: ${m.engineLoad.projectedBy ?? '?'}${solo ? `; without the helper ${solo.ms} ms = ${solo.ratio}×` : ''})`);
  const wait = m.engineLoad.helperWait;
  if (wait) console.log(`         the fastest helped load (${wait.loadMs} ms) waited ${wait.ms} ms for the helper after its own walk: ${wait.ms > wait.loadMs * 0.05 ? 'the helper set its time' : 'its own walk set its time'}`);
  const input = m.engineLoad.sourceWait;
  if (input) console.log(`         the fastest load (${input.loadMs} ms) waited ${input.ms} ms for the file's stream (read ahead, as a browser's File): its own work ${input.loadMs - input.ms} ms = ${round((input.loadMs - input.ms) / m.load.baselineMs)}× the baseline`);
  const nodeBlob = m.engineLoad.nodeBlob;
  if (nodeBlob) console.log(`         from Node's own file-backed Blob (64 KiB read when asked) ${nodeBlob.ms} ms = ${nodeBlob.ratio}×${nodeBlob.sourceWait ? `, of which ${nodeBlob.sourceWait.ms} ms waiting for the file` : ''}`);
  console.log(`  seek   stateAt p50 ${m.seek.p50Ms} ms, p95 ${m.seek.p95Ms} ms, max ${m.seek.maxMs} ms, ≤ ${m.seek.refoldedMax} events re-folded (target p95 ≤ 16 ms); full cursor state p95 ${m.seek.engineP95Ms} ms`);
  console.log(`  memory peak heap+buffers ${(m.memory.peakHeapBytes / MB).toFixed(0)} MB, RSS +${(m.memory.peakRssBytes / MB).toFixed(0)} MB: ${m.memory.ratio}× the uncompressed size for the worker's load (target ≤ 2×; the helper's own heap ${(m.memory.helperPeakBytes / MB).toFixed(0)} MB of it); core pass ${m.memory.coreRatio}×; retained after GC ${(m.memory.retainedBytes / MB).toFixed(0)} MB = ${m.memory.retainedRatio}×; live peak (collected before each sample) ${m.memory.livePeakRatio}×; the bare baseline (read, decode, split, JSON.parse) peaks at ${m.memory.baselinePeakRatio}×`);
  console.log(`         outside the young generation ${(m.memory.outsideYoungBytes / MB).toFixed(0)} MB = ${m.memory.outsideYoungRatio}× (target ≤ 2×; the baseline's ${m.memory.baselineOutsideYoungRatio}×)`);
}

export function printFolder(f: FolderMeasure): void {
  console.log(`\nsessions folder: ${f.logs} generated logs, ${(f.bytes / MB).toFixed(1)} MB, ${f.events} events`);
  console.log(`  summaries         ${f.logsPerSec} logs/s in one worker (${(f.summaryMs / 1000).toFixed(1)} s; ${f.ratio}× the same-run baseline of read + split + JSON.parse, ${(f.baselineMs / 1000).toFixed(1)} s); the app runs hardwareConcurrency − 1 workers`);
  console.log(`  memory peak       heap+buffers +${(f.peakHeapBytes / MB).toFixed(1)} MB, RSS +${(f.peakRssBytes / MB).toFixed(1)} MB over the whole folder (process peak ${(f.processPeakRssBytes / MB).toFixed(0)} MB: pages the earlier workloads mapped are reused, so the delta can read 0; garbage between collections); the ${f.logs} summaries kept: ${(f.retainedBytes / MB).toFixed(2)} MB after GC`);
  console.log(`  one big log       ${(f.big.bytes / MB).toFixed(0)} MB: summary peak ${(f.big.summaryPeakBytes / MB).toFixed(1)} MB = ${f.big.summaryRatio}× the log; the full streaming load ${(f.big.loadPeakBytes / MB).toFixed(1)} MB = ${f.big.loadRatio}×`);
}

/** A size pair of one shape, and the per-event growth from the smaller to the bigger. */
export interface Flatness { name: string; small: Measure; big: Measure; interleaved?: Interleaved }
/** The 1 GB stream's figures. */
export type GigabyteRun = Awaited<ReturnType<typeof gigabyteRun>>;

/** The closing summary: each metric's worst log against its target, then every log's figure. */
export function printSummary(results: Measure[], flatness: Flatness[], gb: GigabyteRun | null): void {
  const worst = (f: (m: Measure) => number) => Math.max(...results.map(f));
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const byLog = (f: (m: Measure) => number) => results.map((m) => `${f(m)}×`).join(' / ');
  console.log('\nsummary (per log in the order above)');
  console.log(`  app's whole load  ${worst((m) => m.engineLoad.ratio)}× (worst)   target ≤ 2.5×   ${met(worst((m) => m.engineLoad.ratio) <= 2.5)}   (read+decompress+parse+fold+index+analyses vs decode+split+JSON.parse; per log ${byLog((m) => m.engineLoad.ratio)}; paired medians ${byLog((m) => m.engineLoad.pairedMedian)}; projections by ${results[0]?.engineLoad.projectedBy ?? '?'}; without the helper ${byLog((m) => m.engineLoad.withoutHelper?.ratio ?? NaN)})`);
  console.log(`  helper wait       the fastest helped load's wait for the helper after its own walk, of its own time: per log ${results.map((m) => (m.engineLoad.helperWait ? `${m.engineLoad.helperWait.ms}/${m.engineLoad.helperWait.loadMs} ms` : '-')).join(' / ')} (which thread set the whole load's time)`);
  const ownWork = (m: Measure) => (m.engineLoad.sourceWait ? `${round((m.engineLoad.sourceWait.loadMs - m.engineLoad.sourceWait.ms) / m.load.baselineMs)}×` : '-');
  console.log(`  file wait         the fastest load's wait for the file's stream, of its time: per log ${results.map((m) => (m.engineLoad.sourceWait ? `${m.engineLoad.sourceWait.ms}/${m.engineLoad.sourceWait.loadMs} ms` : '-')).join(' / ')}; the load's own work (its time less that wait) ${results.map(ownWork).join(' / ')} the baseline; the file read ahead as a browser reads a File`);
  console.log(`  Node's Blob       the same whole load from Node's own file-backed Blob (64 KiB read when asked, nothing ahead; fewer runs): per log ${results.map((m) => (m.engineLoad.nodeBlob ? `${m.engineLoad.nodeBlob.ratio}×${m.engineLoad.nodeBlob.sourceWait ? ` (${m.engineLoad.nodeBlob.sourceWait.ms} ms waiting)` : ''}` : '-')).join(' / ')}`);
  console.log(`  core pass         ${worst((m) => m.load.ratio)}× (worst)   target ≤ 1.5×   ${met(worst((m) => m.load.ratio) <= 1.5)}   (read+decompress+parse+fold+index; per log ${byLog((m) => m.load.ratio)}; paired medians ${byLog((m) => m.load.pairedMedian)})`);
  for (const f of flatness) {
    const per = (m: Measure) => m.engineLoad.ms / m.events;
    const apart = round(per(f.big) / per(f.small));
    const both = f.interleaved;
    const growth = both ? both.growth : apart;
    console.log(`  per-event cost    ${growth}× from ${f.small.events} to ${f.big.events} events (${f.name})   target ≤ 1.3×   ${met(growth <= 1.3)}   (${both ? `loads of the two sizes taken in turns, best of ${both.rounds} big and ${both.smallRuns} small: ${both.smallMs} ms → ${both.bigMs} ms, ${round((both.smallMs / f.small.events) * 1000)} → ${round((both.bigMs / f.big.events) * 1000)} µs per event; the bare baseline's own growth ${both.baselineGrowth}×; ` : ''}measured apart above: ${apart}×, ${round(per(f.small) * 1000)} → ${round(per(f.big) * 1000)} µs per event)`);
  }
  console.log(`  seek p95          ${worst((m) => m.seek.p95Ms)} ms (worst)  target ≤ 16 ms  ${met(worst((m) => m.seek.p95Ms) <= 16)}   (cursor state for a screen of nodes: p95 ${worst((m) => m.seek.engineP95Ms)} ms worst)`);
  console.log(`  memory peak       ${worst((m) => m.memory.ratio)}× (worst)   target ≤ 2×     ${met(worst((m) => m.memory.ratio) <= 2)}   (the app's whole load, JS heap + buffers, fresh process; per log ${byLog((m) => m.memory.ratio)}; core pass ${byLog((m) => m.memory.coreRatio)}; live peak, garbage collected before each sample, ${byLog((m) => m.memory.livePeakRatio)}; the bare baseline's own peak ${byLog((m) => m.memory.baselinePeakRatio)}; over it ${byLog((m) => round(m.memory.ratio / m.memory.baselinePeakRatio))})`);
  console.log(`  memory outside    ${worst((m) => m.memory.outsideYoungRatio)}× (worst)   target ≤ 2×     ${met(worst((m) => m.memory.outsideYoungRatio) <= 2)}   (the same peak without V8's young generation, main thread and helper: what grows with the log; per log ${byLog((m) => m.memory.outsideYoungRatio)}; the bare baseline's ${byLog((m) => m.memory.baselineOutsideYoungRatio)})`);
  console.log(`  memory retained   ${worst((m) => m.memory.retainedRatio)}× (worst)   target ≤ 1.5×   ${met(worst((m) => m.memory.retainedRatio) <= 1.5)}   (after GC; per log ${byLog((m) => m.memory.retainedRatio)})`);
  if (gb) console.log(`  1 GB stream       ${(gb.bytes / MB).toFixed(0)} MB in ${(gb.ms / 1000).toFixed(1)} s, no crash   target: streams without crashing   met`);
}

/** Every figure of the run, for tools and for docs/performance.md. */
export function writeReport(results: Measure[], flatness: Flatness[], gb: GigabyteRun | null, folder: FolderMeasure | null): void {
  fs.mkdirSync('bench', { recursive: true });
  fs.writeFileSync('bench/report.json', JSON.stringify({ date: new Date().toISOString(), node: process.version, results, perEvent: flatness.map((f) => ({ shape: f.name, smallEvents: f.small.events, bigEvents: f.big.events, ...f.interleaved })), gigabyte: gb, folder }, null, 2));
}
