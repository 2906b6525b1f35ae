import { parentPort } from 'node:worker_threads';
import v8 from 'node:v8';
import { serveProjections } from '../src/worker/projector-host.ts';
import { youngBytes } from './heap-spaces.ts';

// The helper's own heap, sampled while it works (it is not the main thread's to count):
// the peak of each job goes back with a message of its own.
let peak = 0;
// Only the bench's memory readings collect (DSH_BENCH_MEMORY, with --expose-gc): a collection at each
// job's start would sit on the timed loads' critical path.
const memory = process.env.DSH_BENCH_MEMORY;
const gc = memory ? (globalThis as { gc?: () => void }).gc : undefined;
// The live reading collects before each sample, as the load's own does.
const collect = memory === 'live' ? gc : undefined;
let peakOld = 0;
const sample = () => {
  collect?.();
  const used = v8.getHeapStatistics().used_heap_size;
  peak = Math.max(peak, used);
  peakOld = Math.max(peakOld, used - youngBytes());
};
// The floor is what is live when a job starts: garbage left by an earlier job (the bench's warm-up)
// would lift it, and the job's peak above it would read low (or 0, when a collection falls inside the job).
const base = () => { gc?.(); return v8.getHeapStatistics().used_heap_size; };
let floor = base();
let floorOld = floor - youngBytes();
setInterval(sample, 10).unref();
const port = parentPort!;
serveProjections({ postMessage: (m, t) => port.postMessage(m, t as never), onMessage: (l) => port.on('message', (m) => { if (m?.projector === 'project') { floor = base(); peak = floor; floorOld = floor - youngBytes(); peakOld = floorOld; } l(m); }) }, {
  onDone: () => { sample(); port.postMessage({ projectorMemory: { peakBytes: peak - floor, peakOldBytes: peakOld - floorOld } }); },
});
