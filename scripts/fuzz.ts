// `npm run fuzz -- --minutes N [--seed S] [--workers W] [--only MUTATOR] [--no-corpus]`
// `npm run fuzz -- --replay CASE_SEED [--bases tiny|small|large]`
//
// Mutates generated logs and (when present) the real logs in
// ${DSH_CORPUS:-../shared/corpus}/dsh, and checks every case with the core's
// fuzz runner (src/core/fuzz). Cases run in worker threads with a memory cap;
// a case that hangs or exhausts memory is reported by its seed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { BasePool, type BaseSize } from '../src/core/fuzz/base.ts';
import { caseSeedOf, planCase, runPlannedCase } from '../src/core/fuzz/runner.ts';
import { installCliErrors } from './cli.ts';

interface Args {
  minutes: number;
  seed: number;
  workers: number;
  only?: string;
  corpus: boolean;
  replay?: number;
  bases: BaseSize;
}

function parseArgs(argv: string[]): Args {
  const get = (name: string) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : undefined; };
  return {
    minutes: Number(get('minutes') ?? 1),
    seed: get('seed') !== undefined ? Number(get('seed')) : Date.now() % 2 ** 31,
    workers: Number(get('workers') ?? Math.max(1, Math.min(4, os.cpus().length))),
    only: get('only'),
    corpus: !argv.includes('--no-corpus'),
    replay: get('replay') !== undefined ? Number(get('replay')) : undefined,
    bases: (get('bases') as BaseSize | undefined) ?? 'small',
  };
}

function loadCorpus(): Map<string, string> {
  const dir = path.join(process.env.DSH_CORPUS ?? path.resolve('../shared/corpus'), 'dsh');
  const out = new Map<string, string>();
  if (!fs.existsSync(dir)) return out;
  for (const f of fs.readdirSync(dir).sort()) if (f.endsWith('.jsonl')) out.set(f, fs.readFileSync(path.join(dir, f), 'utf8'));
  return out;
}

const HUGE: [number, number] = [1_000, 50_000_000];
/** Decoded sizes of the expanding zstd/gzip inputs: up to a gigabyte from a few kilobytes. */
const BOMB: [number, number] = [1_000_000, 1_000_000_000];
/** This thread's JS heap and buffers (per isolate: other workers' cases do not count). */
const memory = () => { const h = v8.getHeapStatistics(); return h.used_heap_size + h.external_memory; };
const HANG_MS = 120_000;
const MEMORY_MB = 4096;

interface WorkerIn { args: Args; index: number; stride: number; start: number; deadline: number }
type WorkerOut =
  | { kind: 'start'; i: number; caseSeed: number }
  | { kind: 'done'; i: number; caseSeed: number; base: string; mutator: string; detail: string; failures: string[]; ms: number; bytes: number }
  | { kind: 'end' };

async function workerMain(): Promise<void> {
  const { args, index, stride, start, deadline } = workerData as WorkerIn;
  const pool = new BasePool(32, args.bases, args.corpus ? loadCorpus() : new Map());
  const post = (m: WorkerOut) => parentPort!.postMessage(m);
  for (let i = start + index; Date.now() < deadline; i += stride) {
    const caseSeed = caseSeedOf(args.seed, i);
    post({ kind: 'start', i, caseSeed });
    const c = planCase(caseSeed, pool.names, (n) => pool.get(n), { hugeBytes: HUGE, bombBytes: BOMB }, args.only);
    const r = await runPlannedCase(c, { memory });
    post({ kind: 'done', i, caseSeed, base: c.baseName, mutator: c.mutation.mutator, detail: c.mutation.detail, failures: r.failures, ms: r.ms, bytes: r.bytes });
  }
  post({ kind: 'end' });
}

