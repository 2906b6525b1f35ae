import { z } from 'zod';
import type { ProjectionUnit } from '../types.ts';

export interface TimingState {
  settledMs: number;
  active?: { since: number; through: number };
  /** Newest turn start before any descriptor, promoted when one arrives. */
  pendingTurnStart?: number;
  descriptorSeen: boolean;
  /** 0.2's timing: whether the last turn that closed after the descriptor completed (absent while one is open). */
  lastTurnCompleted?: boolean;
}
export interface TimingView {
  settledMs: number;
  active?: { since: number; through: number };
  lastTurnCompleted?: boolean;
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
  if (state.lastTurnCompleted !== undefined) next.lastTurnCompleted = state.lastTurnCompleted;
  return next;
}

/**
 * `subagentTiming` (dsh-log-rules J4.10, v2): active-turn time after the child's
 * descriptor. Every descriptor resets the totals (a fork seed may carry an
 * ancestor's); `turn/end` settles the open interval; any other event while
 * active extends `through` with a new object. Reads `event.time`, so
 * templated logs (time 0) give zeros (J6).
 *
 * `lastTurn`: DSH 0.2's unit (stateVersion 3, format 4 here) also records
 * whether the turn a `turn/end` settles completed (its reason's kind is
 * `completed`), and drops that at the next `turn/start` or descriptor. Like
 * DSH's, it reads the reason without a guard: a `turn/end` with none throws.
 */
export function subagentTimingUnitOf(lastTurn: boolean): ProjectionUnit<TimingState, TimingView> {
  const view = z.object({
    settledMs: z.number().int().nonnegative(),
    active: interval.optional(),
    ...(lastTurn ? { lastTurnCompleted: z.boolean().optional() } : {}),
  }).strict();
  return {
    key: 'subagentTiming',
    stateVersion: lastTurn ? 3 : 2,
    stateSchema: z.object({
      settledMs: lastTurn ? z.number().int().nonnegative() : z.number(),
      active: interval.optional(),
      pendingTurnStart: lastTurn ? z.number().int().nonnegative().optional() : z.number().optional(),
      descriptorSeen: z.boolean(),
      ...(lastTurn ? { lastTurnCompleted: z.boolean().optional() } : {}),
    }).strict(),
    viewSchema: view,
    // While an interval is open every event extends it; otherwise only turns and descriptors matter.
    reads: ['turn/start', 'subagent/descriptor', 'turn/end'],
    alsoReads: (state) => (state.active !== undefined ? 'all' : null),
    init: () => ({ descriptorSeen: false, settledMs: 0 }),
    apply: (state, event) => {
      if (event.type === 'turn/start') {
        const { lastTurnCompleted: _cleared, ...open } = state;
        return state.descriptorSeen
          ? { ...open, active: { since: event.time, through: event.time } }
          : { ...open, pendingTurnStart: event.time };
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
        const settledMs = state.settledMs + Math.max(0, event.time - active.since);
        return lastTurn ? { ...rest, settledMs, lastTurnCompleted: turnEndReasonKind(event.data) === 'completed' } : { ...rest, settledMs };
      }
      return state.active === undefined ? state : extendedThrough(state, state.active, event.time);
    },
    view: (state) => {
      const out: TimingView = { settledMs: state.settledMs };
      if (state.active !== undefined) out.active = state.active;
      if (state.lastTurnCompleted !== undefined) out.lastTurnCompleted = state.lastTurnCompleted;
      return out;
    },
  };
}

/** A turn end's reason kind; throws without a reason, as DSH's unit does when it reads one that is not there. */
function turnEndReasonKind(data: unknown): unknown {
  const reason = data === null || data === undefined ? undefined : (data as { reason?: unknown }).reason;
  if (reason === null || reason === undefined) throw new Error('turn/end has no reason to say whether the turn completed');
  return (reason as { kind?: unknown }).kind;
}

/** The unit before DSH 0.2 (stateVersion 2). */
export const subagentTimingUnit = subagentTimingUnitOf(false);
