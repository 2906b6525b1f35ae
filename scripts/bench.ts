// `npm run bench`: throughput of the core, reported as ratios against bare
// JSON.parse of the same lines in the same run (machine speed cancels out).
// Inputs: a long generated log (always), the largest corpus log and a
// ~100 MB file made by repeating corpus rows (when DSH_CORPUS is present).
import fs from 'node:fs';
import path from 'node:path';
import { generateLog } from '../src/core/generate/generate-log.ts';
import { readLog, readLogText } from '../src/core/log/reader.ts';
import { foldSession } from '../src/core/session/fold-session.ts';
import { foldSurface } from '../src/core/surface/fold.ts';
import { Replay } from '../src/core/replay/replay-index.ts';

const MB = 1024 * 1024;
const args = process.argv.slice(2);
const bigMb = Number(args[args.indexOf('--mb') + 1]) || 100;

function time<T>(fn: () => T, minMs = 300): { ms: number; value: T } {
  let runs = 0;
  let value!: T;
  const start = performance.now();
  do { value = fn(); runs++; } while (performance.now() - start < minMs);
  return { ms: (performance.now() - start) / runs, value };
}

function jsonParseBaseline(text: string): number {
  let n = 0;
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    if (nl > start) { JSON.parse(text.slice(start, nl)); n++; }
    start = nl + 1;
  }
  return n;
}

/** Repeats a log's event rows, renumbering seqs so the result is one valid log. */
function repeatRows(text: string, targetBytes: number): string {
  const [headerLine, ...rows] = text.split('\n').filter(Boolean);
  const parsed = rows.map((r) => JSON.parse(r));
  const out: string[] = [headerLine];
  let bytes = headerLine.length;
  let seq = 0;
  while (bytes < targetBytes) {
    for (const row of parsed) {
      const copy = { ...row };
      if ('seq0' in copy) { copy.seq0 = seq; seq += copy.data.texts?.length ?? copy.data.args.length; }
      else { copy.seq = seq++; }
      if (copy.surfaceOp && copy.surfaceOp !== 'append') copy.surfaceOp = 'append'; // keep replaces valid after renumbering
      if (copy.sourceEventSeqs) delete copy.sourceEventSeqs;
      const line = JSON.stringify(copy);
      out.push(line);
      bytes += line.length + 1;
    }
  }
  return out.join('\n') + '\n';
}

function report(name: string, text: string): void {
  const mb = Buffer.byteLength(text) / MB;
  const parse = time(() => jsonParseBaseline(text));
  const read = time(() => readLogText(text));
  const events = read.value.events.length;
  const fold = time(() => foldSurface(read.value.events, read.value.dialect));
  const session = time(() => foldSession(read.value));
  const row = (label: string, ms: number) => `  ${label.padEnd(28)} ${ms.toFixed(1).padStart(9)} ms  ${(mb / (ms / 1000)).toFixed(1).padStart(8)} MB/s  ${(events / (ms / 1000) / 1e6).toFixed(2).padStart(6)} M events/s  ${(ms / parse.ms).toFixed(2).padStart(6)}× JSON.parse`;
  console.log(`\n${name}: ${mb.toFixed(1)} MB, ${events} events (${parse.value} lines)`);
  console.log(row('JSON.parse of the lines', parse.ms));
  console.log(row('read (reader, all checks)', read.ms));
  console.log(row('surface fold', fold.ms));
  console.log(row('session fold (+messages)', session.ms));
}

const generated = generateLog({ dialect: 'v0', seed: 1, turns: 400, stepsPerTurn: 5 }).text;
report('generated V0 log', generated);
checkpointSpacing(generated);

/**
 * The replay index's checkpoint spacing K: a cursor move costs one clone and
 * up to K-1 forward steps; memory is one surface clone per K events. Reported
 * per K so the default (Replay's 2048) stays a measured choice.
 */
function checkpointSpacing(text: string): void {
  const session = foldSession(readLogText(text));
  const n = session.events.length;
  console.log(`\nreplay checkpoints on ${n} events (random cursor moves):`);
  for (const k of [256, 1024, 2048, 4096, 16384]) {
    const build = time(() => new Replay(session, k), 200);
    const replay = build.value;
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const move = time(() => replay.surfaceAt(next()), 200);
    const nodes = Math.round(session.surface.nodes.length * (n / k));
    console.log(`  K=${String(k).padEnd(6)} build ${build.ms.toFixed(0).padStart(5)} ms  cursor move ${move.ms.toFixed(2).padStart(7)} ms  ~${nodes} checkpointed node entries`);
  }
}

const corpus = path.resolve(process.env.DSH_CORPUS ?? '../shared/corpus', 'dsh');
if (fs.existsSync(corpus)) {
  const files = fs.readdirSync(corpus).map((f) => path.join(corpus, f));
  const largest = files.reduce((a, b) => (fs.statSync(a).size >= fs.statSync(b).size ? a : b));
  const text = fs.readFileSync(largest, 'utf8');
  report(`largest corpus log (${path.basename(largest)})`, text);
  const big = repeatRows(text, bigMb * MB);
  report(`~${bigMb} MB of repeated corpus rows`, big);
  // Streaming path (what the worker runs): chunks of 1 MiB through the byte decoder.
  const bytes = Buffer.from(big);
  const start = performance.now();
  await readLog((function* () { for (let o = 0; o < bytes.length; o += MB) yield bytes.subarray(o, o + MB); })());
  const ms = performance.now() - start;
  console.log(`  ${'streaming read (1 MiB chunks)'.padEnd(28)} ${ms.toFixed(1).padStart(9)} ms  ${(bytes.length / MB / (ms / 1000)).toFixed(1).padStart(8)} MB/s`);
} else {
  console.log(`\n(corpus not found at ${corpus}: corpus benchmarks skipped)`);
}
