import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { LogEvent } from '../../src/core/log/types.ts';
import { ProjectionRegistry, detachedCopy, type ProjectionCheckpoint, type ProjectionUnit } from '../../src/core/projections/index.ts';
import { hdr } from './fixtures.ts';

/** A unit that records every seq it applied, so tests see exactly which events it folded. */
const tracer = (key: string, stateVersion: number): ProjectionUnit<number[], number[]> => ({
  key, stateVersion, stateSchema: z.array(z.number()), viewSchema: z.array(z.number()),
  init: () => [],
  apply: (s, e) => [...s, e.seq],
  view: (s) => s,
});
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
const log = (last: number): LogEvent[] => range(0, last).map((seq) => ({ type: 'x', seq, time: 0, data: {} }));
const rowAt = (seq: number, ver: number) => ({ ver, seq, val: range(0, seq) });

// Spec §3.7: todos v2 @17, goal v6 @33, title v1 @40.
const registry = (...extra: ProjectionUnit<any, any>[]) =>
  new ProjectionRegistry(hdr(), [tracer('todos', 2), tracer('goal', 6), tracer('title', 1), ...extra]);
const stored: ProjectionCheckpoint = { todos: rowAt(17, 2), goal: rowAt(33, 6), title: rowAt(40, 1) };

describe('restoreFloor (spec §3.3)', () => {
  it('example 1: needs 18, 34, 41 → floor 17 (one below)', () => {
    expect(registry().restoreFloor(stored)).toBe(17);
  });
  it('example 2: a missing or version-mismatched row forces 0', () => {
    expect(registry(tracer('plan', 2)).restoreFloor(stored)).toBe(0);
    expect(new ProjectionRegistry(hdr(), [tracer('todos', 2), tracer('goal', 7), tracer('title', 1)]).restoreFloor(stored)).toBe(0);
  });
  it('rows at seq -1 force 0; unregistered keys are ignored; no unit → undefined', () => {
    expect(registry().restoreFloor({ ...stored, todos: { ver: 2, seq: -1, val: [] } })).toBe(0);
    expect(new ProjectionRegistry(hdr(), [tracer('title', 1)]).restoreFloor({ ...stored, other: { ver: 9, seq: 2, val: 0 } })).toBe(40);
    expect(new ProjectionRegistry(hdr()).restoreFloor(stored)).toBeUndefined();
  });
});

describe('restore (spec §3.4)', () => {
  it('example 1: reads 17..52; each unit applies only past its row; rows refresh at 52', () => {
    const r = registry();
    const tail = log(52).filter((e) => e.seq >= 17);
    expect(tail).toHaveLength(36);
    const { snapshot, checkpoint } = r.restore(stored, tail, 17);
    expect(snapshot.asOfSeq).toBe(52);
    expect(snapshot.values).toEqual({ todos: range(0, 52), goal: range(0, 52), title: range(0, 52) });
    expect(Object.values(checkpoint).map((row) => row.seq)).toEqual([52, 52, 52]);
  });

  it('example 2: with floor 0 the usable rows are still used and the rest refold', () => {
    const r = registry(tracer('plan', 2));
    const { snapshot } = r.restore(stored, log(52), 0);
    expect(snapshot.values.plan).toEqual(range(0, 52));
    expect(snapshot.values.goal).toEqual(range(0, 52));
  });

  it('example 3: a log truncated below the row is detected by the anchor', () => {
    const r = new ProjectionRegistry(hdr(), [tracer('todos', 2)]);
    const cp = { todos: rowAt(17, 2) };
    const floor = r.restoreFloor(cp)!;
    expect(floor).toBe(17);
    const truncated = log(16);
    expect(() => r.restore(cp, truncated.filter((e) => e.seq >= floor), floor)).toThrow(
      'session projection "todos" cannot restore from seq 17: its checkpoint row is missing, version-mismatched, or beyond the supplied log end; re-read from seq 0',
    );
    // Without the anchor (reading from 18) the stale row would pass as current.
    expect(r.restore(cp, log(17).filter((e) => e.seq >= 18), 18).snapshot.asOfSeq).toBe(17);
    const cold = r.coldRead(cp, truncated);
    expect(cold.retriedAfter).toMatch(/cannot restore from seq 17/);
    expect(cold.result.snapshot).toEqual({ asOfSeq: 16, values: { todos: range(0, 16) } });
  });

  it('an empty tail with a current checkpoint returns asOfSeq = baseSeq - 1', () => {
    const r = new ProjectionRegistry(hdr(), [tracer('todos', 2)]);
    const { snapshot } = r.restore({ todos: rowAt(17, 2) }, log(17).filter((e) => e.seq >= 17), 17);
    expect(snapshot.asOfSeq).toBe(17);
    expect(r.restore({ todos: rowAt(16, 2) }, [], 17).snapshot.asOfSeq).toBe(16);
  });

  it('restore({}, events, 0) folds everything from init; a hole throws', () => {
    const r = new ProjectionRegistry(hdr(), [tracer('todos', 2)]);
    expect(r.restore({}, log(3), 0).snapshot.values.todos).toEqual([0, 1, 2, 3]);
    const holed = log(5).filter((e) => e.seq !== 3);
    expect(() => r.restore({}, holed, 0)).toThrow('session projection "todos" cannot restore across missing seq 3');
  });

  it('a row that fails its state schema throws', () => {
    const r = new ProjectionRegistry(hdr(), [tracer('todos', 2)]);
    expect(() => r.restore({ todos: { ver: 2, seq: 1, val: 'nope' } }, log(3), 0)).toThrow(/state schema/);
  });
});

describe('checkpoint and viewCheckpoint (spec §3.2, §3.5)', () => {
  it('rows are detached copies at the watermark', () => {
    const r = new ProjectionRegistry(hdr(), [tracer('todos', 2)]);
    r.applyAll(log(4));
    const cp = r.checkpoint();
    expect(cp).toEqual({ todos: { ver: 2, seq: 4, val: [0, 1, 2, 3, 4] } });
    expect(cp.todos.val).not.toBe(r.cell('todos')!.state);
    (cp.todos.val as number[]).push(99);
    expect(r.snapshot().values.todos).toEqual([0, 1, 2, 3, 4]);
  });
  it('a non-plain-JSON state is refused', () => {
    expect(() => detachedCopy({ at: new Date(0) })).toThrow('projection checkpoint is not losslessly JSON-serializable (a unit state violates the plain-JSON contract)');
    expect(() => detachedCopy({ n: NaN })).toThrow();
  });
  it('viewCheckpoint serves matching, valid rows only, with no log read', () => {
    const r = new ProjectionRegistry(hdr(), [tracer('todos', 2), tracer('goal', 6), tracer('title', 1)]);
    expect(r.viewCheckpoint({ todos: rowAt(3, 2), goal: rowAt(3, 5), title: { ver: 1, seq: 3, val: 'bad' } })).toEqual({ todos: range(0, 3) });
  });
});
