import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.ts';
import type { Dialect, LogEvent } from '../log/types.ts';
import { applySurfacePlan } from './apply.ts';
import { planSurfaceEvent } from './plan.ts';
import { emptySurface, type SurfaceContext, type SurfaceState } from './types.ts';

/** One event that changed the surface, as DSH's reference `steps[]` lists them. */
export interface SurfaceStep {
  seq: number;
  type: string;
  op: 'append' | 'replace' | 'project';
  nodes: number[];
  replaceGeneration: number;
  contentGeneration: number;
}

/** Event lookup by seq for a log whose seqs may have gaps (a corrupt log is still shown). */
export function eventLookup(events: readonly LogEvent[]): (seq: number) => LogEvent | undefined {
  const contiguous = events.every((e, i) => e.seq === events[0].seq + i);
  if (contiguous) {
    const base = events.length ? events[0].seq : 0;
    return (seq) => events[seq - base];
  }
  const bySeq = new Map(events.map((e) => [e.seq, e]));
  return (seq) => bySeq.get(seq);
}

export interface FoldOptions {
  /** Record the node list after every surface change (costly for huge logs). */
  steps?: boolean;
}

export interface SurfaceFold {
  state: SurfaceState;
  steps: SurfaceStep[];
  diagnostics: Diagnostic[];
}

/**
 * Folds the surface of a whole log from seq 0 (spec §1.7: a window is only
 * correct when folded from the start). A rejected event becomes an error
 * diagnostic and is not applied; folding continues.
 */
export function foldSurface(events: readonly LogEvent[], dialect: Dialect, options: FoldOptions = {}): SurfaceFold {
  const ctx: SurfaceContext = { dialect, eventAt: eventLookup(events) };
  const state = emptySurface();
  const steps: SurfaceStep[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const event of events) {
    const plan = planSurfaceEvent(state, event, ctx);
    applySurfacePlan(state, plan);
    if (plan.kind === 'reject') {
      diagnostics.push(diagnostic(plan.code, `invalid event at seq ${event.seq}: ${plan.message}`, { seq: event.seq }));
    } else if (options.steps && plan.kind !== 'none') {
      steps.push({
        seq: event.seq,
        type: event.type,
        op: plan.kind,
        nodes: state.nodes.slice(),
        replaceGeneration: state.replaceGeneration,
        contentGeneration: state.contentGeneration,
      });
    }
  }
  return { state, steps, diagnostics };
}
