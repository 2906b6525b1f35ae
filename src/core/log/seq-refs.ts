import { decodeSourceEventSeqs } from './source-seqs.ts';

/**
 * Every place a stored row holds a session seq (dsh-log-rules L2.1, L3,
 * L4.2–L4.3, L6.4), in one table, so whatever renumbers events (an insert, a
 * drop, sessions joined end to end) moves them all by one rule. Positions
 * that are not seqs stay: inbox `start`/`removedCount`, `imageIndexes`, a
 * workflow's own `seq` on `tool-workflow/agent-*`, stream `index`/`dt`.
 * Plugin records are opaque (V4.3): their payloads are never read.
 */

type Row = Record<string, any>;

/** A seq's new value; null when the event it named is gone. */
export type SeqMap = (seq: number) => number | null;

/** What remapping one row found: the references that named an event now gone, by path. */
export interface RemapResult {
  row: Row;
  /** A single reference (an endpoint, a header, a target) whose event is gone: the row is now wrong. */
  lost: string[];
  /** List members (citations) whose event is gone: dropped from the list. */
  dropped: string[];
}

const isObject = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);
const isSeq = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** Payload fields holding one seq, by event type ('*': any type). */
const SINGLE: ReadonlyArray<[type: string, field: string]> = [
  ['developer/message', 'headerSeq'],
  ['request/tool-update', 'headerSeq'],
  ['command/done', 'sourceEventSeq'],
  ['session-log-deepseek/delivery-accepted', 'throughSeq'],
];
/** Payload fields holding a plain list of seqs (never range-encoded, L1.6b). */
const LISTS: ReadonlyArray<[type: string, field: string]> = [
  ['compaction/summary', 'shadowedSeqs'],
  ['compaction/prune', 'shadowedSeqs'],
  ['session/title', 'messageSeqs'],
  ['session/title-llm-request', 'messageSeqs'],
];
const METERING = new Set(['compaction/summary', 'compaction/prune']);

/** Runs of this many consecutive seqs or more are written as a `[start, end]` pair (L1.6b). */
const PAIR_RUN = 3;

/** A strictly increasing list as DSH range-encodes it: runs of PAIR_RUN or more as pairs. */
export function encodeSourceEventSeqs(seqs: readonly number[]): (number | [number, number])[] {
  const out: (number | [number, number])[] = [];
  for (let i = 0; i < seqs.length;) {
    let j = i;
    while (j + 1 < seqs.length && seqs[j + 1] === seqs[j] + 1) j++;
    if (j - i + 1 >= PAIR_RUN) out.push([seqs[i], seqs[j]]);
    else for (let k = i; k <= j; k++) out.push(seqs[k]);
    i = j + 1;
  }
  return out;
}

/**
 * The row with every seq it holds moved by `map` (the envelope's `seq` or a
 * packed row's `seq0` included). A reference to a gone event is kept as it
 * was and reported in `lost`; a gone list member is left out and reported in
 * `dropped`. A row whose seqs all stay is returned as it was.
 */
export function remapRowSeqs(row: Row, map: SeqMap): RemapResult {
  const lost: string[] = [];
  const dropped: string[] = [];
  let out: Row = row;
  const edit = () => (out === row ? (out = { ...row }) : out);
  const one = (value: unknown, path: string): unknown => {
    if (!isSeq(value)) return value;
    const to = map(value);
    if (to === null) { lost.push(path); return value; }
    return to;
  };
  const list = (values: unknown[], path: string): unknown[] => values.flatMap((v) => {
    if (!isSeq(v)) return [v];
    const to = map(v);
    if (to === null) { dropped.push(`${path} ${v}`); return []; }
    return [to];
  });
  for (const key of ['seq', 'seq0']) {
    if (isSeq(row[key])) {
      const to = one(row[key], key);
      if (to !== row[key]) edit()[key] = to;
    }
  }
  const op = row.surfaceOp;
  if (isObject(op)) {
    const moved: Row = { ...op };
    for (const k of ['start', 'end', 'startSeq', 'endSeq']) if (k in op) moved[k] = one(op[k], `surfaceOp.${k}`);
    if (Object.keys(moved).some((k) => moved[k] !== op[k])) edit().surfaceOp = moved;
  }
  if (Array.isArray(row.sourceEventSeqs)) {
    // Bounded by the row's own seq, as the reader decodes it: a wild range is not expanded.
    const decoded = decodeSourceEventSeqs(row.sourceEventSeqs, isSeq(row.seq) ? row.seq : 0);
    if (typeof decoded !== 'string') {
      const moved = list(decoded, 'sourceEventSeqs') as number[];
      const hadPairs = row.sourceEventSeqs.some(Array.isArray);
      if (moved.length !== decoded.length || moved.some((s, i) => s !== decoded[i])) edit().sourceEventSeqs = hadPairs ? encodeSourceEventSeqs(moved) : moved;
    }
  }
  const d = row.data;
  if (!isObject(d) || row.type?.startsWith?.('plugin:')) return { row: out, lost, dropped };
  let data: Row = d;
  const editData = () => (data === d ? (data = { ...d }) : data);
  for (const [type, field] of SINGLE) if (row.type === type && field in d) editData()[field] = one(d[field], `data.${field}`);
  for (const [type, field] of LISTS) if (row.type === type && Array.isArray(d[field])) editData()[field] = list(d[field], `data.${field}`);
  if (METERING.has(row.type) && isObject(d.shadowedRange)) {
    editData().shadowedRange = { ...d.shadowedRange, start: one(d.shadowedRange.start, 'data.shadowedRange.start'), end: one(d.shadowedRange.end, 'data.shadowedRange.end') };
  }
  if (row.type === 'image/offload' && Array.isArray(d.targets)) {
    editData().targets = d.targets.map((t: unknown, i: number) => (isObject(t) ? { ...t, seq: one(t.seq, `data.targets[${i}].seq`) } : t));
  }
  if (data !== d) edit().data = data;
  return { row: out, lost, dropped };
}
