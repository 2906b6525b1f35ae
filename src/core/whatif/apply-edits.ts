import type { EventOrigin, LogEvent, ReadResult, SessionHeader } from '../log/types.ts';
import { encodeSourceEventSeqs, remapRowSeqs, type SeqMap } from '../log/seq-refs.ts';
import { decodeSourceEventSeqs } from '../log/source-seqs.ts';
import { inheritedEventCount, isInheritedMarker } from '../workspace/forks.ts';
import type { Edit } from './edits.ts';
import { countAtOrBelow, positionOf } from '../util/sorted.ts';
import { withMessageText } from './message-text.ts';

type Row = Record<string, any>;

/** Something an edit could not do, or made the log break a DSH rule (the re-fold's verdict says which). */
export interface EditProblem {
  /** The edit's index in the list; absent for a consequence found while renumbering. */
  edit?: number;
  /** The seq (of the original log) the problem is about. */
  seq?: number;
  message: string;
}

/** An edited log: its text, how the original seqs map into it, and what the edits broke or could not do. */
export interface EditedLog {
  text: string;
  /** An original seq's seq in the edited log; null for a dropped event. */
  mapSeq: SeqMap;
  /** The new seqs of the inserted events, in edit order. */
  inserted: number[];
  /** Every event before this seq is the original's, at the same seq (Infinity: no edit applied). */
  sharedBefore: number;
  problems: EditProblem[];
}

const PACKED_PIECES = ['texts', 'args'] as const;

/**
 * What `applyEdits` reads of the original log besides its text: the reader's
 * result (the CLI, tests), or the store of a log the worker has open, which
 * answers the same questions without reading the log again.
 */
export interface EditableLog {
  header: SessionHeader | null;
  /** Events in the file (a restore's synthetic ones are not). */
  count: number;
  /** Each event's seq, by index (ascending). */
  seqs: ArrayLike<number>;
  /** Index of the event with this seq among the first `count`, or -1. */
  indexOfSeq(seq: number): number;
  origin(index: number): EventOrigin;
  /** The event itself (read only for the events an edit touches). */
  event(index: number): LogEvent;
  /** Events copied from a parent session (L1.7): the seqs below this (0: not a fork child). */
  inheritedSeq: number;
}

/** The reader's result as an editable log. */
export function editableRead(read: ReadResult): EditableLog {
  const { events } = read;
  const seqs = events.map((e) => e.seq);
  const marker = events.filter(isInheritedMarker).at(-1);
  return {
    header: read.header,
    count: events.length,
    seqs,
    indexOfSeq: (seq) => positionOf(seqs, seq),
    origin: (i) => read.origins[i],
    event: (i) => events[i],
    inheritedSeq: inheritedEventCount(read.header, marker?.seq ?? null),
  };
}

/**
 * The edits resolved against a log before any of its text is read: the
 * line the rewrite starts at, and the rewrite of the text from there. Every
 * line before `firstLine` is kept byte for byte (it names no seq the edits
 * move), so a caller holding the log's bytes rewrites only its tail: one
 * edit near the end of a long log costs the lines after it.
 */
export interface EditPlan {
  /** The first line (1-based) the rewrite reads; 1 when the header may change. */
  firstLine: number;
  /** The index of the first event on `firstLine` (the log's count when it holds none). */
  firstEvent: number;
  /** Every event before this seq is the original's, at the same seq (Infinity: no edit applies). */
  sharedBefore: number;
  /** Rewrites the log from `firstLine` on, given that part of its text; the result's `text` is that part rewritten. */
  rewrite(tail: string): EditedLog;
}

/**
 * Applies what-if edits to a log's text (docs/whatif.md): events are left out,
 * rewritten or inserted, every later seq is renumbered as DSH requires
 * (events[i].seq = i, E2) and every reference to one moves with it
 * (log/seq-refs.ts). A reference to a dropped event stays as it was and is
 * reported: the edited log is what DSH would then refuse, and its verdict
 * says where. Rows are rebuilt from the lines as stored, never from the
 * upgraded events, so nothing the reader adds is written back; lines wholly
 * before the first edited seq are kept as they are, unread (planEdits).
 */
export function applyEdits(text: string, original: ReadResult | EditableLog, edits: readonly Edit[]): EditedLog {
  const plan = planEdits(original, edits);
  const from = lineOffset(text, plan.firstLine);
  const tail = plan.rewrite(text.slice(from));
  return { ...tail, text: text.slice(0, from) + tail.text };
}

/** Where 1-based line `line` starts in `text` (its length when the text has fewer lines). */
export function lineOffset(text: string, line: number): number {
  let at = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', at);
    if (nl < 0) return text.length;
    at = nl + 1;
  }
  return at;
}

