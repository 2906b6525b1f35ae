import { SURFACE_CHANGE } from '../../core/replay/navigate.ts';
import type { LoadSummary } from '../../worker/protocol.ts';

/** The events where replaceGeneration and contentGeneration step (the generations chart's marks). */
export interface Steps { replace: number[]; content: number[] }
export const NO_STEPS: Steps = { replace: [], content: [] };

/** Where each generation steps: events from `from` on added to `kept` (a loading or followed log's grow, grown-rows-cache.ts). */
export function generationSteps(summary: LoadSummary, kept: Steps = NO_STEPS, from = 0): Steps {
  const replace = kept.replace.slice();
  const content = kept.content.slice();
  const c = summary.columns.surfaceChange;
  for (let i = from; i < summary.count; i++) {
    if (c[i] === SURFACE_CHANGE.replace) { replace.push(i); content.push(i); }
    else if (c[i] === SURFACE_CHANGE.project) content.push(i);
  }
  return { replace, content };
}