async function replay(args: Args): Promise<void> {
  const pool = new BasePool(32, args.bases, args.corpus ? loadCorpus() : new Map());
  const c = planCase(args.replay!, pool.names, (n) => pool.get(n), { hugeBytes: HUGE, bombBytes: BOMB }, args.only);
  console.log(`case ${args.replay}: base ${c.baseName}, ${c.mutation.mutator}: ${c.mutation.detail}`);
  const r = await runPlannedCase(c, { memory });
  console.log(r.failures.length ? `FAIL\n  ${r.failures.join('\n  ')}` : `ok (${r.ms} ms, ${r.bytes} bytes)`);
  process.exitCode = r.failures.length ? 1 : 0;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.replay !== undefined) return replay(args);
  const corpus = args.corpus ? loadCorpus().size : 0;
  console.log(`fuzz: seed ${args.seed}, ${args.minutes} min, ${args.workers} worker(s), bases: 96 generated (${args.bases}; v0, v4, dsh021)${corpus ? ` + ${corpus} corpus logs` : ''}${args.only ? `, only ${args.only}` : ''}`);
  const t0 = Date.now();
  const deadline = t0 + args.minutes * 60_000;
  let cases = 0;
  let bytes = 0;
  const failures: string[] = [];
  const byMutator = new Map<string, number>();
  let next = 0; // the first case index a restarted worker may take
  const stride = args.workers;

  const runWorker = (index: number, start: number): Promise<void> => new Promise((resolve) => {
    // A worker does not inherit tsx's loader: register it, then load this file.
    const shim = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(import.meta.url)}); });`;
    const w = new Worker(shim, {
      eval: true,
      workerData: { args, index, stride, start, deadline } satisfies WorkerIn,
      resourceLimits: { maxOldGenerationSizeMb: MEMORY_MB },
    });
    let current: { i: number; caseSeed: number; since: number } | null = null;
    let ended = false;
    const watchdog = setInterval(() => {
      if (current && Date.now() - current.since > HANG_MS) {
        failures.push(`case ${current.caseSeed}: hang (> ${HANG_MS / 1000} s); replay: npm run fuzz -- --replay ${current.caseSeed} --bases ${args.bases}`);
        const resumeAt = current.i + stride;
        current = null;
        ended = true;
        clearInterval(watchdog);
        void w.terminate().then(() => resolve(Date.now() < deadline ? runWorker(index, resumeAt - index) : undefined));
      }
    }, 1000);
    w.on('message', (m: WorkerOut) => {
      started = true;
      if (m.kind === 'start') current = { i: m.i, caseSeed: m.caseSeed, since: Date.now() };
      else if (m.kind === 'done') {
        current = null;
        cases++;
        bytes += m.bytes;
        byMutator.set(m.mutator, (byMutator.get(m.mutator) ?? 0) + 1);
        if (m.failures.length) {
          const line = `case ${m.caseSeed} (${m.base}, ${m.mutator}: ${m.detail}):\n    ${m.failures.join('\n    ')}\n    replay: npm run fuzz -- --replay ${m.caseSeed} --bases ${args.bases}${args.corpus ? '' : ' --no-corpus'}`;
          failures.push(line);
          console.log(`FAIL ${line}`);
        }
        next = Math.max(next, m.i + 1);
      } else ended = true;
    });
    let started = false;
    w.on('error', (err) => {
      if (!started) { console.error(`fuzz worker failed to start: ${err.message}`); ended = true; process.exitCode = 2; }
      if (current) failures.push(`case ${current.caseSeed}: worker died (${err.message}); replay: npm run fuzz -- --replay ${current.caseSeed} --bases ${args.bases}`);
    });
    w.on('exit', () => {
      clearInterval(watchdog);
      if (ended) return resolve();
      // Died mid-case (out of memory): carry on after that case.
      const resumeAt = current ? current.i + stride : next;
      current = null;
      resolve(Date.now() < deadline ? runWorker(index, resumeAt - index) : undefined);
    });
  });

  await Promise.all(Array.from({ length: args.workers }, (_, k) => runWorker(k, 0)));
  const minutes = (Date.now() - t0) / 60_000;
  console.log(`\nfuzz: ${cases} cases in ${minutes.toFixed(2)} min = ${Math.round(cases / minutes)} cases/min, ${(bytes / 1e6).toFixed(1)} MB read, ${failures.length} failure(s); seed ${args.seed}`);
  console.log(`by mutator: ${[...byMutator].sort().map(([k, n]) => `${k} ${n}`).join(', ')}`);
  process.exitCode = failures.length ? 1 : 0;
}

if (isMainThread) {
  installCliErrors('fuzz');
  await main();
} else await workerMain();
