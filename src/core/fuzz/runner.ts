import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import { Rng } from '../generate/prng.ts';
import { readLog, readLogText } from '../log/reader.ts';
import type { LogEvent, ReadResult } from '../log/types.ts';
import { foldSession, type ArraySessionFold } from '../session/fold-session.ts';
import { loadSession } from '../session/stream-load.ts';
import { projectionsOf } from '../projections/index.ts';
import { analyzePrompts } from '../requests/analyze.ts';
import { applySurfacePlan } from '../surface/apply.ts';
import { foldSurface } from '../surface/fold.ts';
import { planSurfaceEvent } from '../surface/plan.ts';
import { cloneSurface, emptySurface, type SurfaceContext, type SurfaceState } from '../surface/types.ts';
import type { FuzzBase } from './base.ts';
import { decodePlain, mutate, type MutateOptions, type Mutation } from './mutators.ts';
import { bytesReadBack } from '../log/read-back.ts';

/**
 * Runs one mutated log through the core and checks, per case:
 * - nothing throws (read, fold);
 * - time stays within a budget per MB;
 * - determinism: two reads with different chunkings, and the text reader,
 *   give the same result; two folds give the same fold;
 * - the incremental fold (planSurfaceEvent/applySurfacePlan one event at a
 *   time, seeing only earlier events) equals foldSurface from scratch;
 * - every event readable before the fault is still there, and every line is
 *   accounted for (an event, a rejected row, the header, blank, or torn tail);
 * - the fault is explained by a located diagnostic; harmless rewrites change
 *   nothing.
 */
export interface CaseOptions {
  now?: () => number;
  /** Time budget for one read + fold of `bytes` bytes, ms. */
  budgetMs?: (bytes: number) => number;
  /** How many prefixes the incremental fold is compared at. */
  checkpoints?: number;
  /** Plain inputs: skip the second chunked read (the text reader is the second read). */
  light?: boolean;
  /**
   * Bytes in use (JS heap and buffers), where the platform can tell: an
   * expanding input's first read must stay under `memoryCeiling` above
   * the level before it.
   */
  memory?: () => number;
}

/**
 * What reading an expanding input may hold above the level before it: the
 * garbage the engine lets pile up before collecting (buffers are collected
 * after some 64 MB), the open line up to the limit (as pieces, then joined),
 * and the base log several times over — never the expansion itself.
 */
export function memoryCeiling(baseBytes: number, maxLineChars: number): number {
  return 160 * 2 ** 20 + 4 * maxLineChars + 16 * baseBytes;
}

export interface CaseReport {
  failures: string[];
  ms: number;
  bytes: number;
  /** For an expanding input read with a memory probe: the most the first read held above the level before it. */
  held?: number;
}

const enc = new TextEncoder();
export const defaultBudgetMs = (bytes: number): number => 750 + 750 * (bytes / 1e6);

