import type { EventList } from '../log/event-list.ts';
import { MESSAGE_PROJECTION_TYPES, surfaceEventTypes } from '../log/event-types.ts';
import { runMember, type PackedRun } from '../log/packed-rows.ts';
import type { Dialect, LogEvent } from '../log/types.ts';
import { applySurfacePlan } from './apply.ts';
import { planSurfaceEvent } from './plan.ts';
import { emptySurface, type SurfaceContext, type SurfacePlan, type SurfaceState } from './types.ts';

/**
 * One pass of the surface fold with hooks before and after each event, so
 * several consumers (the full fold, the replay index, requests, system
 * prompt, runtime context, projections) share one walk of planSurfaceEvent /
 * applySurfacePlan (dsh-log-rules L4.8–L4.9) instead of each looping. A
 * rejected event is not applied; foldSurface reports it.
 */
export interface SurfaceVisitor {
  /** Called with the surface of every event before `event`. */
  before?(event: LogEvent, state: SurfaceState, ctx: SurfaceContext): void;
  /** Called after `event` was planned and (unless rejected) applied. */
  after?(event: LogEvent, state: SurfaceState, plan: SurfacePlan, ctx: SurfaceContext): void;
  /**
   * A packed run of chunk deltas, none of which changes the surface, in one
   * call (huge logs are mostly these). A visitor without it gets before/after
   * per member, so bulk handling is an optimisation, never a second rule.
   */
  run?(run: PackedRun, state: SurfaceState, ctx: SurfaceContext): void;
  /**
   * The event types this visitor's `before`/`after` need; undefined = every
   * event. A walk calls a visitor only for these (most events of a long log
   * are chunk deltas most analyses ignore), so a visitor must list every type
   * it reacts to — SURFACE_CHANGING_TYPES for one that follows the surface.
   */
  readonly reads?: ReadonlySet<string>;
}

/** Every type whose event may append, replace or project (any dialect): what a visitor following the surface reads. */
export const SURFACE_CHANGING_TYPES: ReadonlySet<string> = new Set([...surfaceEventTypes('v4'), ...MESSAGE_PROJECTION_TYPES]);

/** The union of type sets (undefined when any is undefined: then every event). */
export function readsOf(...sets: (ReadonlySet<string> | Iterable<string> | undefined)[]): ReadonlySet<string> | undefined {
  const out = new Set<string>();
  for (const s of sets) {
    if (s === undefined) return undefined;
    for (const t of s) out.add(t);
  }
  return out;
}

/** The visitors to call for each event type, made once per type. */
class Dispatch {
  private readonly byType = new Map<string, readonly SurfaceVisitor[]>();
  constructor(private readonly visitors: readonly SurfaceVisitor[]) {}
  for(type: string): readonly SurfaceVisitor[] {
    let list = this.byType.get(type);
    if (!list) {
      list = this.visitors.filter((v) => v.reads === undefined || v.reads.has(type));
      this.byType.set(type, list);
    }
    return list;
  }
}

/** A run to one visitor: in bulk when it has a `run` hook, else member by member (when it reads chunk deltas). */
export function visitRun(visitor: SurfaceVisitor, run: PackedRun, state: SurfaceState, ctx: SurfaceContext): void {
  if (visitor.run) visitor.run(run, state, ctx);
  else if (visitor.reads === undefined || visitor.reads.has('assistant/chunk')) visitRunMembers(visitor, run, state, ctx);
}

/** A visitor's per-event hooks for each member of a run: the default when it has no `run`. */
function visitRunMembers(visitor: SurfaceVisitor, run: PackedRun, state: SurfaceState, ctx: SurfaceContext): void {
  if (!visitor.before && !visitor.after) return;
  const next = state.nextSeq;
  for (let k = 0; k < run.pieces.length; k++) {
    const event = runMember(run, k);
    state.nextSeq = event.seq;
    visitor.before?.(event, state, ctx);
    state.nextSeq = event.seq + 1;
    visitor.after?.(event, state, { kind: 'none', seq: event.seq }, ctx);
  }
  state.nextSeq = next;
}

