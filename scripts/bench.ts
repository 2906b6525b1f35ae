// `npm run bench`: load, seek and memory of the core on generated logs, each
// reported as a ratio to baseline work measured in the same run. Prints a
// summary line per metric with its target and writes bench/report.json.
// `npm run -s bench -- --log FILE --json` measures any log and prints only JSON.
// The workloads are in bench/workloads.ts and bench/folder.ts, the measuring in
// bench/measure.ts (loads.ts, memory.ts, heap.ts under it), the printing in bench/report.ts.
import fs from 'node:fs';
import path from 'node:path';
import { generateLog } from '../src/core/generate/generate-log.ts';
import { Engine } from '../src/worker/engine.ts';
import { installCliErrors } from './cli.ts';
import { folderBench } from './bench/folder.ts';
import { printWhatIf, whatIfBench } from './bench/whatif.ts';
import { gc } from './bench/heap.ts';
import { coreLoad, pieces, projectionHelper, workerLoad } from './bench/loads.ts';
import { interleavedLoads, measure, type Measure } from './bench/measure.ts';
import { memoryChild } from './bench/memory.ts';
import { print, printFolder, printSummary, writeReport, type Flatness } from './bench/report.ts';
import { generatedLong, generatedLongV4, generatedOfSize, gigabyteRun, realLong, zstdOf } from './bench/workloads.ts';
import { MB, round } from './bench/numbers.ts';

installCliErrors('bench');

const args = process.argv.slice(2);
const flag = (name: string) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : undefined; };

// A memory reading in a fresh process, started by the measuring of one log (bench/memory.ts).
const memoryMode = flag('memory-child');
if (memoryMode) {
  await memoryChild(memoryMode, args[args.indexOf('--memory-child') + 2]);
  process.exit(0);
}

// The sessions-folder workload alone: `npm run bench -- --folder-only [--folder N] [--folder-big MB]`.
if (args.includes('--folder-only')) {
  printFolder(await folderBench(Number(flag('folder') ?? 1000), Number(flag('folder-big') ?? 20)));
  process.exit(0);
}

// Warm-up loads of a small generated log, so the first measured log does not pay for JIT compilation.
for (let r = 0; r < 3; r++) await coreLoad(pieces(new TextEncoder().encode(generateLog({ dialect: 'v0', seed: 9, turns: 60, stepsPerTurn: 5 }).text)), 1 << 20);
await new Engine().load({ kind: 'text', text: generateLog({ dialect: 'v4', seed: 9, turns: 10 }).text, name: 'warm-up' }, () => {});
// The helper warms up too (its first fold compiles its code, as the app's does at its first log).
for (let r = 0; r < 2; r++) await workerLoad(new TextEncoder().encode(generateLog({ dialect: 'v0', seed: 9, turns: 60, stepsPerTurn: 5 }).text), 'warm-up');

// The what-if workload alone: `npm run bench -- --whatif-only [--whatif N | --log FILE]`.
if (args.includes('--whatif-only')) {
  const file = flag('log');
  const n = Number(flag('whatif') ?? 1_000_000);
  const real = file ? null : realLong(n);
  const bytes = file ? new Uint8Array(fs.readFileSync(file)) : real ?? generatedLong(n);
  printWhatIf(await whatIfBench(file ? path.basename(file) : `${real ? 'real-shaped' : 'generated'} long ${n.toLocaleString('en-US')}`, bytes));
  process.exit(0);
}

const logFile = flag('log');
if (logFile) {
  const m = await measure(path.basename(logFile), new Uint8Array(fs.readFileSync(logFile)));
  const { name: _name, seek, ...rest } = m;
  const { engineP95Ms: _e, ...seekCore } = seek;
  const doc = { ...rest, seek: seekCore };
  if (args.includes('--json')) process.stdout.write(JSON.stringify(doc) + '\n');
  else print(m);
} else {
  const sizes = (flag('sizes') ?? '10,100').split(',').map(Number).filter((n) => n > 0);
  const results: Measure[] = [];
  for (const size of sizes) {
    const text = generatedOfSize(size);
    const plain = new TextEncoder().encode(text);
    for (const [label, bytes] of [['plain', plain], ['zstd', zstdOf(text)]] as const) {
      const m = await measure(`generated ${size} MB (${label})`, bytes);
      print(m);
      results.push(m);
      gc();
    }
  }
  // The long-session shape (docs/long-sessions.md): sessions that never compact, their surface growing for
  // thousands of calls — generated, and made of real corpus logs when ../shared is here.
  const longSizes = (flag('long') ?? '100000,1000000').split(',').map(Number).filter((n) => n > 0);
  const flatness: Flatness[] = [];
  for (const [shape, make] of [['generated long', generatedLong], ['real-shaped long', realLong], ['format-4 long (DSH 0.2.1 shape)', generatedLongV4]] as const) {
    const made = longSizes.map((n) => [n, make(n)] as const).filter(([, b]) => b !== null) as (readonly [number, Uint8Array])[];
    const measured: Measure[] = [];
    for (const [n, bytes] of made) {
      const m = await measure(`${shape} ${n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`} events`, bytes);
      print(m);
      results.push(m);
      measured.push(m);
      gc();
    }
    if (measured.length >= 2) {
      const interleaved = await interleavedLoads(made[0][1], made[made.length - 1][1], shape);
      flatness.push({ name: shape, small: measured[0], big: measured[measured.length - 1], interleaved });
      gc();
    }
  }
  const gbTarget = Number(flag('gb') ?? 1);
  const gb = gbTarget > 0 ? await gigabyteRun(gbTarget * 1024 * MB) : null;
  if (gb) console.log(`\n1 GB stream: ${(gb.bytes / MB).toFixed(0)} MB, ${gb.events} events read, folded and indexed in ${(gb.ms / 1000).toFixed(1)} s (${gb.mbPerSec} MB/s), peak RSS ${(gb.peakRssBytes / MB).toFixed(0)} MB, heap+buffers ${(gb.peakHeapBytes / MB).toFixed(0)} MB = ${round(gb.peakHeapBytes / gb.bytes)}× the file (written by the generator in ${(gb.genMs / 1000).toFixed(1)} s)`);
  const folderCount = Number(flag('folder') ?? 1000);
  const folder = folderCount > 0 ? await folderBench(folderCount, Number(flag('folder-big') ?? 20)) : null;
  if (folder) printFolder(folder);
  printSummary(results, flatness, gb);
  writeReport(results, flatness, gb, folder);
  console.log('  report            bench/report.json');
}
await (await projectionHelper())?.close();