export async function runCase(base: FuzzBase, m: Mutation, rng: Rng, options: CaseOptions = {}): Promise<CaseReport> {
  const now = options.now ?? Date.now;
  const budget = options.budgetMs ?? defaultBudgetMs;
  const failures: string[] = [];
  const fail = (msg: string) => failures.push(msg);
  const bytes = m.bytes ?? enc.encode(m.text ?? '');
  const chunkA = pickChunk(rng, bytes.length);
  const chunkB = pickChunk(rng, bytes.length);
  // Half the streaming loads read their lines back from the "file" (the bytes given), as a dropped file's are.
  const readBack = rng.pick([true, false]) ? bytesReadBack(bytes) : undefined;
  let ms = 0;
  let held: number | undefined;

  const limit = m.maxLineChars === undefined ? {} : { maxLineChars: m.maxLineChars };
  let r1: ReadResult;
  let s1: ArraySessionFold;
  try {
    const t0 = now();
    const sampled = m.expands !== undefined && options.memory ? options.memory : null;
    const floor = sampled?.() ?? 0;
    let peak = floor;
    r1 = await readLog(chunks(bytes, chunkA), { ...limit, onProgress: sampled ? () => { peak = Math.max(peak, sampled()); } : undefined });
    if (sampled) {
      held = peak - floor;
      const ceiling = memoryCeiling(base.bytes.length, m.maxLineChars ?? 0);
      if (peak - floor > ceiling) fail(`memory not bounded: reading ${m.expands} expanded bytes held ${Math.round((peak - floor) / 2 ** 20)} MiB (ceiling ${Math.round(ceiling / 2 ** 20)} MiB)`);
    }
    s1 = foldSession(r1, { steps: true });
    ms = now() - t0;
  } catch (err) {
    return { failures: [`exception in read/fold (chunk ${chunkA}): ${describe(err)}`], ms, bytes: bytes.length };
  }
  try {
    // Everything else the app folds at load must survive the same input.
    projectionsOf(s1).snapshot();
    analyzePrompts(s1);
  } catch (err) {
    fail(`exception in projections/prompt analysis: ${describe(err)}`);
  }
  const size = Math.max(bytes.length, r1.scan.totalBytes);
  if (ms > budget(size)) fail(`too slow: ${ms} ms for ${size} bytes (budget ${Math.round(budget(size))} ms)`);

  try {
    // Determinism and chunk-boundary independence.
    let r2: ReadResult | null = null;
    if (!options.light || m.encoding !== 'plain') {
      r2 = await readLog(chunks(bytes, chunkB), limit);
      diff(canonRead(r1), canonRead(r2), `read with chunk ${chunkA} vs ${chunkB}`, fail);
    }
    if (m.encoding === 'plain') {
      const text = decodePlain(bytes);
      const r3 = readLogText(text, limit);
      const validUtf8 = enc.encode(text).length === bytes.length;
      diff(canonRead(r1, !validUtf8), canonRead(r3, !validUtf8), 'readLog vs readLogText', fail);
      checkAccounting(text, r1, m.maxLineChars, fail);
      r2 ??= r3;
    }
    const s2 = foldSession(r2!, { steps: true });
    diff(canonFold(s1), canonFold(s2), 'fold of two reads', fail);
    checkIncremental(s1, rng, options.checkpoints ?? 3, fail);
    checkPrefix(base, m, bytes, r1, fail);
    checkLocated(s1.diagnostics, fail);
    checkFault(base, m, s1, fail);
    checkEquivalent(base, m, s1, fail);
  } catch (err) {
    fail(`exception in checks: ${describe(err)}`);
  }
  try {
    // The app's streaming load (one pass, events kept as bytes, packed rows in bulk) must give
    // exactly the eager read and fold, whatever the chunking.
    const streamed = await loadSession(chunks(bytes, chunkB), { cacheSize: 8, ...limit, readBack });
    const events: unknown[] = [];
    const origins: unknown[] = [];
    for (let i = 0; i < streamed.events.length; i++) { events.push(eventView(streamed.events.at(i)!)); origins.push(streamed.originAt(i)); }
    const eager = { events: s1.events.map(eventView), origins: s1.events.map((_e, i) => s1.originAt(i)) };
    diff(stable(eager), stable({ events, origins }), `eager events vs streamed (re-parsed${readBack ? ' from the file' : ''}) events`, fail);
    const view = (f: { surface: SurfaceState; diagnostics: unknown; ok: boolean; synthetic: unknown }) =>
      stable({ surface: canonSurface(f.surface), diagnostics: f.diagnostics, ok: f.ok, synthetic: f.synthetic });
    diff(view(s1), view(streamed), 'eager fold vs streaming load', fail);
  } catch (err) {
    fail(`exception in the streaming load: ${describe(err)}`);
  }
  return { failures, ms, bytes: bytes.length, held };
}

// ————————————————————————————————————————— helpers

/** Chunk sizes: tiny ones only for small inputs (they cost an await per chunk, not per MB). */
function pickChunk(rng: Rng, n: number): number {
  const sizes = n <= 16_384 ? [61, 1000, 4096, 65536, Infinity] : n <= 1e6 ? [61, 1000, 4096, 65536, Infinity] : [4096, 16384, 65536, 1 << 20, Infinity];
  return rng.pick(sizes);
}

