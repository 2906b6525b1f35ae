// The loads the bench times, and the baseline they are compared with: the bare decode + split +
// JSON.parse, the core pass, and the app's worker load from a dropped file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Decompress } from 'fzstd';
import { sniffEncoding } from '../../src/core/log/bytes.ts';
import { Replay, ReplayBuilder } from '../../src/core/replay/replay-index.ts';
import { BYTES_PER_EVENT, loadSession } from '../../src/core/session/stream-load.ts';
import { Engine } from '../../src/worker/engine.ts';
import { nodeProjector } from '../node-projector.ts';
import { pathReadBack } from '../node-source.ts';
import { readAheadFile } from '../dropped-file.ts';
import { MB } from './numbers.ts';

/** The baseline: decompress, split lines and JSON.parse each one — the least any viewer must do. */
export function baseline(bytes: Uint8Array): number {
  const start = performance.now();
  const decoded = new TextDecoder().decode(plaintextOf(bytes));
  let s = 0;
  for (;;) {
    const nl = decoded.indexOf('\n', s);
    if (nl < 0) break;
    if (nl > s) JSON.parse(decoded.slice(s, nl));
    s = nl + 1;
  }
  return performance.now() - start;
}

/** The file's plaintext: a zstd file decompressed whole, as the baseline does it. */
export function plaintextOf(bytes: Uint8Array): Uint8Array {
  if (sniffEncoding(bytes) !== 'zstd') return bytes;
  const parts: Uint8Array[] = [];
  new Decompress((c) => { parts.push(c); }).push(bytes, true);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

export function decodedSize(bytes: Uint8Array): number {
  if (sniffEncoding(bytes) !== 'zstd') return bytes.length;
  let n = 0;
  new Decompress((c) => { n += c.length; }).push(bytes, true);
  return n;
}

/** The bytes as a stream of 1 MiB views (no copy, like the baseline's input). */
export function* pieces(bytes: Uint8Array, size = 1 << 20): Generator<Uint8Array> {
  for (let o = 0; o < bytes.length; o += size) yield bytes.subarray(o, Math.min(bytes.length, o + size));
}

/** The core pass the issue calls load: stream → decode → read → fold → replay index. */
export async function coreLoad(source: Iterable<Uint8Array> | AsyncIterable<Uint8Array>, sizeHint: number): Promise<Replay> {
  let builder: ReplayBuilder | null = null;
  const session = await loadSession(source, { sizeHint, riders: (_meta, store) => [(builder = ReplayBuilder.forStore(store, { capacity: sizeHint / BYTES_PER_EVENT }))] });
  builder ??= new ReplayBuilder();
  return new Replay(session, (builder as ReplayBuilder).finish(session.loggedCount));
}

/**
 * The bytes as a dropped file is to the app: a Blob backed by a file on disk whose stream reads
 * ahead as a browser's File stream does (`readAheadFile`), and, for comparison, Node's own
 * file-backed Blob, which reads 64 KiB only when asked. An in-memory Blob's stream in Node hands
 * over the whole blob as one chunk, copied into a new buffer: on the real-shaped 1M log that copy
 * (page faults on 120 MB of fresh memory) was 420 ms of a 3.5 s load and 0.7 ms of the 100k one's,
 * which the per-event growth read as the app's. The projection helper gets an in-memory twin (Node
 * cannot post a file-backed Blob to a worker thread; a browser hands both workers the same File).
 */
export async function droppedFile(bytes: Uint8Array): Promise<{ file: Blob; nodeFile: Blob; remove(): void }> {
  const at = path.join(os.tmpdir(), `dsh-bench-drop-${process.pid}-${droppedFiles++}.bin`);
  fs.writeFileSync(at, bytes);
  const file = await readAheadFile(at);
  const nodeFile = await fs.openAsBlob(at);
  const helper = await projectionHelper();
  // One in-memory twin for both: the helper only reads it.
  const twin = helper ? inMemoryBlob(at) : null;
  for (const blob of [file, nodeFile]) {
    blobPaths.set(blob, at);
    if (helper && twin) helper.twin(blob, twin);
  }
  droppedPaths.add(at);
  return { file, nodeFile, remove: () => { fs.rmSync(at, { force: true }); droppedPaths.delete(at); } };
}

let droppedFiles = 0;

/** Where each file-backed Blob lies: the engine reads a plain log's lines back from it, as the worker reads a File back. */
export const blobPaths = new WeakMap<Blob, string>();

export const readBackOf = (blob: Blob) => { const at = blobPaths.get(blob); return at ? pathReadBack(at) : null; };

/** Copies not yet removed: removed at exit too, when a load throws before its caller removes them. */
export const droppedPaths = new Set<string>();

process.once('exit', () => { for (const at of droppedPaths) fs.rmSync(at, { force: true }); });

/** The worker's load from a Blob, read through its stream as the app reads a dropped file. */
export async function workerLoad(bytes: Uint8Array, name: string, helped = true) {
  const blob = new Blob([bytes as Uint8Array<ArrayBuffer>]);
  return workerLoadFrom(blob, name, helped);
}

/**
 * The worker's load as the app does it: then the display columns go to the
 * page (transferred, no longer the worker's), as `handle('load')` does.
 */
export async function workerLoadFrom(blob: Blob, name: string, helped = true) {
  const engine = new Engine({ projector: helped ? (await projectionHelper())?.projector : undefined, readBack: readBackOf });
  const summary = await engine.load({ kind: 'file', file: blob, name }, () => {});
  const columns = (engine as unknown as { replay: Replay }).replay.handOverColumns();
  return { engine, summary: { ...summary, columns } };
}

/**
 * The app's second load worker, which folds the projection units on another
 * core (docs/long-sessions.md): a worker thread here, started once before any timing as
 * the app starts its helper with the page. The app starts it from 4 cores,
 * since its page and load worker keep two busy; here there is no page, so
 * from 2. BENCH_HELPER=0 loads without it.
 */
let helper: Promise<Awaited<ReturnType<typeof nodeProjector>> | null> | null = null;

export function projectionHelper() {
  helper ??= process.env.BENCH_HELPER === '0' || os.availableParallelism() < 2 ? Promise.resolve(null) : nodeProjector();
  return helper;
}

/**
 * The file as an in-memory Blob, read in 4 MiB pieces through one buffer. Not from one
 * readFileSync: that buffer, as big as the file, is garbage once the Blob has copied it, and its
 * release reaches the accounting late — it sat in the level the peak is measured above, then left
 * during the load, so peaks and retained sizes read up to the file's size too low (a 160 MB log
 * read "retained 0.2×").
 */
export function inMemoryBlob(file: string): Blob {
  const fd = fs.openSync(file, 'r');
  const piece = new Uint8Array(4 * MB);
  const parts: Blob[] = [];
  try {
    for (let n; (n = fs.readSync(fd, piece, 0, piece.length, null)) > 0; ) parts.push(new Blob([piece.subarray(0, n)]));
  } finally {
    fs.closeSync(fd);
  }
  return new Blob(parts);
}

/**
 * The baseline's work on a file, pausing every 2,000 lines so the memory
 * sampler runs (a synchronous loop would show only its end).
 */
export async function baselineYielding(file: string): Promise<number> {
  const decoded = new TextDecoder().decode(plaintextOf(new Uint8Array(fs.readFileSync(file))));
  let rows = 0;
  for (let s = 0, n = 0; ; ) {
    const nl = decoded.indexOf('\n', s);
    if (nl < 0) break;
    if (nl > s) { JSON.parse(decoded.slice(s, nl)); rows++; }
    s = nl + 1;
    if (++n % 2000 === 0) await new Promise((r) => setImmediate(r));
  }
  return rows;
}
