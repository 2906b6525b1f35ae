// The logs the bench measures: generated ones of a size, long never-compacted sessions
// (generated, real-shaped from the corpus, format 4), and the 1 GB stream.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zstdRawFrame } from '../../src/core/fuzz/encode.ts';
import { generateLog, streamLog } from '../../src/core/generate/generate-log.ts';
import { concatSessions } from '../../src/core/generate/concat-sessions.ts';
import { peakOf } from './heap.ts';
import { coreLoad } from './loads.ts';
import { MB, round } from './numbers.ts';

export function zstdOf(text: string): Uint8Array {
  const enc = new TextEncoder();
  const lines = text.split('\n');
  const frames = [zstdRawFrame(enc.encode(lines[0] + '\n'))];
  for (let i = 1; i < lines.length - 1; i += 500) frames.push(zstdRawFrame(enc.encode(lines.slice(i, Math.min(i + 500, lines.length - 1)).join('\n') + '\n')));
  const out = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
  let o = 0;
  for (const f of frames) { out.set(f, o); o += f.length; }
  return out;
}

/** A generated long session of about `events` events (no compaction, 1M-token window). */
export function generatedLong(events: number): Uint8Array {
  const lines: string[] = [];
  streamLog({ dialect: 'v0', seed: 5, turns: Math.max(1, Math.ceil(events / 2750)), long: true }, (line) => { lines.push(line); });
  return new TextEncoder().encode(lines.join('\n') + '\n');
}

/**
 * A generated long session as DSH 0.2.1 writes it (format 4: streams embedded in the assistant
 * messages, no chunk lines): about 780 bytes an event, so only up to 200k events (the 1M one would
 * be a 760 MB file, past what the baseline can hold as one string); null above.
 */
export function generatedLongV4(events: number): Uint8Array | null {
  if (events > 200_000) return null;
  const shape = { dialect: 'v4' as const, dsh021: true, long: true, seed: 5 };
  const sample = generateLog({ ...shape, turns: 8 });
  const lines: string[] = [];
  streamLog({ ...shape, turns: Math.max(1, Math.round((events / sample.events.length) * 8)) }, (line) => { lines.push(line); });
  return new TextEncoder().encode(lines.join('\n') + '\n');
}

/** Real corpus logs made into one never-compacted session of about `events` events; null without the corpus. */
export function realLong(events: number): Uint8Array | null {
  const dir = path.resolve(process.env.DSH_CORPUS ?? '../shared/corpus', 'dsh');
  if (!fs.existsSync(dir)) return null;
  const parts = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()
    .map((name) => ({ name, text: fs.readFileSync(path.join(dir, name), 'utf8') }))
    .filter((p) => ((JSON.parse(p.text.slice(0, p.text.indexOf('\n'))) as { version?: number }).version ?? 0) === 0);
  const long = concatSessions(parts, { targetEvents: events });
  return long.events ? new TextEncoder().encode(long.lines.join('\n') + '\n') : null;
}

/**
 * The 1 GB run: a generated log streamed (never held whole, as text or
 * events) through the reader, the fold and the replay index.
 */
export async function gigabyteRun(targetBytes: number): Promise<{ bytes: number; events: number; ms: number; genMs: number; peakRssBytes: number; peakHeapBytes: number; mbPerSec: number }> {
  // Written to a temporary file line by line (the generator keeps no events) until the size is
  // reached — the log then ends inside a turn, as a crashed session does — then streamed from disk.
  const file = path.join(os.tmpdir(), `dsh-bench-${process.pid}.jsonl`);
  const genStart = performance.now();
  const fd = fs.openSync(file, 'w');
  let buffer: string[] = [];
  let size = 0;
  let written = 0;
  const enough = new Error('enough');
  const flush = () => { fs.writeSync(fd, buffer.join('\n') + '\n'); written += size + buffer.length; buffer = []; size = 0; };
  try {
    streamLog({ dialect: 'v0', seed: 3, turns: 1_000_000, stepsPerTurn: 5 }, (line) => {
      buffer.push(line);
      size += line.length;
      if (size > 8 * MB) flush();
      if (written >= targetBytes) throw enough;
    });
  } catch (err) {
    if (err !== enough) throw err;
  }
  if (buffer.length) flush();
  fs.closeSync(fd);
  const genMs = performance.now() - genStart;
  const bytes = fs.statSync(file).size;
  try {
    const run = await peakOf(() => coreLoad(fs.createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Uint8Array>, bytes));
    return { bytes, events: run.value.index.count, ms: round(run.ms), genMs: round(genMs), peakRssBytes: run.peakRss, peakHeapBytes: run.heap, mbPerSec: round(bytes / MB / (run.ms / 1000)) };
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** A generated log (format 0, compacting as DSH does) of about `mb` megabytes. */
export function generatedOfSize(mb: number): string {
  // Turn size grows with the session (larger contexts), so calibrate the turn count in two passes.
  let turns = Math.max(1, Math.round((mb * MB) / (generateLog({ dialect: 'v0', seed: 1, turns: 10, stepsPerTurn: 5 }).text.length / 10)));
  let text = generateLog({ dialect: 'v0', seed: 1, turns, stepsPerTurn: 5 }).text;
  for (let pass = 0; pass < 2 && Math.abs(text.length / (mb * MB) - 1) > 0.25; pass++) {
    turns = Math.max(1, Math.round(turns * ((mb * MB) / text.length)));
    text = generateLog({ dialect: 'v0', seed: 1, turns, stepsPerTurn: 5 }).text;
  }
  return text;
}
