import { z } from 'zod';
import type { ProjectionUnit } from '../types.ts';

export interface TurnBoundaryState {
  openTurnStartSeq: number | null;
  lastStepStartSeq: number | null;
  lastStepBoundary: { kind: 'start' | 'end'; seq: number } | null;
  lastTurn: number;
}

/**
 * `turnBoundary` (spec §4.7): a seed host-only unit (never in snapshots)
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
    switch (event.type) {
      case 'turn/start':
        return { ...state, openTurnStartSeq: event.seq, lastTurn: event.data?.turn };
      case 'turn/end':
        return { ...state, openTurnStartSeq: null };
      case 'step/start':
        return { ...state, lastStepStartSeq: event.seq, lastStepBoundary: { kind: 'start', seq: event.seq } };
      case 'step/end':
        return { ...state, lastStepBoundary: { kind: 'end', seq: event.seq } };
      default:
        return state;
    }
  },
  view: (state) => state,
};
