import type { Dialect, LogEvent } from '../log/types.ts';
import { applySurfacePlan } from './apply.ts';
import { planSurfaceEvent } from './plan.ts';
import { emptySurface, type SurfaceContext, type SurfacePlan, type SurfaceState } from './types.ts';

/**
 * One pass of the surface fold with hooks before and after each event, so
 * several consumers (the full fold, the replay index, requests, system
 * prompt, runtime context) share one walk of planSurfaceEvent /
 * applySurfacePlan (log-and-surface §4.8–4.9) instead of each looping. A
 * rejected event is not applied; foldSurface reports it.
 */
export interface SurfaceVisitor {
  /** Called with the surface of every event before `event`. */
  before?(event: LogEvent, state: SurfaceState, ctx: SurfaceContext): void;
  /** Called after `event` was planned and (unless rejected) applied. */
  after?(event: LogEvent, state: SurfaceState, plan: SurfacePlan, ctx: SurfaceContext): void;
}

export function walkSurface(events: readonly LogEvent[], dialect: Dialect, visitors: readonly SurfaceVisitor[]): SurfaceState {
  const ctx: SurfaceContext = { dialect, eventAt: eventLookup(events) };
  const state = emptySurface();
  for (const event of events) {
    for (const v of visitors) v.before?.(event, state, ctx);
    const plan = planSurfaceEvent(state, event, ctx);
    applySurfacePlan(state, plan);
    for (const v of visitors) v.after?.(event, state, plan, ctx);
  }
  return state;
}

/**
 * Visitors that must not abort a shared walk: the first exception is kept
 * and the group goes quiet, so the walk (and whoever owns it) finishes.
 */
export function guardVisitors(visitors: readonly SurfaceVisitor[]): { visitor: SurfaceVisitor; error(): unknown } {
  let failure: unknown = undefined;
  let failed = false;
  const run = (fn: () => void) => {
    if (failed) return;
    try { fn(); } catch (err) { failed = true; failure = err; }
  };
  return {
    visitor: {
      before: (event, state, ctx) => run(() => { for (const v of visitors) v.before?.(event, state, ctx); }),
      after: (event, state, plan, ctx) => run(() => { for (const v of visitors) v.after?.(event, state, plan, ctx); }),
    },
    error: () => (failed ? failure ?? new Error('visitor failed') : undefined),
  };
}

/** Event lookup by seq for a log whose seqs may have gaps (a corrupt log is still shown). */
export function eventLookup(events: readonly LogEvent[]): (seq: number) => LogEvent | undefined {
  const base = events.length ? events[0].seq : 0;
  const contiguous = events.every((e, i) => e.seq === base + i);
  if (contiguous) return (seq) => events[seq - base];
  const bySeq = new Map(events.map((e) => [e.seq, e]));
  return (seq) => bySeq.get(seq);
}