/** The edits resolved against a log (see EditPlan): what each does, checked, and where the rewrite starts. */
export function planEdits(original: ReadResult | EditableLog, edits: readonly Edit[]): EditPlan {
  const log = 'origins' in original ? editableRead(original) : original;
  const problems: EditProblem[] = [];
  const n = log.count;
  const lastSeq = n ? log.seqs[n - 1] : -1;
  const indexOf = (seq: number): number | undefined => { const i = log.indexOfSeq(seq); return i >= 0 && i < n ? i : undefined; };

  const dropped = new Set<number>();
  /** New text by seq, with the edit that asked (its row is checked when the rewrite reads it). */
  const texts = new Map<number, { text: string; edit: number }>();
  const inserts = new Map<number, { text: string; edit: number }[]>();
  const noText = (k: number, seq: number, i: number): EditProblem => ({ edit: k, seq, message: `seq ${seq} (${log.event(i).type}) holds no message text to edit; the edit is skipped` });
  edits.forEach((edit, k) => {
    const target = edit.kind === 'insert-user' ? edit.before : edit.seq;
    const i = indexOf(target);
    if (i === undefined && !(edit.kind === 'insert-user' && target === lastSeq + 1)) {
      problems.push({ edit: k, seq: target, message: `no event at seq ${target} (the log has seqs 0–${lastSeq}); the edit is skipped` });
      return;
    }
    const packed = i !== undefined && log.origin(i).packedIndex !== undefined;
    if (edit.kind === 'drop') dropped.add(edit.seq);
    else if (edit.kind === 'text') {
      if (packed) problems.push(noText(k, edit.seq, i!));
      else texts.set(edit.seq, { text: edit.text, edit: k });
    } else if (edit.kind === 'insert-user') {
      inserts.set(target, [...(inserts.get(target) ?? []), { text: edit.text, edit: k }]);
    } else {
      const event = log.event(i!);
      const op = event.surfaceOp;
      if (!op || op === 'append') {
        problems.push({ edit: k, seq: edit.seq, message: `seq ${edit.seq} (${event.type}) is not a replace; the edit is skipped` });
        return;
      }
      dropped.add(edit.seq);
      // The metering record directly before a replace announces it (W6): it goes with it.
      const before = i! > 0 ? log.event(i! - 1) : undefined;
      if (before && (before.type === 'compaction/summary' || before.type === 'compaction/prune')) dropped.add(before.seq);
    }
  });

  const late: EditProblem[] = [];
  for (const [seq, { edit }] of texts) {
    if (dropped.has(seq)) { late.push({ edit, seq, message: `seq ${seq} is dropped by another edit: its new text is not written` }); texts.delete(seq); }
  }

  // A fork child's first N events are its parent's, with the same seqs (L1.7): editing them forks another history.
  const inherited = log.inheritedSeq;
  // The cut itself counts: a drop of the marker, or an insert before it, lands inside the prefix.
  const edited = [...dropped, ...texts.keys(), ...inserts.keys()].sort((a, b) => a - b);
  const touched = edited.filter((s) => s < inherited || (inherited > 0 && s === inherited));
  if (touched.length) late.push({ seq: touched[0], message: `the edits change the inherited prefix (seqs below ${inherited}, copied from the parent session, L1.7): the child no longer starts as its parent's copy` });
  /** Events from here on may change; every line before the first of them is kept as it is. */
  const firstEdited = edited.length ? edited[0] : Infinity;
  const firstChanged = firstEdited === Infinity ? n : countAtOrBelow(log.seqs, firstEdited - 1, n);

  // New seqs: each event moves by the inserts before it less the drops before it, so a log's own
  // numbering (gaps in a trimmed fixture included) is kept where the edits do not reach.
  const insertedSeqs = new Map<number, number[]>();
  const insertedByEdit = new Map<number, number>();
  /** The shift after each event (its own drop or inserts counted), from `firstChanged` on. */
  const shiftAfter = new Int32Array(Math.max(0, n - firstChanged));
  let shift = 0;
  const placeInserts = (before: number) => {
    const list = inserts.get(before);
    if (!list) return;
    insertedSeqs.set(before, list.map(({ edit }) => { const s = before + shift++; insertedByEdit.set(edit, s); return s; }));
  };
  for (let i = firstChanged; i < n; i++) {
    const seq = log.seqs[i];
    placeInserts(seq);
    if (dropped.has(seq)) shift--;
    shiftAfter[i - firstChanged] = shift;
  }
  placeInserts(lastSeq + 1);
  const mapSeq: SeqMap = (s) => {
    if (dropped.has(s)) return null;
    // An event's seq, a gap or past the end: moved as the event at or before it was.
    const i = countAtOrBelow(log.seqs, s, n) - 1;
    return s + (i >= firstChanged ? shiftAfter[i - firstChanged] : 0);
  };

  // The header changes only when an rc.8 fork's seedLength moves (headerLine): an edit at or before it.
  const seedLength = log.header?.seedLength;
  const headerMayChange = typeof seedLength === 'number' && firstEdited <= seedLength;
  // The rewrite starts at the line of the first event that may change (the last event's line when none
  // does: the lines after it are kept, and inserts at the end go after them).
  const firstLine = headerMayChange || n === 0 ? 1 : log.origin(Math.min(firstChanged, n - 1)).line;
  let firstEvent = firstLine === 1 ? 0 : Math.min(firstChanged, n - 1);
  while (firstEvent > 0 && log.origin(firstEvent - 1).line >= firstLine) firstEvent--;

  const rewrite = (tail: string): EditedLog => {
    const lines = tail.split('\n');
    // The file's own line ends are kept: a CRLF log stays one (the kept lines before the tail are CRLF too).
    const crlf = lines[0]?.endsWith('\r') ?? false;
    for (let l = 0; l < lines.length; l++) if (lines[l].endsWith('\r')) lines[l] = lines[l].slice(0, -1);
    const bom = firstLine === 1 && lines[0]?.charCodeAt(0) === 0xfeff;
    if (bom) lines[0] = lines[0].slice(1);
    const rewriteProblems: EditProblem[] = [];
    const rowAt = (line: number): Row | null => parse(lines[line - firstLine]);

    const timeBefore = (seq: number) => log.event(indexOf(seq) ?? n - 1)?.time ?? 0;
    const insertedRows = (before: number): string[] => {
      const list = inserts.get(before) ?? [];
      const seqs = insertedSeqs.get(before) ?? [];
      return list.map(({ text, edit }, j) => JSON.stringify({
        type: 'user/message', seq: seqs[j], time: timeBefore(before), surfaceOp: 'append',
        data: { id: `whatif-user-${edit + 1}`, role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' } },
      }));
    };
    const newInserted = [...insertedSeqs.values()].flat();
    const remap = (row: Row, seq: number): Row => {
      const r = remapRowSeqs(row, mapSeq);
      for (const path of r.lost) rewriteProblems.push({ seq, message: `${row.type} at seq ${seq}: its ${path} names an event the edits dropped (DSH refuses a reference to a missing event)` });
      for (const cite of r.dropped) rewriteProblems.push({ seq, message: `${row.type} at seq ${seq}: ${cite.replace(' ', ' no longer cites dropped seq ')}` });
      return newInserted.length ? coverInserted(r.row, newInserted) : r.row;
    };
    /** New text edits whose rows hold no message text (found as their lines are read). */
    const skipped: EditProblem[] = [];

    // Rebuild line by line: the header, each row's events, and every other line as it was.
    // The events' lines only grow (a packed row's members share one), so one pointer walks them.
    const out: string[] = [];
    let next = firstEvent;
    lines.forEach((line, l) => {
      const lineNo = firstLine + l;
      if (lineNo === 1) { out.push(headerLine(line, log.header, mapSeq, rewriteProblems)); return; }
      while (next < n && log.origin(next).line < lineNo) next++;
      const from = next;
      while (next < n && log.origin(next).line === lineNo) next++;
      if (next === from) { if (line !== '' || l < lines.length - 1) out.push(line); return; }
      // Every event of the line is before the first edit: nothing in it moves.
      if (next <= firstChanged) { out.push(line); return; }
      const row = rowAt(lineNo);
      if (!row) { out.push(line); return; }
      if (next - from === 1 && log.origin(from).packedIndex === undefined) {
        const seq = log.seqs[from];
        out.push(...insertedRows(seq));
        if (dropped.has(seq)) return;
        const edit = texts.get(seq);
        const changed = edit ? withMessageText(row, edit.text) : row;
        if (!changed) skipped.push(noText(edit!.edit, seq, from));
        out.push(JSON.stringify(remap(changed ?? row, seq)));
        return;
      }
      const members: LogEvent[] = [];
      for (let i = from; i < next; i++) members.push(log.event(i));
      out.push(...packedRows(row, members, dropped, (seq) => inserts.has(seq), insertedRows, remap));
    });
    out.push(...insertedRows(lastSeq + 1));
    const eol = crlf ? '\r\n' : '\n';
    // What each edit could not do, in edit order, then what the rewrite found.
    const byEdit = [...problems, ...skipped, ...late.filter((p) => p.edit !== undefined)].sort((a, b) => a.edit! - b.edit!);
    return {
      text: (bom ? '\ufeff' : '') + out.join(eol) + eol,
      mapSeq,
      sharedBefore: firstEdited,
      inserted: [...insertedByEdit].sort((a, b) => a[0] - b[0]).map(([, s]) => s),
      problems: [...byEdit, ...late.filter((p) => p.edit === undefined), ...rewriteProblems],
    };
  };
  return { firstLine, firstEvent, sharedBefore: firstEdited, rewrite };
}

/**
 * An inserted message inside a later replace's span is one more node the
 * replace shadows: it must cite it (E8), and its metering record list it
 * (W6), as if the compaction had run over the edited history. Spans are
 * taken in seq order, the surface order of appended nodes; after a
 * compaction that kept a tail the surface is out of seq order, and a span
 * over such a node is missed (the re-fold then reports the replace
 * uncovered, E8: docs/whatif.md).
 */
function coverInserted(row: Row, inserted: readonly number[]): Row {
  const op = row.surfaceOp;
  const span = op && typeof op === 'object'
    ? [op.startSeq ?? op.start, op.endSeq ?? op.end]
    : (row.type === 'compaction/summary' || row.type === 'compaction/prune') && row.data?.shadowedRange
      ? [row.data.shadowedRange.start, row.data.shadowedRange.end] : null;
  if (!span || typeof span[0] !== 'number' || typeof span[1] !== 'number') return row;
  const inside = inserted.filter((s) => s > span[0] && s < span[1] && s < row.seq);
  if (!inside.length) return row;
  const add = (list: number[]) => [...new Set([...list, ...inside])].sort((a, b) => a - b);
  if (op && typeof op === 'object') {
    const decoded = Array.isArray(row.sourceEventSeqs) ? decodeSourceEventSeqs(row.sourceEventSeqs, row.seq) : [];
    const cited = typeof decoded === 'string' ? [] : decoded;
    const hadPairs = Array.isArray(row.sourceEventSeqs) && row.sourceEventSeqs.some(Array.isArray);
    return { ...row, sourceEventSeqs: hadPairs ? encodeSourceEventSeqs(add(cited)) : add(cited) };
  }
  return Array.isArray(row.data.shadowedSeqs) ? { ...row, data: { ...row.data, shadowedSeqs: add(row.data.shadowedSeqs) } } : row;
}

/** The header, with an rc.8 fork's `seedLength` (the inherited count, L1.7) moved with the seqs. */
function headerLine(line: string, read: SessionHeader | null, mapSeq: SeqMap, problems: EditProblem[]): string {
  const header = parse(line);
  const n = header?.seedLength;
  if (!header || typeof n !== 'number' || (read?.version ?? 0) >= 2) return line;
  const moved = mapSeq(n);
  if (moved === n) return line;
  if (moved === null) {
    problems.push({ seq: n, message: `the fork's end-seed marker (seq ${n}) was dropped: seedLength no longer names it (E16)` });
    return line;
  }
  return JSON.stringify({ ...header, seedLength: moved });
}

/**
 * A packed chunk row (L1.6c) with its members renumbered: whole when none is
 * dropped and nothing is inserted among them, else split into runs of kept
 * members (a row of one member is legal), each with its own start time and gaps.
 */
function packedRows(row: Row, members: LogEvent[], dropped: ReadonlySet<number>, insertsBefore: (seq: number) => boolean, insertedRows: (before: number) => string[], remap: (row: Row, seq: number) => Row): string[] {
  const pieces = PACKED_PIECES.find((k) => Array.isArray(row.data?.[k]));
  const out: string[] = [];
  const split = members.some((e, k) => dropped.has(e.seq) || (k > 0 && insertsBefore(e.seq)));
  if (!split || !pieces) {
    out.push(...insertedRows(members[0].seq));
    if (!split) out.push(JSON.stringify(remap(row, members[0].seq)));
    return out;
  }
  let run: number[] = [];
  const flush = () => {
    if (!run.length) return;
    const first = members[run[0]];
    const times = run.map((k) => members[k].time);
    const data = { ...row.data, dt: times.slice(1).map((t, j) => t - times[j]), [pieces]: run.map((k) => row.data[pieces][k]) };
    out.push(JSON.stringify(remap({ ...row, seq0: first.seq, time0: first.time, data }, first.seq)));
    run = [];
  };
  members.forEach((e, k) => {
    if (insertsBefore(e.seq)) { flush(); out.push(...insertedRows(e.seq)); }
    if (dropped.has(e.seq)) flush();
    else run.push(k);
  });
  flush();
  return out;
}

function parse(line: string | undefined): Row | null {
  if (!line) return null;
  try {
    const v = JSON.parse(line);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}
