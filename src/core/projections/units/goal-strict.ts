import type { LogEvent } from '../../log/types.ts';
import { decodeGoalChange, type GoalChange, type GoalSnapshot } from './goal-change.ts';

/** The rc.8 wire value: the current goal with its counters, or null. */
export interface GoalValue {
  goal: GoalSnapshot;
  roundsStarted: number;
  createdAt: number;
  updatedAt: number;
}

/**
 * The seed's strict goal transition rules (dsh-log-rules J4.2, v6): revisions advance
 * by one, counters and timestamps are preserved, phase transitions are
 * op-specific, and a goal round must be the next admitted round of the
 * active goal. Returns the next current value; throws on any violation.
 */
export function strictGoalStep(current: GoalValue | null, seen: readonly string[], event: LogEvent): { current: GoalValue | null; seen: readonly string[] } {
  if (event.type === 'goal/change') {
    const change = decodeGoalChange(event.data);
    if (change === undefined) throw new Error(`goal change at session event ${event.seq} has an invalid kind`);
    return applyChange(current, seen, change);
  }
  const source = event.data?.source;
  if (source?.kind !== 'goal') return { current, seen };
  const positive = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 1;
  if (typeof source.goalId !== 'string' || source.goalId.length === 0 || !positive(source.revision) || !positive(source.round)) {
    throw new Error('goal message source is invalid');
  }
  const g = current?.goal;
  if (!current || !g || g.phase !== 'active' || source.goalId !== g.id || source.revision !== g.revision
    || source.round !== current.roundsStarted + 1 || source.round > g.maxGoalRounds) {
    throw new Error(`goal round at session event ${event.seq} is not the next admitted round of the active goal`);
  }
  return { current: { ...current, roundsStarted: source.round }, seen };
}

function nextRevision(goal: GoalSnapshot, ref: { id: string; revision: number }, op: string): void {
  if (ref.id !== goal.id || ref.revision !== goal.revision + 1) throw new Error(`goal ${op} must advance the current goal by one revision`);
}

function applyChange(current: GoalValue | null, seen: readonly string[], change: GoalChange): { current: GoalValue | null; seen: readonly string[] } {
  if (change.operation === 'clear') {
    if (!current) throw new Error('goal clear requires a current goal');
    nextRevision(current.goal, change.cleared, 'clear');
    if (change.clearedAt < current.updatedAt) throw new Error('goal clear timestamp cannot precede the current goal update');
    return { current: null, seen };
  }
  const value: GoalValue = { goal: change.goal, roundsStarted: change.roundsStarted, createdAt: change.createdAt, updatedAt: change.updatedAt };
  if (change.operation === 'create') {
    const g = change.goal;
    if (g.revision !== 1 || g.phase !== 'active' || change.roundsStarted !== 0
      || (current !== null && current.goal.phase !== 'complete') || seen.includes(g.id)) {
      throw new Error('goal create requires a fresh active revision-one goal with zero rounds');
    }
    return { current: value, seen: [...seen, g.id] };
  }
  if (!current) throw new Error(`goal ${change.operation} requires a current goal`);
  checkTransition(current, change);
  return { current: value, seen };
}

function checkTransition(current: GoalValue, change: Extract<GoalChange, { goal: GoalSnapshot }>): void {
  const { operation: op, goal: next } = change;
  const now = current.goal;
  nextRevision(now, next, op);
  if (change.createdAt !== current.createdAt || change.updatedAt < current.updatedAt || change.roundsStarted !== current.roundsStarted) {
    throw new Error(`goal ${op} does not preserve the current counters and timestamps`);
  }
  if (op === 'edit') {
    if (next.phase !== now.phase || JSON.stringify(next.blockedReason) !== JSON.stringify(now.blockedReason)) {
      throw new Error('goal edit cannot change phase or blocked reason');
    }
    return;
  }
  if (next.objective !== now.objective || next.maxGoalRounds !== now.maxGoalRounds) {
    throw new Error(`goal ${op} cannot change objective or maxGoalRounds`);
  }
  const ok =
    op === 'pause' ? now.phase === 'active' && next.phase === 'paused'
    : op === 'resume' ? now.phase !== 'complete' && next.phase === 'active' && current.roundsStarted < next.maxGoalRounds
    : op === 'complete' ? now.phase !== 'complete' && next.phase === 'complete'
    : now.phase === 'active' && next.phase === 'blocked';
  if (!ok) throw new Error(`goal ${op} has an invalid phase transition`);
}
