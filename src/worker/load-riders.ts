import type { EventStore } from '../core/log/event-store.ts';
import type { LogMeta } from '../core/log/types.ts';
import { ProjectionRegistry } from '../core/projections/registry.ts';
import { generationOf, unitsFor } from '../core/projections/units/index.ts';
import { FactsTracker, likelyFacts, startPromptAnalysis, type LogFacts, type PromptAnalysisRun } from '../core/requests/analyze.ts';
import { ReplayBuilder } from '../core/replay/replay-index.ts';
import { guardVisitors, type SurfaceVisitor } from '../core/surface/walk.ts';
import { BYTES_PER_EVENT } from '../core/session/stream-load.ts';

export interface LoadRiders {
  visitors: SurfaceVisitor[];
  replay: ReplayBuilder;
  prompt: PromptAnalysisRun;
  promptGuard: ReturnType<typeof guardVisitors>;
  /** The whole-log facts the prompt analysis assumed, and the ones the walk saw. */
  assumed: LogFacts;
  facts: FactsTracker;
  projections: ProjectionRegistry;
  projectionsGuard: ReturnType<typeof guardVisitors>;
}

/**
 * Everything the worker derives at load, as visitors of the one surface
 * walk. The prompt/request analysis and the projections are each guarded:
 * a failure in one is reported and never stops the walk.
 */
export function loadRiders(meta: LogMeta, totalBytes: number | null, store?: EventStore): LoadRiders {
  const capacity = totalBytes ? totalBytes / BYTES_PER_EVENT : 1024;
  const replay = store ? ReplayBuilder.forStore(store, { capacity }) : new ReplayBuilder({ capacity });
  const assumed = likelyFacts(meta);
  const facts = new FactsTracker();
  const prompt = startPromptAnalysis(meta, assumed);
  const promptGuard = guardVisitors(prompt.visitors);
  const projections = new ProjectionRegistry(meta.header, unitsFor(meta.dialect), {
    // The purity audit (deep freeze, equal-state checks on every event) is for tests and the
    // CLI; the load's states only ever leave the worker as structured clones.
    // History keeps a state every few changes and folds the rest again from the store's events.
    // No listener reads change frames at load (the history is what is kept): no view is made per change.
    generation: generationOf(meta.dialect), history: true, keepEvents: false, purity: false, frames: false,
    eventAt: store ? (seq) => store.bySeq(seq) : undefined,
  });
  const projectionsGuard = guardVisitors([{ reads: projections.reads, after: (e) => void projections.apply(e), run: (r) => projections.applyRun(r) }]);
  return {
    visitors: [replay, facts, promptGuard.visitor, projectionsGuard.visitor],
    replay, prompt, promptGuard, assumed, facts, projections, projectionsGuard,
  };
}
