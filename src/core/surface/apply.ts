import type { SurfacePlan, SurfaceState } from './types.ts';

/**
 * Commits a plan into the state (dsh-log-rules L4.2, L5, L6.4). It mutates `state`
 * in place — the fold owns its state; keep checkpoints with cloneSurface.
 * A rejected plan changes nothing but the expected next seq.
 */
export function applySurfacePlan(state: SurfaceState, plan: SurfacePlan): void {
  state.nextSeq = plan.seq + 1;
  switch (plan.kind) {
    case 'append':
      state.nodes.push(plan.seq);
      return;
    case 'replace':
      state.nodes.splice(plan.startIndex, plan.endIndex - plan.startIndex + 1, plan.seq);
      state.replaceGeneration += 1;
      state.contentGeneration += 1;
      state.replacements.push({ seq: plan.seq, start: plan.start, end: plan.end, shadowedSeqs: plan.shadowed, index: plan.startIndex });
      return;
    case 'project':
      for (const [seq, message] of plan.messages) state.projected.set(seq, message);
      state.contentGeneration += 1;
      return;
    case 'none':
    case 'reject':
      return;
    default:
      assertNever(plan);
  }
}

function assertNever(x: never): never {
  throw new Error(`unhandled surface plan ${JSON.stringify(x)}`);
}
