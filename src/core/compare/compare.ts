import { alignCalls, type CallKey } from './align.ts';
import { forkRelation, type ForkRelation } from './fork.ts';
import { RequestParts, type DiffKind } from './request-parts.ts';
import type { CompareRun } from './run.ts';
import { summarizeRun, type RunSummary } from './summary.ts';
import { buildTrails, firstDifferingMessage, TrailCursor, type CallTrail, type TrailBuild } from './trail.ts';
import { ANALYSES, partialFrom } from '../session/verdict.ts';

/**
 * Two runs compared call by call (docs/compare.md): the calls aligned, each
 * aligned pair checked part by part, the differences listed in order.
 * Cheap fields decide first (header identity, prompt text, message-list
 * identity from the trails); no call's context is derived here except where
 * a trail needs it (after a replace), so two 30k-call logs compare in one
 * pass over their calls.
 */
export interface Divergence {
  /** 1-based call numbers in each log's `requests` order. */
  callA: number;
  callB: number;
  /** The calls' cut seqs. */
  seqA: number;
  seqB: number;
  /** The most telling differing part (config, then system, tools, messages). */
  what: DiffKind;
  /** With `messages`: 0-based index of the first differing message (also how many leading messages are equal). */
  messageIndex?: number;
  /** Every differing part. */
  kinds: DiffKind[];
  /** Index of the pair in `rows`. */
  row: number;
}

/** A call only one run made. */
export interface Gap {
  side: 'a' | 'b';
  /** 1-based call number in that log. */
  call: number;
  seq: number;
  turn: number;
  step: number;
  attempt: number;
  row: number;
}

export type RowStatus = 'same' | 'differs' | 'a-only' | 'b-only';

/** One aligned row: 0-based call indexes (null for the gap side). */
export interface CompareRow {
  a: number | null;
  b: number | null;
  status: RowStatus;
  what?: DiffKind;
  kinds?: DiffKind[];
  messageIndex?: number;
  /** The child's call is one it inherited from the parent (cut before the fork). */
  inherited?: boolean;
}

/** Why part of a comparison cannot be trusted or made. */
export interface CompareNote {
  side: 'a' | 'b' | 'both';
  kind: 'not-dsh' | 'dsh-refuses' | 'newer-than-app' | 'no-calls' | 'not-parent';
  message: string;
  /** The calls cut from this seq on are the ones the note is about (absent: the whole log). */
  fromSeq?: number;
}

export interface CompareReport {
  /** Every call aligned with an equal request and no gap, and both are DSH logs. */
  identical: boolean;
  calls: { a: number; b: number; aligned: number };
  firstDivergence: Divergence | null;
  divergences: Divergence[];
  gaps: Gap[];
  fork: ForkRelation | null;
  notes: CompareNote[];
  summary: { a: RunSummary; b: RunSummary };
  rows: CompareRow[];
}

/** Each call's trail and request identity: what the alignment and the pair checks read. */
function keysOf(run: CompareRun, built: TrailBuild, side: 'a' | 'b', parts: RequestParts): { trails: CallTrail[]; keys: CallKey[] } {
  const { trails } = built;
  const keys = run.requests.map((r, i) => ({ turn: r.turn, step: r.step, identity: parts.identity(r, side, trails[i].sig) }));
  return { trails, keys };
}

/**
 * The comparison of two runs. `trails`: each run's message trails, when the
 * caller has them (the compare slot keeps its open log's; a what-if's edited
 * run resumes from the original's: buildTrails).
 */