function* chunks(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  if (!Number.isFinite(size) || size >= bytes.length) { yield bytes; return; }
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

function describe(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}${err.stack ? `\n${err.stack.split('\n').slice(1, 6).join('\n')}` : ''}`;
  return String(err);
}

/** Canonical JSON: sorted keys, Maps as entries, undefined dropped. */
export function canon(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? String(v);
  if (v instanceof Map) return canon([...v.entries()]);
  if (Array.isArray(v)) return '[' + v.map((x) => (x === undefined ? 'null' : canon(x))).join(',') + ']';
  const keys = Object.keys(v).filter((k) => (v as Record<string, unknown>)[k] !== undefined).sort();
  return '{' + keys.map((k) => JSON.stringify(k) + ':' + canon((v as Record<string, unknown>)[k])).join(',') + '}';
}

/** Fast serialization for comparing two results of the same input (same key order); Maps as entries. */
export function stable(v: unknown): string {
  return JSON.stringify(v, (_k, x) => (x instanceof Map ? [...x.entries()] : x === undefined ? null : x)) ?? 'undefined';
}

const eventView = (e: LogEvent) => ({ type: e.type, seq: e.seq, time: e.time, data: e.data, ignorable: e.ignorable, surfaceOp: e.surfaceOp, sourceEventSeqs: e.sourceEventSeqs });

function canonRead(r: ReadResult, ignoreByteCounts = false): string {
  const scan = ignoreByteCounts ? { ...r.scan, totalBytes: 0, committedBytes: 0 } : r.scan;
  return stable({
    header: r.header, version: r.version, dialect: r.dialect,
    events: r.events.map(eventView), origins: r.origins,
    diagnostics: r.diagnostics, tornTail: r.tornTail, scan, rejectedRows: r.rejectedRows,
  });
}

function canonSurface(s: SurfaceState): string {
  return stable({ nodes: s.nodes, nextSeq: s.nextSeq, rg: s.replaceGeneration, cg: s.contentGeneration, projected: s.projected, replacements: s.replacements });
}

function canonFold(s: ArraySessionFold): string {
  return stable({
    synthetic: s.synthetic, surface: canonSurface(s.surface), steps: s.steps, diagnostics: s.diagnostics,
    messages: s.messages.map((m) => m.id), transcript: s.transcript.map((t) => [t.seq, t.status]), ok: s.ok,
  });
}

function diff(a: string, b: string, what: string, fail: (m: string) => void): void {
  if (a === b) return;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  fail(`not deterministic: ${what} differ at char ${i}: …${a.slice(Math.max(0, i - 60), i + 60)}… vs …${b.slice(Math.max(0, i - 60), i + 60)}…`);
}

/** One event at a time on one state, seeing only earlier events, vs foldSurface from scratch. */
function checkIncremental(s: ArraySessionFold, rng: Rng, checkpoints: number, fail: (m: string) => void): void {
  const events = s.events;
  const dialect = s.read.dialect;
  const seen = new Map<number, LogEvent>();
  const ctx: SurfaceContext = { dialect, eventAt: (seq) => seen.get(seq) };
  let state = emptySurface();
  const rejects: string[] = [];
  const at = new Set<number>();
  for (let k = 0; k < checkpoints && events.length; k++) at.add(rng.int(0, events.length - 1));
  const cloneAt = events.length ? rng.int(0, events.length - 1) : -1;
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    seen.set(e.seq, e);
    const plan = planSurfaceEvent(state, e, ctx);
    applySurfacePlan(state, plan);
    if (plan.kind === 'reject') rejects.push(`${plan.code}#${plan.seq}`);
    if (i === cloneAt) state = cloneSurface(state);
    if (at.has(i)) {
      const ref = foldSurface(events.slice(0, i + 1), dialect);
      if (canonSurface(ref.state) !== canonSurface(state)) fail(`incremental fold differs from foldSurface at event ${i} (seq ${e.seq})`);
      const refRejects = ref.diagnostics.map((d) => `${d.code}#${d.seq}`);
      if (stable(refRejects) !== stable(rejects)) fail(`incremental rejections differ at event ${i}: ${rejects.slice(-3)} vs ${refRejects.slice(-3)}`);
    }
  }
  if (canonSurface(state) !== canonSurface(s.surface)) fail('incremental fold differs from the session fold at the end');
}

