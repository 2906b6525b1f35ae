// Section ids (J…) are those of docs/dsh-log-rules.md.
import type { LogEvent, SessionHeader } from '../log/types.ts';
import { jsonEqual } from '../util/json.ts';
import type { AnyUnit, ProjectionCheckpoint, ProjectionSnapshot } from './types.ts';

/**
 * The persisted projection cache semantics (J3), as pure functions over
 * a unit list. The registry exposes them as methods; the app uses
 * `coldRead` to answer "had DSH cached these rows, what would a cold read do?".
 */

/** A detached copy that must survive JSON losslessly (J3.1, J3.2; J1.2 item 3). */
export function detachedCopy(value: unknown): unknown {
  const copy = value === undefined ? undefined : JSON.parse(JSON.stringify(value));
  if (!jsonEqual(copy, value)) {
    throw new Error('projection checkpoint is not losslessly JSON-serializable (a unit state violates the plain-JSON contract)');
  }
  return copy;
}

const usableVersion = (unit: AnyUnit, cp: ProjectionCheckpoint) => {
  const row = Object.hasOwn(cp, unit.key) ? cp[unit.key] : undefined;
  return row !== undefined && row.ver === unit.stateVersion ? row : undefined;
};

/**
 * Where a tail read must start (J3.3): one event below the lowest usable
 * watermark (the anchor that lets `restore` detect a shrunk log). Missing or
 * version-mismatched rows force 0; undefined when no unit is registered.
 */
export function restoreFloor(units: readonly AnyUnit[], cp: ProjectionCheckpoint): number | undefined {
  let floor: number | undefined;
  for (const unit of units) {
    const row = usableVersion(unit, cp);
    const need = row ? Math.max(row.seq + 1, 0) : 0;
    floor = floor === undefined ? need : Math.min(floor, need);
  }
  return floor === undefined ? undefined : Math.max(floor - 1, 0);
}

export interface RestoreResult {
  snapshot: ProjectionSnapshot;
  /** Refreshed rows at the supplied end, ready for write-back (not cloned, J3.4). */
  checkpoint: ProjectionCheckpoint;
}

/**
 * Cold fold over a stored suffix (J3.4). A row is usable iff present, at the
 * unit's version, not predating the read (`seq >= baseSeq - 1`) and not past
 * the supplied end. An unusable row with `baseSeq > 0` throws (a suffix cannot
 * pretend the prefix was seen); with `baseSeq 0` the unit refolds from init.
 */
export function restore(
  units: readonly AnyUnit[], header: SessionHeader | null, inheritedEventCount: number,
  cp: ProjectionCheckpoint, events: readonly LogEvent[], baseSeq: number,
): RestoreResult {
  const endSeq = events.length ? events[events.length - 1].seq : baseSeq - 1;
  const values: Record<string, unknown> = {};
  const rows: ProjectionCheckpoint = {};
  for (const unit of units) {
    const row = usableVersion(unit, cp);
    const usable = row !== undefined && row.seq >= baseSeq - 1 && row.seq <= endSeq;
    if (!usable && baseSeq > 0) {
      throw new Error(
        `session projection ${JSON.stringify(unit.key)} cannot restore from seq ${baseSeq}: its checkpoint row is missing, version-mismatched, or beyond the supplied log end; re-read from seq 0`,
      );
    }
    let state: unknown;
    let from: number;
    if (usable) {
      // Seed: persisted state is parsed before it seeds a fold.
      const parsed = unit.stateSchema.safeParse(row.val);
      if (!parsed.success) throw new Error(`session projection ${JSON.stringify(unit.key)} checkpoint row fails its state schema`);
      state = row.val;
      from = row.seq;
    } else {
      state = unit.init(header, inheritedEventCount);
      from = baseSeq - 1;
    }
    let expected = from + 1;
    for (const event of events) {
      if (event.seq <= from) continue;
      if (event.seq !== expected) throw new Error(`session projection ${JSON.stringify(unit.key)} cannot restore across missing seq ${expected}`);
      state = unit.apply(state, event);
      expected += 1;
    }
    if (!unit.hostOnly) values[unit.key] = unit.view(state);
    rows[unit.key] = { ver: unit.stateVersion, seq: endSeq, val: state };
  }
  return { snapshot: { asOfSeq: endSeq, values }, checkpoint: rows };
}

/** Zero-read view of stored rows (J3.5): matching, schema-valid rows only; others stay absent. */
export function viewCheckpoint(units: readonly AnyUnit[], cp: ProjectionCheckpoint): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const unit of units) {
    const row = usableVersion(unit, cp);
    if (!row || unit.hostOnly || !unit.stateSchema.safeParse(row.val).success) continue;
    values[unit.key] = unit.view(row.val);
  }
  return values;
}

export interface ColdRead {
  /** `restoreFloor` of the rows; undefined when no unit is registered. */
  floor: number | undefined;
  /** The first restore's error when it had to re-read from seq 0. */
  retriedAfter: string | null;
  result: RestoreResult;
}

/**
 * DSH's cold read (J3.6, rc.8 `coldSnapshot`): floor → tail read → restore;
 * on a restore error, one full re-read from 0 with no rows. `log` is the
 * stored log as the cold reader would find it (e.g. truncated).
 */
export function coldRead(
  units: readonly AnyUnit[], header: SessionHeader | null, inheritedEventCount: number,
  cp: ProjectionCheckpoint, log: readonly LogEvent[],
): ColdRead {
  const floor = restoreFloor(units, cp);
  if (floor === undefined) {
    const asOfSeq = log.length ? log[log.length - 1].seq : -1;
    return { floor, retriedAfter: null, result: { snapshot: { asOfSeq, values: {} }, checkpoint: {} } };
  }
  try {
    const tail = log.filter((e) => e.seq >= floor);
    return { floor, retriedAfter: null, result: restore(units, header, inheritedEventCount, cp, tail, floor) };
  } catch (error) {
    const result = restore(units, header, inheritedEventCount, {}, log, 0);
    return { floor, retriedAfter: (error as Error).message, result };
  }
}
