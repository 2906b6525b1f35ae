/**
 * Streamed model output as one row (docs/open-and-navigate.md). In V0/V1 logs every delta of
 * a model attempt is its own `assistant/chunk` event (dsh-log-rules L3.1):
 * a run of consecutive chunk events of one turn.step is one streamed output.
 * (V2+ embed the stream in `assistant/message`/`assistant/attempt`: already one event.)
 * Runs are found in the replay columns, one pass, no event parsed.
 */
import { firstWhere } from '../util/sorted.ts';

/** A run is worth a row of its own from this many chunks. */
export const MIN_RUN = 2;

/**
 * The runs as [start, end) event-index pairs, ascending: consecutive events
 * of type `chunkType` with equal turn and step.
 */
export function streamRuns(columns: RunColumns, count: number, chunkType: number): Uint32Array {
  if (chunkType < 0) return new Uint32Array(0);
  const out: number[] = [];
  scanRuns(columns, 0, count, chunkType, out);
  return Uint32Array.from(out);
}

type RunColumns = { typeId: ArrayLike<number>; turn: ArrayLike<number>; step: ArrayLike<number> };

/** Pushes the runs of events [from, count) onto `out`; `from` is not inside a run. */
function scanRuns({ typeId, turn, step }: RunColumns, from: number, count: number, chunkType: number, out: number[]): void {
  for (let i = from; i < count; ) {
    if (typeId[i] !== chunkType) { i++; continue; }
    let j = i + 1;
    while (j < count && typeId[j] === chunkType && turn[j] === turn[i] && step[j] === step[i]) j++;
    if (j - i >= MIN_RUN) out.push(i, j);
    i = j;
  }
}

/**
 * Where the runs of the first `count` events may change once rows are added
 * after them (a loading or followed log's only grow): `runs` before `keep`
 * (pair positions) stay; events from `from` on are read again (the start of
 * a run that reached the end, else the last event: a lone chunk may start one).
 */
export function runsRedo(runs: Uint32Array, count: number): { keep: number; from: number } {
  const n = runs.length;
  return n && runs[n - 1] === count ? { keep: n - 2, from: runs[n - 2] } : { keep: n, from: Math.max(0, count - 1) };
}

/**
 * `streamRuns` of `count` events from `kept`, the runs of their first
 * `kept.count`: only the events from `runsRedo`'s on are read (each
 * refresh of a followed 1M-event log walked every event again).
 */
export function grownStreamRuns(columns: RunColumns, count: number, chunkType: number, kept: { runs: Uint32Array; count: number }): Uint32Array {
  if (chunkType < 0) return new Uint32Array(0);
  const { keep, from } = runsRedo(kept.runs, kept.count);
  const out: number[] = [];
  scanRuns(columns, from, count, chunkType, out);
  const runs = new Uint32Array(keep + out.length);
  runs.set(kept.runs.subarray(0, keep));
  runs.set(out, keep);
  return runs;
}

/** The run (its pair's position, a multiple of 2) holding event `index`; -1 when none does. */
export function runOf(runs: Uint32Array, index: number): number {
  const k = firstWhere(runs.length / 2, (m) => !(runs[2 * m + 1] <= index));
  return k < runs.length / 2 && runs[2 * k] <= index ? 2 * k : -1;
}
