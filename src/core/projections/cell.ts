import type { ProjectionFailure } from './types.ts';

/**
 * One unit's runtime record for a session (spec §2.1, seed shape):
 * `observedSeq` is the seq of the last event passed through `apply` whether
 * or not the state changed (-1 = none); `views` is [previous, current] for the
 * seed's view-identity gate (§2.4 step 4).
 */
export interface Cell {
  state: unknown;
  observedSeq: number;
  views: [unknown, unknown];
  /** Set once: a thrown fold freezes the cell; a domain failure is informational. */
  failure: ProjectionFailure | null;
  /** (seq, state) after every state change, for time travel (§5.4); only with `history`. */
  history: { seq: number; state: unknown }[] | null;
}

/** The state a cell had after driving `seq` (the last change at or before it). */
export function stateAt(cell: Cell, initial: unknown, seq: number): unknown {
  const h = cell.history;
  if (!h) throw new Error('projection history was not recorded (enable the history option)');
  let lo = 0;
  let hi = h.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (h[mid].seq <= seq) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found < 0 ? initial : h[found].state;
}
