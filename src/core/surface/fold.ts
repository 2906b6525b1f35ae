import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.ts';
import type { Dialect, LogEvent } from '../log/types.ts';
import type { SurfaceState } from './types.ts';
import { walkSurface, type SurfaceVisitor } from './walk.ts';

export { eventLookup } from './walk.ts';

/** One event that changed the surface, as DSH's reference `steps[]` lists them. */
export interface SurfaceStep {
  seq: number;
  type: string;
  op: 'append' | 'replace' | 'project';
  nodes: number[];
  replaceGeneration: number;
  contentGeneration: number;
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

/** The fold's own visitor: rejections become diagnostics; with `steps`, every change is recorded. */
export function foldRecorder(options: FoldOptions = {}): { visitor: SurfaceVisitor; steps: SurfaceStep[]; diagnostics: Diagnostic[] } {
  const steps: SurfaceStep[] = [];
  const diagnostics: Diagnostic[] = [];
  const visitor: SurfaceVisitor = { run() { /* chunk deltas change nothing */ }, after(event, state, plan) {
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
  } };
  return { visitor, steps, diagnostics };
}

/**
 * Folds the surface of a whole log from seq 0 (dsh-log-rules L1.7: a window is only
 * correct when folded from the start). A rejected event becomes an error
 * diagnostic and is not applied; folding continues.
 */
export function foldSurface(events: readonly LogEvent[], dialect: Dialect, options: FoldOptions = {}): SurfaceFold {
  const recorder = foldRecorder(options);
  const state = walkSurface(events, dialect, [recorder.visitor]);
  return { state, steps: recorder.steps, diagnostics: recorder.diagnostics };
}