export function compareRuns(a: CompareRun, b: CompareRun, trails: { a: TrailBuild; b: TrailBuild } = { a: buildTrails(a), b: buildTrails(b) }): CompareReport {
  const parts = new RequestParts();
  const left = keysOf(a, trails.a, 'a', parts);
  const right = keysOf(b, trails.b, 'b', parts);
  const fork = forkRelation(a, b);
  const aligned = alignCalls(left.keys, right.keys);
  const ca = new TrailCursor();
  const cb = new TrailCursor();
  const rows: CompareRow[] = [];
  const divergences: Divergence[] = [];
  const gaps: Gap[] = [];
  const inheritedBefore = fork ? fork.cutSeq : -1;
  for (const pair of aligned) {
    const row = rows.length;
    // Every call of a run appears once, in order: the cursors follow each run's own call sequence.
    if (pair.a !== null) ca.apply(left.trails[pair.a]);
    if (pair.b !== null) cb.apply(right.trails[pair.b]);
    if (pair.a === null || pair.b === null) {
      const side = pair.a === null ? 'b' : 'a';
      const call = side === 'a' ? pair.a! : pair.b!;
      const r = (side === 'a' ? a : b).requests[call];
      gaps.push({ side, call: call + 1, seq: r.cut, turn: r.turn, step: r.step, attempt: r.attempt, row });
      rows.push({ a: pair.a, b: pair.b, status: side === 'a' ? 'a-only' : 'b-only' });
      continue;
    }
    const ra = a.requests[pair.a];
    const rb = b.requests[pair.b];
    const kinds = parts.differing(ra, rb, left.trails[pair.a].sig, right.trails[pair.b].sig);
    const child = fork?.child === 'a' ? ra : fork?.child === 'b' ? rb : null;
    const inherited = child !== null && child.cut < inheritedBefore;
    if (kinds.length === 0) {
      rows.push(inherited ? { a: pair.a, b: pair.b, status: 'same', inherited } : { a: pair.a, b: pair.b, status: 'same' });
      continue;
    }
    const messageIndex = kinds.includes('messages') ? firstDifferingMessage(ca, cb) : undefined;
    const d: Divergence = { callA: pair.a + 1, callB: pair.b + 1, seqA: ra.cut, seqB: rb.cut, what: kinds[0], ...(messageIndex !== undefined ? { messageIndex } : {}), kinds, row };
    divergences.push(d);
    const out: CompareRow = { a: pair.a, b: pair.b, status: 'differs', what: d.what, kinds };
    if (d.messageIndex !== undefined) out.messageIndex = d.messageIndex;
    if (inherited) out.inherited = true;
    rows.push(out);
  }
  const notes = notesFor(a, 'a').concat(notesFor(b, 'b'));
  if (!fork) {
    for (const [run, side, other] of [[a, 'a', b], [b, 'b', a]] as const) {
      const parent = run.header?.parentSession;
      if (parent !== undefined && (run.header?.seedLength || run.header?.isSeeded)) {
        notes.push({ side, kind: 'not-parent', message: `${side.toUpperCase()} (${run.name}) is forked from session ${parent}, not from ${other.name} (${other.header?.id ?? 'no header'}): its inherited calls are compared like any others.` });
      }
    }
  }
  const comparable = a.verdict.kind !== 'not-dsh' && b.verdict.kind !== 'not-dsh';
  return {
    identical: comparable && divergences.length === 0 && gaps.length === 0,
    calls: { a: a.requests.length, b: b.requests.length, aligned: rows.length - gaps.length },
    firstDivergence: divergences[0] ?? null,
    divergences,
    gaps,
    fork,
    notes,
    summary: { a: summarizeRun(a), b: summarizeRun(b) },
    rows,
  };
}

/** What a run's verdict means for its calls: none to compare, or some that DSH would not rebuild as shown. */
function notesFor(run: CompareRun, side: 'a' | 'b'): CompareNote[] {
  const v = run.verdict;
  const out: CompareNote[] = [];
  const name = `${side.toUpperCase()} (${run.name})`;
  if (v.kind === 'not-dsh') {
    out.push({ side, kind: 'not-dsh', message: `${name}: ${v.summary} It has no model calls to compare.` });
    return out;
  }
  if (v.kind === 'dsh-refuses') {
    const from = v.causes.find((c) => c.seq !== undefined)?.seq;
    const rest = from !== undefined ? ` Its calls are compared as this app folds them; those cut from seq ${from} on may not be what DSH ran.` : ' Its calls are compared as this app folds them.';
    out.push({ side, kind: 'dsh-refuses', message: `${name}: ${v.summary}${rest}`, ...(from !== undefined ? { fromSeq: from } : {}) });
  } else if (v.kind === 'newer-than-app' && v.partial?.analyses.some((x) => x.startsWith('model requests') || x.startsWith('surface'))) {
    const from = partialFrom(v, ANALYSES.requests) ?? v.partial.fromSeq;
    out.push({
      side, kind: 'newer-than-app',
      message: `${name} uses ${v.unknown.join(', ') || 'vocabulary'} this app does not know: its calls${from !== null ? ` cut from seq ${from} on` : ''} may miss what that part does.`,
      ...(from !== null ? { fromSeq: from } : {}),
    });
  }
  if (run.requests.length === 0) out.push({ side, kind: 'no-calls', message: `${name} has no model calls (no settled attempt or streamed chunk).` });
  return out;
}
