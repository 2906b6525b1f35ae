import { z } from 'zod';
import type { ProjectionUnit } from '../types.ts';

export interface TurnBoundaryState {
  openTurnStartSeq: number | null;
  lastStepStartSeq: number | null;
  lastStepBoundary: { kind: 'start' | 'end'; seq: number } | null;
  lastTurn: number;
}

/** A new state with the same fields, from one object literal (a spread with fields after it is twenty times slower in Node 20, see session-stats.ts). */
const copyOf = (s: TurnBoundaryState): TurnBoundaryState => ({
  openTurnStartSeq: s.openTurnStartSeq, lastStepStartSeq: s.lastStepStartSeq, lastStepBoundary: s.lastStepBoundary, lastTurn: s.lastTurn,
});

/**
 * `turnBoundary` (dsh-log-rules J4.7): a seed host-only unit (never in snapshots)
 * that session-query tools read. rc.8 has no such unit; we fold it for both
 * dialects because it is log-derived and useful at any cursor.
 */
export const turnBoundaryUnit: ProjectionUnit<TurnBoundaryState, TurnBoundaryState> = {
  key: 'turnBoundary',
  stateVersion: 2,
  hostOnly: true,
  stateSchema: z.object({
    openTurnStartSeq: z.number().int().nullable(),
    lastStepStartSeq: z.number().int().nullable(),
    lastStepBoundary: z.object({ kind: z.enum(['start', 'end']), seq: z.number().int() }).nullable(),
    lastTurn: z.number().int(),
  }),
  reads: ['turn/start', 'turn/end', 'step/start', 'step/end'],
  init: () => ({ openTurnStartSeq: null, lastStepStartSeq: null, lastStepBoundary: null, lastTurn: 0 }),
  apply: (state, event) => {
    const type = event.type;
    if (type !== 'turn/start' && type !== 'turn/end' && type !== 'step/start' && type !== 'step/end') return state;
    const next = copyOf(state);
    if (type === 'turn/start') {
      next.openTurnStartSeq = event.seq;
      next.lastTurn = event.data?.turn;
    } else if (type === 'turn/end') {
      next.openTurnStartSeq = null;
    } else if (type === 'step/start') {
      next.lastStepStartSeq = event.seq;
      next.lastStepBoundary = { kind: 'start', seq: event.seq };
    } else {
      next.lastStepBoundary = { kind: 'end', seq: event.seq };
    }
    return next;
  },
  view: (state) => state,
};
