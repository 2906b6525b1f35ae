// `npm run bench`: load, seek and memory of the core on generated logs, each
// reported as a ratio to baseline work measured in the same run. Prints a
// summary line per metric with its target and writes bench/report.json.
// `npm run -s bench -- --log FILE --json` measures any log and prints only JSON.
import fs from 'node:fs';
import path from 'node:path';
import { Decompress } from 'fzstd';
import { zstdRawFrame } from '../src/core/fuzz/encode.ts';
import { generateLog } from '../src/core/generate/generate-log.ts';
import { sniffEncoding } from '../src/core/log/bytes.ts';
import { Replay } from '../src/core/replay/replay-index.ts';
import { Engine } from '../src/worker/engine.ts';

const MB = 1024 * 1024;
const args = process.argv.slice(2);
const flag = (name: string) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : undefined; };
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

interface Measure {
  name: string;
  events: number;
  fileBytes: number;
  load: { ms: number; baselineMs: number; ratio: number };
  seek: { p50Ms: number; p95Ms: number; maxMs: number; refoldedMax: number; engineP95Ms: number };
  memory: { peakHeapBytes: number; peakRssBytes: number; ratio: number };
}

/** The baseline: decompress, split lines and JSON.parse each one — the least any viewer must do. */
function baseline(bytes: Uint8Array): number {
  const start = performance.now();
  let text: Uint8Array = bytes;
  if (sniffEncoding(bytes) === 'zstd') {
    const parts: Uint8Array[] = [];
    const d = new Decompress((c) => { parts.push(c); });
    d.push(bytes, true);
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let o = 0;
    for (const p of parts) { out.set(p, o); o += p.length; }
    text = out;
  }
  const decoded = new TextDecoder().decode(text);
  let s = 0;
  for (;;) {
    const nl = decoded.indexOf('\n', s);
    if (nl < 0) break;
    if (nl > s) JSON.parse(decoded.slice(s, nl));
    s = nl + 1;
  }
  return performance.now() - start;
}

async function measure(name: string, bytes: Uint8Array): Promise<Measure> {
  gc();
  const baselineMs = Math.min(baseline(bytes), baseline(bytes));
  gc();
  const base = process.memoryUsage();
  let peakHeap = base.heapUsed;
  let peakRss = base.rss;
  const sample = setInterval(() => { const m = process.memoryUsage(); peakHeap = Math.max(peakHeap, m.heapUsed); peakRss = Math.max(peakRss, m.rss); }, 20);
  const engine = new Engine();
  const start = performance.now();
  // The whole load the worker does: stream, decode, read, fold, index, projections, requests.
  const summary = await engine.load({ kind: 'bytes', bytes, name }, () => {});
  const ms = performance.now() - start;
  const after = process.memoryUsage();
  clearInterval(sample);
  peakHeap = Math.max(peakHeap, after.heapUsed);
  peakRss = Math.max(peakRss, after.rss);

  // Seek: the core's stateAt (checkpoint + forward fold) and the engine's full cursor state.
  const replay = (engine as unknown as { replay: Replay }).replay;
  let seed = 12345;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) % summary.count;
  const times: number[] = [];
  let refoldedMax = 0;
  for (let i = 0; i < 1000; i++) {
    const at = rand();
    const t = performance.now();
    replay.surfaceAt(at);
    times.push(performance.now() - t);
    refoldedMax = Math.max(refoldedMax, (at % replay.index.checkpointEvery) + 1);
  }
  const engineTimes: number[] = [];
  for (let i = 0; i < 200; i++) { const t = performance.now(); engine.state(rand()); engineTimes.push(performance.now() - t); }
  const q = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
  const heapUsed = peakHeap - base.heapUsed;
  return {
    name,
    events: summary.count,
    fileBytes: bytes.length,
    load: { ms: round(ms), baselineMs: round(baselineMs), ratio: round(ms / baselineMs) },
    seek: { p50Ms: round(q(times, 0.5)), p95Ms: round(q(times, 0.95)), maxMs: round(Math.max(...times)), refoldedMax, engineP95Ms: round(q(engineTimes, 0.95)) },
    memory: { peakHeapBytes: heapUsed, peakRssBytes: peakRss - base.rss, ratio: round(heapUsed / decodedSize(bytes)) },
  };
}

