import type { Dialect, LogEvent } from '../log/types.ts';
import { applySurfacePlan } from '../surface/apply.ts';
import { eventLookup } from '../surface/fold.ts';
import { planSurfaceEvent } from '../surface/plan.ts';
import { emptySurface, type SurfaceContext, type SurfacePlan, type SurfaceState } from '../surface/types.ts';

/**
 * One pass of the surface fold with hooks before and after each event, so
 * several analyses (requests, system prompt, runtime context) can snapshot
 * the surface at their cuts without refolding per cut. It runs the same
 * planSurfaceEvent/applySurfacePlan as foldSurface (log-and-surface §4.8–4.9):
 * a rejected event is not applied; its diagnostic is foldSurface's to report.
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
