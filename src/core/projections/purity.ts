import type { LogEvent } from '../log/types.ts';
import { deepFreeze } from '../util/freeze.ts';
import { jsonEqual } from '../util/json.ts';
import { kindOf, unitReads } from './reads.ts';
import type { AnyUnit, PurityFinding } from './types.ts';

/**
 * Dev/test purity enforcement (dsh-log-rules J1.2 items 1–2, J5.3.5). States are
 * deep-frozen, so a unit that mutates its input throws (and is isolated by
 * the registry). A new reference with content equal to the previous state is
 * reported: DSH would treat it as a change and do downstream work; it is a
 * rule violation when the unit does not even read that event type.
 */
export function freezeState<T>(state: T): T {
  return deepFreeze(state);
}

export function auditChange(unit: AnyUnit, before: unknown, after: unknown, event: LogEvent): PurityFinding | null {
  if (Object.is(before, after) || !jsonEqual(before, after)) return null;
  // An event of a kind the unit does not read in that state (alsoReads included).
  const ignoredEvent = !unitReads(unit, before, kindOf(event));
  return {
    key: unit.key,
    seq: event.seq,
    kind: 'equal-new-reference',
    ignoredEvent,
    message: `projection "${unit.key}" returned a new but equal state for ${event.type} at seq ${event.seq}${ignoredEvent ? ' (an event it does not read)' : ''}`,
  };
}
