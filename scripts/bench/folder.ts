// The sessions-folder workload: a folder of generated logs summarised as the folder view's
// workers do, and one big log summarised.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { summarizeLog } from '../../src/core/folder/summary.ts';
import { loadSession } from '../../src/core/session/stream-load.ts';
import { peakOf } from './heap.ts';
import { MB, round } from './numbers.ts';

export interface FolderMeasure {
  logs: number;
  bytes: number;
  events: number;
  /** Summaries of every log, one after another (one worker's share; the app runs hardwareConcurrency - 1 of these). */
  summaryMs: number;
  logsPerSec: number;
  /** Same-run baseline: read each file, split it into lines, JSON.parse every line. */
  baselineMs: number;
  ratio: number;
  peakHeapBytes: number;
  peakRssBytes: number;
  /** The process's own peak RSS during the folder (the delta reads 0 when earlier workloads left the pages mapped). */
  processPeakRssBytes: number;
  /** Heap + buffers still held after the folder and a full collection (the summaries themselves). */
  retainedBytes: number;
  /** One big log summarised: peak heap+buffers against its size, and against the app's full streaming load of it. */
  big: { bytes: number; summaryPeakBytes: number; summaryRatio: number; loadPeakBytes: number; loadRatio: number };
}

/**
 * A sessions folder of `count` generated logs (formats 0 and 4, 1–8 turns,
 * every fourth a subagent of the log before it) summarised as the folder
 * view's workers do, with logs per second and peak memory; then one big log
 * summarised, to show a summary's memory does not grow with the log.
 */
export async function folderBench(count: number, bigMb: number): Promise<FolderMeasure> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-bench-folder-'));
  try {
    let bytes = 0;
    let parentId: string | null = null;
    for (let i = 0; i < count; i++) {
      const log = generateLog({ dialect: i % 3 === 0 ? 'v4' : 'v0', seed: 100 + i, turns: 1 + (i % 8), stepsPerTurn: 3 });
      const header = { ...(log.header as Record<string, unknown>), id: `bench-${i}` };
      if (i % 4 === 3 && parentId) Object.assign(header, { parentSession: parentId, origin: 'subagent', delegationDepth: 1 });
      else parentId = header.id as string;
      const text = [JSON.stringify(header), ...log.lines.slice(1)].join('\n') + '\n';
      const sub = path.join(dir, `project-${i % 10}`);
      fs.mkdirSync(sub, { recursive: true });
      fs.writeFileSync(path.join(sub, `session-${i}.jsonl`), text);
      bytes += text.length;
    }
    const files = fs.readdirSync(dir).flatMap((d) => fs.readdirSync(path.join(dir, d)).map((f) => path.join(dir, d, f)));
    // Warm both passes up on a few logs, so neither measured pass pays for JIT compilation.
    const parseAll = (list: string[]) => { for (const f of list) for (const line of fs.readFileSync(f, 'utf8').split('\n')) if (line) JSON.parse(line); };
    parseAll(files.slice(0, 20));
    for (const f of files.slice(0, 20)) await summarizeLog(() => fs.createReadStream(f) as AsyncIterable<Uint8Array>, { file: f, size: 0 });
    const base0 = performance.now();
    parseAll(files);
    const baselineMs = performance.now() - base0;
    let events = 0;
    const run = await peakOf(async () => {
      const rows = [];
      for (const f of files) {
        const s = await summarizeLog(() => fs.createReadStream(f, { highWaterMark: 1 << 20 }) as AsyncIterable<Uint8Array>, { file: f, size: fs.statSync(f).size });
        events += s.events;
        rows.push(s);
      }
      return rows;
    });
    const big = await bigSummary(bigMb);
    return {
      logs: files.length, bytes, events, summaryMs: round(run.ms), logsPerSec: round(files.length / (run.ms / 1000)),
      baselineMs: round(baselineMs), ratio: round(run.ms / baselineMs), peakHeapBytes: run.heap, peakRssBytes: run.rss, processPeakRssBytes: run.peakRss, retainedBytes: run.retained, big,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function bigSummary(mb: number): Promise<FolderMeasure['big']> {
  let turns = 8;
  let text = generateLog({ dialect: 'v0', seed: 7, turns, stepsPerTurn: 5 }).text;
  turns = Math.max(1, Math.round(turns * ((mb * MB) / text.length)));
  text = generateLog({ dialect: 'v0', seed: 7, turns, stepsPerTurn: 5 }).text;
  // Read from disk as the CLI and a worker read a file: nothing of the log is in memory before the pass.
  const file = path.join(os.tmpdir(), `dsh-bench-big-${process.pid}.jsonl`);
  fs.writeFileSync(file, text);
  text = '';
  const size = fs.statSync(file).size;
  const stream = () => fs.createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Uint8Array>;
  try {
    const summary = await peakOf(() => summarizeLog(stream, { file: 'big.jsonl', size }));
    const load = await peakOf(() => loadSession(stream(), { sizeHint: size }));
    return {
      bytes: size, summaryPeakBytes: summary.heap, summaryRatio: round(summary.heap / size),
      loadPeakBytes: load.heap, loadRatio: round(load.heap / size),
    };
  } finally {
    fs.rmSync(file, { force: true });
  }
}
