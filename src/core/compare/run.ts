import { logVerdict, type Verdict } from '../session/verdict.ts';
import type { LogEvent, ReadResult, SessionHeader } from '../log/types.ts';
import { factsOf, startPromptAnalysis, surfaceBeforeOf, type PromptAnalysis } from '../requests/analyze.ts';
import type { ModelRequest, SurfaceBefore } from '../requests/build.ts';
import { Replay } from '../replay/replay-index.ts';
import { foldSession } from '../session/fold-session.ts';
import { TurnOutcomeTally, type TurnOutcome } from '../session/turn-outcomes.ts';

/**
 * What a comparison reads of one loaded log (docs/compare.md): its model calls
 * and the replay index's per-event columns. The CLI builds it from a log
 * read whole; the worker from the log its engine loaded. Either way the
 * calls come from the one request analysis, never a second copy of a rule.
 */
export interface CompareRun {
  /** The file name, for reports. */
  name: string;
  header: SessionHeader | null;
  verdict: Verdict;
  /** Every model call, in the log's `requests` order. */
  requests: readonly ModelRequest[];
  /** Per-event columns of the replay index (logged events, then the restore's synthetic ones). */
  columns: { typeId: ArrayLike<number>; surfaceChange: ArrayLike<number> };
  /** The seq of event index `i`. */
  seqAt(i: number): number | undefined;
  /** The index of the event with this seq, else of the nearest one after it. */
  indexOfSeq(seq: number): number;
  typeNames: readonly string[];
  /** Events in the columns. */
  count: number;
  eventAt(seq: number): LogEvent | undefined;
  /** The surface just before a cut (a replay seek); without it a call's messages are read whole. */
  surfaceBefore?: SurfaceBefore;
  /** How each turn ended, in log order (noted by the walk that indexed the log: TurnOutcomeTally). */
  turnOutcomes: readonly TurnOutcome[];
}

/** A loaded log as the CLI and tests hold it: the run, plus what the side-by-side panels read. */
export interface LoadedRun {
  run: CompareRun;
  replay: Replay;
  prompts: PromptAnalysis;
}

/** The run of a replay, its request analysis and its turns' outcomes (the worker's engine holds all three). */
export function compareRunOf(name: string, replay: Replay, requests: readonly ModelRequest[], turnOutcomes: readonly TurnOutcome[]): CompareRun {
  const { session } = replay;
  // The columns are read when the run is made: the worker replaces its index object when it hands columns over.
  const { columns, typeNames, count } = replay.index;
  const verdict = logVerdict({ header: session.read.header, version: session.read.version, diagnostics: session.diagnostics, types: typeNames });
  return {
    name, header: session.read.header, verdict, requests, columns, typeNames, count, eventAt: session.eventAt, surfaceBefore: surfaceBeforeOf(replay), turnOutcomes,
    seqAt: (i) => replay.seqAt(i), indexOfSeq: (seq) => replay.indexOfSeq(seq),
  };
}

/**
 * A log read whole, folded and analysed as `inspect` does (foldSession and
 * the prompt analysis), with the replay index kept: the comparison reads
 * its columns, and each call derives its messages from it when read.
 */
export function loadRun(read: ReadResult, name: string): LoadedRun {
  const session = foldSession(read);
  const analysis = startPromptAnalysis(session.read, factsOf(session.events));
  const turns = new TurnOutcomeTally();
  const replay = Replay.walk(session, 2048, [...analysis.visitors, turns]);
  const prompts = analysis.finish(replay.finalState, surfaceBeforeOf(replay), session.eventAt);
  return { run: compareRunOf(name, replay, prompts.requests.requests, turns.outcomes()), replay, prompts };
}

/**
 * A side that could not be loaded at all (not a log, unreadable, a fetch
 * that failed): no calls, and a "not a DSH log" verdict whose summary is
 * the reason, so the comparison says why that side has nothing to align.
 */
export function unreadableRun(name: string, reason: string): CompareRun {
  const verdict = { ...logVerdict({ header: null, version: 0, diagnostics: [] }), summary: reason };
  return { name, header: null, verdict, requests: [], columns: { typeId: [], surfaceChange: [] }, typeNames: [], count: 0, eventAt: () => undefined, seqAt: () => undefined, indexOfSeq: () => 0, turnOutcomes: [] };
}