/** The walk one event at a time, for a caller that receives events as a stream (the loader). */
export class SurfaceWalker {
  readonly state: SurfaceState = emptySurface();
  private readonly dispatch: Dispatch;

  constructor(readonly ctx: SurfaceContext, private readonly visitors: readonly SurfaceVisitor[]) {
    this.dispatch = new Dispatch(visitors);
  }

  step(event: LogEvent): SurfacePlan {
    const { state, ctx } = this;
    const visitors = this.dispatch.for(event.type);
    for (const v of visitors) v.before?.(event, state, ctx);
    const plan = planSurfaceEvent(state, event, ctx);
    applySurfacePlan(state, plan);
    for (const v of visitors) v.after?.(event, state, plan, ctx);
    return plan;
  }

  /** A packed run: members differ only in seq, time and text, so the first one's plan is every member's. */
  stepRun(run: PackedRun): void {
    const { state, ctx } = this;
    const plan = planSurfaceEvent(state, runMember(run, 0), ctx);
    if (plan.kind !== 'none') {
      for (let k = 0; k < run.pieces.length; k++) this.step(runMember(run, k));
      return;
    }
    state.nextSeq = run.seq0;
    for (const v of this.visitors) visitRun(v, run, state, ctx);
    state.nextSeq = run.seq0 + run.pieces.length;
  }
}

export function walkSurface(
  events: EventList,
  dialect: Dialect,
  visitors: readonly SurfaceVisitor[],
  eventAt: (seq: number) => LogEvent | undefined = eventLookup(events),
): SurfaceState {
  const walker = new SurfaceWalker({ dialect, eventAt }, visitors);
  for (const event of events) walker.step(event);
  return walker.state;
}

/**
 * Visitors that must not abort a shared walk: the first exception is kept
 * and the group goes quiet, so the walk (and whoever owns it) finishes.
 */
export function guardVisitors(visitors: readonly SurfaceVisitor[]): { visitor: SurfaceVisitor; error(): unknown } {
  let failure: unknown = undefined;
  let failed = false;
  const fail = (err: unknown) => { failed = true; failure = err; };
  const dispatch = new Dispatch(visitors);
  // Hooks per event: plain loops in a try, no closure made per call.
  return {
    visitor: {
      reads: readsOf(...visitors.map((v) => v.reads)),
      before(event, state, ctx) {
        if (failed) return;
        try { for (const v of dispatch.for(event.type)) v.before?.(event, state, ctx); } catch (err) { fail(err); }
      },
      after(event, state, plan, ctx) {
        if (failed) return;
        try { for (const v of dispatch.for(event.type)) v.after?.(event, state, plan, ctx); } catch (err) { fail(err); }
      },
      run(packed, state, ctx) {
        if (failed) return;
        try { for (const v of visitors) visitRun(v, packed, state, ctx); } catch (err) { fail(err); }
      },
    },
    error: () => (failed ? failure ?? new Error('visitor failed') : undefined),
  };
}

/** Event lookup by seq for a log whose seqs may have gaps (a corrupt log is still shown). */
export function eventLookup(events: EventList): (seq: number) => LogEvent | undefined {
  const first = events.at(0);
  const base = first ? first.seq : 0;
  if (Array.isArray(events)) {
    const list = events as readonly LogEvent[];
    const contiguous = list.every((e, i) => e.seq === base + i);
    if (contiguous) return (seq) => list[seq - base];
    const bySeq = new Map(list.map((e) => [e.seq, e]));
    return (seq) => bySeq.get(seq);
  }
  // A lazy list (the EventStore) looks events up by seq itself.
  const lazy = events as EventList & { bySeq?(seq: number): LogEvent | undefined };
  if (!lazy.bySeq) throw new Error('eventLookup needs an array or a list with bySeq');
  return (seq) => lazy.bySeq!(seq);
}
