import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import type { EventList } from '../log/event-list.ts';
import type { EventStore } from '../log/event-store.ts';
import { firstWhere } from '../util/sorted.ts';
import { inheritedEventCount, isInheritedMarker } from '../workspace/forks.ts';
import type { SessionFold } from './fold-session.ts';
import { typeCensus } from './type-census.ts';
import { logVerdict, type Verdict } from './verdict.ts';

/**
 * The whole-log facts every reader of a log states the same way — the app's
 * load summary and `inspect` — worked out once from a folded session and its
 * type and seq rows (the replay index's columns, or rows made from the
 * events for a session without one).
 */

/** A log's type and seq per event, in event order: the columns of the replay index, or `typeRowsOf`. */
export interface TypeRows {
  typeNames: readonly string[];
  typeId: ArrayLike<number>;
  seq: ArrayLike<number>;
}

export interface SessionSummary {
  /** Logged events per type (restore-appended ones not counted), in order of first appearance. */
  typeCounts: Record<string, number>;
  /** `turn/start` events. */
  turns: number;
  /** The last logged event's seq; -1 for a log with no events. */
  lastSeq: number;
  /** A fork child's inherited events: the seq its own start at (0: not a fork), and how many events come before it (dsh-log-rules L1.7). */
  inherited: { seq: number; events: number };
  /** Event indexes of the compactions (`compaction/summary`, `compaction/prune`), ascending. */
  compactionIndexes: number[];
  /** ok / DSH refuses / newer than this app / not a DSH log, with its reasons. */
  verdict: Verdict;
}

const COMPACTION_TYPES: ReadonlySet<string> = new Set(['compaction/summary', 'compaction/prune']);

/**
 * One pass over the logged rows' type ids (no string per event on a
 * 1M-event log), and a look at the few events it flags: the compactions and
 * the inherited-prefix markers.
 */
export function sessionSummary(session: SessionFold, rows: TypeRows): SessionSummary {
  const { read } = session;
  const logged = session.loggedCount;
  const { typeNames, typeId, seq } = rows;
  const endSeed = typeNames.indexOf('session/end-seed');
  const flagged = Uint8Array.from(typeNames, (t, id) => (id === endSeed || COMPACTION_TYPES.has(t) ? 1 : 0));
  const { perType, flaggedRows } = typeCensus(typeId, logged, typeNames.length, flagged);
  let lastMarker: number | null = null;
  const compactionIndexes: number[] = [];
  for (const i of flaggedRows) {
    if (typeId[i] !== endSeed) compactionIndexes.push(i);
    else if (isInheritedMarker(session.events.at(i)!)) lastMarker = seq[i];
  }
  const typeCounts: Record<string, number> = {};
  typeNames.forEach((t, id) => { if (perType[id]) typeCounts[t] = perType[id]; });
  const inheritedSeq = inheritedEventCount(read.header, lastMarker);
  return {
    typeCounts,
    turns: typeCounts['turn/start'] ?? 0,
    lastSeq: logged ? seq[logged - 1] : -1,
    inherited: { seq: inheritedSeq, events: firstWhere(logged, (i) => seq[i] >= inheritedSeq) },
    compactionIndexes,
    verdict: logVerdict({ header: read.header, version: read.version, diagnostics: session.diagnostics, types: Object.keys(typeCounts) }),
  };
}

/** Type and seq rows of the first `count` events of a list (for a session folded without a replay index). */
export function typeRowsOf(events: EventList, count: number): TypeRows {
  const typeNames: string[] = [];
  const ids = new Map<string, number>();
  const typeId = new Uint32Array(count);
  const seq = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const e = events.at(i)!;
    let id = ids.get(e.type);
    if (id === undefined) { id = typeNames.length; ids.set(e.type, id); typeNames.push(e.type); }
    typeId[i] = id;
    seq[i] = e.seq;
  }
  return { typeNames, typeId, seq };
}

/**
 * The event index a finding points at: its seq's, or for one with only a
 * line (a row that never became an event) the next event's.
 */
export function findingIndexer(session: SessionFold<EventStore>, indexOfSeq: (seq: number) => number): (d: Diagnostic) => number | undefined {
  const logged = session.loggedCount;
  return (d) => {
    if (d.seq !== undefined) return indexOfSeq(d.seq);
    if (d.line === undefined || d.line <= 1 || logged === 0) return undefined;
    return Math.min(session.events.eventsThroughLine(d.line - 1, logged), logged - 1);
  };
}
