import { z } from 'zod';
import type { ProjectionUnit } from '../types.ts';

export interface TimingState {
  settledMs: number;
  active?: { since: number; through: number };
  /** Newest turn start before any descriptor, promoted when one arrives. */
  pendingTurnStart?: number;
  descriptorSeen: boolean;
}
export interface TimingView {
  settledMs: number;
  active?: { since: number; through: number };
}

const interval = z.object({ since: z.number().int().nonnegative(), through: z.number().int().nonnegative() }).strict();

/**
 * The state with its open interval extended through `time`, every other
 * member as it was (an absent one stays absent). Made field by field: this
 * runs on every event while a turn is active, and a spread with fields after
 * it is twenty times slower in Node 20 (see session-stats.ts).
 */
function extendedThrough(state: TimingState, active: { since: number; through: number }, time: number): TimingState {
  const next: TimingState = { descriptorSeen: state.descriptorSeen, settledMs: state.settledMs, active: { since: active.since, through: time } };
  if (state.pendingTurnStart !== undefined) next.pendingTurnStart = state.pendingTurnStart;
  return next;
}

/**
 * `subagentTiming` (spec §4.10, v2): active-turn time after the child's
 * descriptor. Every descriptor resets the totals (a fork seed may carry an
 * ancestor's); `turn/end` settles the open interval; any other event while
 * active extends `through` with a new object. Reads `event.time`, so
 * templated logs (time 0) give zeros (§6).
 */
export const subagentTimingUnit: ProjectionUnit<TimingState, TimingView> = {
  key: 'subagentTiming',
  stateVersion: 2,
  stateSchema: z.object({
    settledMs: z.number(),
    active: interval.optional(),
    pendingTurnStart: z.number().optional(),
    descriptorSeen: z.boolean(),
  }).strict(),
  viewSchema: z.object({ settledMs: z.number().int().nonnegative(), active: interval.optional() }).strict(),
  // While an interval is open every event extends it; otherwise only turns and descriptors matter.
  reads: ['turn/start', 'subagent/descriptor', 'turn/end'],
  alsoReads: (state) => (state.active !== undefined ? 'all' : null),
  init: () => ({ descriptorSeen: false, settledMs: 0 }),
  apply: (state, event) => {
    if (event.type === 'turn/start') {
      return state.descriptorSeen
        ? { ...state, active: { since: event.time, through: event.time } }
        : { ...state, pendingTurnStart: event.time };
    }
    if (event.type === 'subagent/descriptor') {
      const since = state.active?.since ?? state.pendingTurnStart;
      return since === undefined
        ? { descriptorSeen: true, settledMs: 0 }
        : { descriptorSeen: true, settledMs: 0, active: { since, through: event.time } };
    }
    if (event.type === 'turn/end') {
      if (!state.descriptorSeen) {
        if (state.pendingTurnStart === undefined) return state;
        const { pendingTurnStart: _closed, ...rest } = state;
        return rest;
      }
      if (state.active === undefined) return state;
      const { active, ...rest } = state;
      return { ...rest, settledMs: state.settledMs + Math.max(0, event.time - active.since) };
    }
    return state.active === undefined ? state : extendedThrough(state, state.active, event.time);
  },
  view: (state) => (state.active === undefined ? { settledMs: state.settledMs } : { settledMs: state.settledMs, active: state.active }),
};