function decodedSize(bytes: Uint8Array): number {
  if (sniffEncoding(bytes) !== 'zstd') return bytes.length;
  let n = 0;
  new Decompress((c) => { n += c.length; }).push(bytes, true);
  return n;
}

const round = (x: number) => Math.round(x * 100) / 100;

function zstdOf(text: string): Uint8Array {
  const enc = new TextEncoder();
  const lines = text.split('\n');
  const frames = [zstdRawFrame(enc.encode(lines[0] + '\n'))];
  for (let i = 1; i < lines.length - 1; i += 500) frames.push(zstdRawFrame(enc.encode(lines.slice(i, Math.min(i + 500, lines.length - 1)).join('\n') + '\n')));
  const out = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
  let o = 0;
  for (const f of frames) { out.set(f, o); o += f.length; }
  return out;
}

function print(m: Measure): void {
  const mb = (m.fileBytes / MB).toFixed(1);
  console.log(`\n${m.name}: ${mb} MB, ${m.events} events`);
  console.log(`  load   ${m.load.ms} ms vs baseline ${m.load.baselineMs} ms (decompress + split + JSON.parse): ratio ${m.load.ratio}× (target ≤ 1.5×)`);
  console.log(`  seek   stateAt p50 ${m.seek.p50Ms} ms, p95 ${m.seek.p95Ms} ms, max ${m.seek.maxMs} ms, ≤ ${m.seek.refoldedMax} events re-folded (target p95 ≤ 16 ms); full cursor state p95 ${m.seek.engineP95Ms} ms`);
  console.log(`  memory peak heap ${(m.memory.peakHeapBytes / MB).toFixed(0)} MB, RSS +${(m.memory.peakRssBytes / MB).toFixed(0)} MB: ${m.memory.ratio}× the uncompressed size (target ≤ 2×)`);
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
  const sizes = (flag('sizes') ?? '10,100').split(',').map(Number);
  const results: Measure[] = [];
  for (const size of sizes) {
    // Turn size grows with the session (larger contexts), so calibrate the turn count in two passes.
    let turns = Math.max(1, Math.round((size * MB) / (generateLog({ dialect: 'v0', seed: 1, turns: 10, stepsPerTurn: 5 }).text.length / 10)));
    let text = generateLog({ dialect: 'v0', seed: 1, turns, stepsPerTurn: 5 }).text;
    for (let pass = 0; pass < 2 && Math.abs(text.length / (size * MB) - 1) > 0.25; pass++) {
      turns = Math.max(1, Math.round(turns * ((size * MB) / text.length)));
      text = generateLog({ dialect: 'v0', seed: 1, turns, stepsPerTurn: 5 }).text;
    }
    const plain = new TextEncoder().encode(text);
    for (const [label, bytes] of [['plain', plain], ['zstd', zstdOf(text)]] as const) {
      const m = await measure(`generated ${size} MB (${label})`, bytes);
      print(m);
      results.push(m);
      gc();
    }
  }
  const worst = (f: (m: Measure) => number) => Math.max(...results.map(f));
  console.log('\nsummary');
  console.log(`  load ratio        ${worst((m) => m.load.ratio)}× (worst)   target ≤ 1.5×   ${worst((m) => m.load.ratio) <= 1.5 ? 'met' : 'NOT met'}`);
  console.log(`  seek p95          ${worst((m) => m.seek.p95Ms)} ms (worst)  target ≤ 16 ms  ${worst((m) => m.seek.p95Ms) <= 16 ? 'met' : 'NOT met'}`);
  console.log(`  memory ratio      ${worst((m) => m.memory.ratio)}× (worst)   target ≤ 2×     ${worst((m) => m.memory.ratio) <= 2 ? 'met' : 'NOT met'}`);
  fs.mkdirSync('bench', { recursive: true });
  fs.writeFileSync('bench/report.json', JSON.stringify({ date: new Date().toISOString(), node: process.version, results }, null, 2));
  console.log('  report            bench/report.json');
}
