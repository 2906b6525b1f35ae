/**
 * Streamed model output as one row (issue #19). In V0/V1 logs every delta of
 * a model attempt is its own `assistant/chunk` event (log-and-surface §2 (c)):
 * a run of consecutive chunk events of one turn.step is one streamed output.
 * (V2+ embed the stream in `assistant/message`/`assistant/attempt`: already one event.)
 * Runs are found in the replay columns, one pass, no event parsed.
 */

/** A run is worth a row of its own from this many chunks. */
export const MIN_RUN = 2;

/**
 * The runs as [start, end) event-index pairs, ascending: consecutive events
 * of type `chunkType` with equal turn and step.
 */
export function streamRuns(columns: { typeId: ArrayLike<number>; turn: ArrayLike<number>; step: ArrayLike<number> }, count: number, chunkType: number): Uint32Array {
  if (chunkType < 0) return new Uint32Array(0);
  const out: number[] = [];
  const { typeId, turn, step } = columns;
  for (let i = 0; i < count; ) {
    if (typeId[i] !== chunkType) { i++; continue; }
    let j = i + 1;
    while (j < count && typeId[j] === chunkType && turn[j] === turn[i] && step[j] === step[i]) j++;
    if (j - i >= MIN_RUN) out.push(i, j);
    i = j;
  }
  return Uint32Array.from(out);
}

/** The run (its pair's position, a multiple of 2) holding event `index`; -1 when none does. */
export function runOf(runs: Uint32Array, index: number): number {
  let lo = 0;
  let hi = runs.length / 2;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (runs[2 * mid + 1] <= index) lo = mid + 1; else hi = mid;
  }
  return lo < runs.length / 2 && runs[2 * lo] <= index ? 2 * lo : -1;
}