/** Events readable from the unmutated prefix must still be there, in order, from the same lines. */
function checkPrefix(base: FuzzBase, m: Mutation, bytes: Uint8Array, r: ReadResult, fail: (m: string) => void): void {
  let prefix = m.prefixText;
  if (prefix === undefined) {
    if (m.encoding !== 'plain') return;
    const b = base.bytes;
    let d = 0;
    const n = Math.min(b.length, bytes.length);
    while (d < n && b[d] === bytes[d]) d++;
    let cut = d;
    while (cut > 0 && b[cut - 1] !== 0x0a) cut--;
    prefix = decodePlain(b.subarray(0, cut));
  }
  if (!prefix) return;
  const p = readLogText(prefix);
  if (p.events.length > r.events.length) {
    fail(`lost events: the unmutated prefix reads ${p.events.length} events, the mutated log only ${r.events.length}`);
    return;
  }
  for (let i = 0; i < p.events.length; i++) {
    if (stable(eventView(p.events[i])) !== stable(eventView(r.events[i])) || p.origins[i].line !== r.origins[i].line) {
      fail(`lost event: prefix event ${i} (seq ${p.events[i].seq}, line ${p.origins[i].line}) differs in the mutated read`);
      return;
    }
  }
}

/** Every physical line is an event, a rejected row, the header, blank, or in the torn tail. */
function checkAccounting(text: string, r: ReadResult, maxLineChars: number | undefined, fail: (m: string) => void): void {
  const parts = text.split('\n');
  const carry = parts.pop() ?? '';
  const used = new Set(r.origins.map((o) => o.line));
  for (const x of r.rejectedRows) used.add(x.line);
  const torn = r.diagnostics.find((d) => d.code === 'tail.torn');
  const tornStart = torn?.line ?? Infinity;
  if (r.tornTail && torn?.line === undefined) fail('torn tail diagnostic has no line');
  let sawFirst = false;
  let tornRows = 0;
  for (let i = 0; i < parts.length; i++) {
    const line = i + 1;
    let t = parts[i].endsWith('\r') ? parts[i].slice(0, -1) : parts[i];
    if (i === 0 && t.charCodeAt(0) === 0xfeff) t = t.slice(1);
    // A line over the limit is a row too long to read, whatever it holds (it is never looked at whole).
    const tooLong = maxLineChars !== undefined && parts[i].length > maxLineChars;
    if (!tooLong && (t.length === 0 || t.trim() === '')) continue;
    const first = !sawFirst;
    sawFirst = true;
    if (line >= tornStart) { tornRows++; if (used.has(line) && r.rejectedRows.every((x) => x.line !== line)) fail(`line ${line} is both an event and in the torn tail`); continue; }
    if (first && r.header) continue;
    if (!used.has(line)) { fail(`line ${line} was lost: not an event, not a rejected row, not in the torn tail`); return; }
  }
  if (r.tornTail) {
    if (r.tornTail.rows !== tornRows) fail(`torn tail says ${r.tornTail.rows} rows, lines from ${tornStart} hold ${tornRows}`);
    if (maxLineChars !== undefined && carry.length > maxLineChars) {
      // A partial last line too long to read is counted, not kept.
      if (r.tornTail.bytes < enc.encode(carry).length) fail('the partial last line too long to read is not counted in the torn tail');
    } else if (carry && !r.tornTail.text.endsWith(carry.replace(/\r$/, '')) && !r.tornTail.text.endsWith(carry)) fail('the partial last line is not in the torn tail');
  } else if (carry) {
    fail('a partial last line but no torn tail');
  }
}

function checkLocated(diagnostics: readonly Diagnostic[], fail: (m: string) => void): void {
  const bad = diagnostics.find((d) => d.severity !== 'info' && d.line === undefined && d.seq === undefined);
  if (bad) fail(`diagnostic ${bad.code} has neither line nor seq: ${bad.message}`);
}

const key = (d: Diagnostic) => `${d.code}@${d.line ?? ''}#${d.seq ?? ''}:${d.path ?? ''}`;
/** A torn tail from an earlier line covers a fault inside it (an open bad region became unacknowledged). */
const covers = (d: Diagnostic, line: number) => d.code === 'tail.torn' && d.line !== undefined && d.line <= line;

