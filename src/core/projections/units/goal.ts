import { z } from 'zod';
import type { LogEvent } from '../../log/types.ts';
import type { Generation, ProjectionUnit } from '../types.ts';
import { decodeGoalChange } from './goal-change.ts';
import { strictGoalStep, type GoalValue } from './goal-strict.ts';

const goalValueSchema = z.object({
  goal: z.object({
    id: z.string().min(1),
    revision: z.number().int().positive(),
    objective: z.string().min(1),
    phase: z.enum(['active', 'paused', 'blocked', 'complete']),
    blockedReason: z.object({ code: z.string(), message: z.string() }).optional(),
    maxGoalRounds: z.number().int().positive(),
  }),
  roundsStarted: z.number().int().nonnegative(),
  createdAt: z.number(),
  updatedAt: z.number(),
}).nullable();

/**
 * rc.8 `goal` (dsh-log-rules J4.2, v4, light): last-wins over decodable
 * `goal/change` events; a malformed change is ignored; goal-round messages
 * are not read, so `roundsStarted` moves only with a later change.
 */
export const goalLightUnit: ProjectionUnit<GoalValue | null, GoalValue | null> = {
  key: 'goal',
  stateVersion: 4,
  stateSchema: goalValueSchema,
  viewSchema: goalValueSchema,
  reads: ['goal/change'],
  init: () => null,
  apply: (state, event) => {
    if (event.type !== 'goal/change') return state;
    let change;
    try {
      change = decodeGoalChange(event.data);
    } catch {
      return state;
    }
    if (change === undefined) return state;
    if (change.operation === 'clear') return null;
    return { goal: change.goal, roundsStarted: change.roundsStarted, createdAt: change.createdAt, updatedAt: change.updatedAt };
  },
  view: (state) => state,
};

export interface StrictGoalState {
  current: GoalValue | null;
  seenGoalIds: readonly string[];
  failure: string | null;
}

const isGoalEvent = (event: LogEvent): boolean =>
  event.type === 'goal/change' || (event.type === 'user/message' && event.data?.source?.kind === 'goal');

/**
 * Seed `goal` (dsh-log-rules J4.2, v6, strict): goal rounds advance `roundsStarted`;
 * any rule violation is kept in state as
 * "goal replay failed at session event N: …" and every later event is
 * ignored. The wire view is `current` only: the failure is host-side.
 */
export const goalStrictUnit: ProjectionUnit<StrictGoalState, GoalValue | null> = {
  key: 'goal',
  stateVersion: 6,
  stateSchema: z.object({ current: goalValueSchema, seenGoalIds: z.array(z.string()), failure: z.string().nullable() }).strict()
    .refine((s) => new Set(s.seenGoalIds).size === s.seenGoalIds.length, 'seenGoalIds must be unique')
    .refine((s) => s.current === null || s.seenGoalIds.includes(s.current.goal.id), 'current goal id must be seen')
    .refine((s) => s.current === null || (s.current.updatedAt >= s.current.createdAt && s.current.roundsStarted <= s.current.goal.maxGoalRounds), 'goal counters are inconsistent'),
  viewSchema: goalValueSchema,
  reads: ['goal/change', 'user/message'],
  init: () => ({ current: null, seenGoalIds: [], failure: null }),
  apply: (state, event) => {
    if (state.failure !== null || !isGoalEvent(event)) return state;
    try {
      const next = strictGoalStep(state.current, state.seenGoalIds, event);
      return { current: next.current, seenGoalIds: next.seen, failure: null };
    } catch (error) {
      return { ...state, failure: `goal replay failed at session event ${event.seq}: ${(error as Error).message}` };
    }
  },
  view: (state) => state.current,
  failureOf: (state) => state.failure,
};

export const goalUnit = (generation: Generation): ProjectionUnit<any, GoalValue | null> =>
  generation === 'rc8' ? goalLightUnit : goalStrictUnit;