function checkFault(base: FuzzBase, m: Mutation, s: ArraySessionFold, fail: (m: string) => void): void {
  const f = m.fault;
  const before = new Set(base.fold.diagnostics.map(key));
  const fresh = s.diagnostics.filter((d) => d.severity !== 'info' && !before.has(key(d)));
  switch (f.kind) {
    case 'maybe':
      return;
    case 'none': {
      const count = (ds: readonly Diagnostic[]) => ds.filter((d) => d.severity === 'error').length;
      if (count(s.diagnostics) > count(base.fold.diagnostics)) {
        const extra = s.diagnostics.filter((d) => d.severity === 'error' && !before.has(key(d)))[0];
        fail(`a harmless mutation added error diagnostics, e.g. ${extra ? `${extra.code} line ${extra.line} seq ${extra.seq}: ${extra.message}` : '?'}`);
      }
      return;
    }
    case 'line':
      // A line the base already reported is still explained if it is still reported.
      if (base.fold.diagnostics.some((d) => d.severity !== 'info' && d.line === f.line) && s.diagnostics.some((d) => d.severity !== 'info' && d.line === f.line)) return;
      if (!fresh.some((d) => d.line !== undefined && (covers(d, f.line) || (f.exact ? d.line === f.line : d.line >= f.line)))) {
        fail(`fault at line ${f.line} not explained: no new warning/error diagnostic at ${f.exact ? '' : 'or after '}line ${f.line}; new: ${fresh.slice(0, 4).map((d) => `${d.code}@${d.line ?? '-'}#${d.seq ?? '-'}`).join(', ') || 'none'}`);
      }
      return;
    case 'seq':
      if (!fresh.some((d) => d.seq === f.seq || d.line === f.line || covers(d, f.line))) {
        fail(`fault at seq ${f.seq} (line ${f.line}) not explained; new: ${fresh.slice(0, 4).map((d) => `${d.code}@${d.line ?? '-'}#${d.seq ?? '-'}`).join(', ') || 'none'}`);
      }
  }
}

function checkEquivalent(base: FuzzBase, m: Mutation, s: ArraySessionFold, fail: (m: string) => void): void {
  const eq = m.equivalent;
  if (!eq) return;
  const b = base.fold;
  if (eq.sameEvents) {
    const a = canon(b.read.events.map(eventView));
    const c = canon(s.read.events.map(eventView));
    if (a !== c) diff(a, c, 'events of a harmless rewrite', fail);
    if (canon(b.surface.nodes) !== canon(s.surface.nodes)) fail('a harmless rewrite changed the surface');
  }
  if (eq.seqShift) {
    const at = eq.seqShift.at;
    const mapped = b.surface.nodes.map((n) => (n >= at ? n + 1 : n));
    if (canon(mapped) !== canon(s.surface.nodes)) fail(`an opaque inserted event changed the surface: ${canon(mapped).slice(0, 200)} vs ${canon(s.surface.nodes).slice(0, 200)}`);
    if (b.surface.replaceGeneration !== s.surface.replaceGeneration || b.surface.contentGeneration !== s.surface.contentGeneration) fail('an opaque inserted event changed the generations');
  }
}

// ————————————————————————————————————————— runs

export interface FuzzFailure {
  caseSeed: number;
  base: string;
  mutator: string;
  detail: string;
  failures: string[];
}

export interface FuzzCase {
  caseSeed: number;
  baseName: string;
  base: FuzzBase;
  mutation: Mutation;
  rng: Rng;
}

/** The seed of case `i` of a run: print it, and `--replay` it. */
export function caseSeedOf(runSeed: number, i: number): number {
  let h = (runSeed ^ 0x9e3779b9) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = (h + Math.imul(i + 1, 0xc2b2ae35)) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0x27d4eb2f) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** A case is a pure function of its seed and the base names on offer. */
export function planCase(caseSeed: number, names: readonly string[], getBase: (name: string) => FuzzBase, options: MutateOptions, only?: string): FuzzCase {
  const rng = new Rng(caseSeed);
  const baseName = names[rng.int(0, names.length - 1)];
  const base = getBase(baseName);
  const mutation = mutate(base, rng, options, only);
  return { caseSeed, baseName, base, mutation, rng };
}

export async function runPlannedCase(c: FuzzCase, options: CaseOptions = {}): Promise<CaseReport> {
  return runCase(c.base, c.mutation, c.rng, options);
}
