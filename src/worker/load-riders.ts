import type { EventStore } from '../core/log/event-store.ts';
import type { LogMeta } from '../core/log/types.ts';
import type { ProjectionRegistry } from '../core/projections/registry.ts';
import { loadRegistry } from '../core/projections/load-registry.ts';
import { FactsTracker, likelyFacts, startPromptAnalysis, type LogFacts, type PromptAnalysisRun } from '../core/requests/analyze.ts';
import { ReplayBuilder } from '../core/replay/replay-index.ts';
import { ToolPairer } from '../core/replay/tool-pairs.ts';
import { guardVisitors, type SurfaceVisitor } from '../core/surface/walk.ts';
import { BYTES_PER_EVENT } from '../core/session/stream-load.ts';
import { ReadChunkTally } from '../core/projections/chunk-skip.ts';
import { TurnOutcomeTally } from '../core/session/turn-outcomes.ts';
import { NotedCalls } from '../core/search/noted-calls.ts';
import { JobTally } from '../core/jobs/job-tally.ts';

export interface LoadRiders {
  visitors: SurfaceVisitor[];
  replay: ReplayBuilder;
  /** Tool calls and results, paired as the walk passes them (the events list shows the pairs). */
  toolPairs: ToolPairer;
  prompt: PromptAnalysisRun;
  promptGuard: ReturnType<typeof guardVisitors>;
  /** The whole-log facts the prompt analysis assumed, and the ones the walk saw. */
  assumed: LogFacts;
  facts: FactsTracker;
  /** Null when a helper worker folds the units (see Projector). */
  projections: ProjectionRegistry | null;
  /** With a helper: the chunk events its units read, counted to check the lines it skipped (chunk-skip.ts). */
  readChunks: ReadChunkTally | null;
  projectionsGuard: ReturnType<typeof guardVisitors> | null;
  /** How each turn ended (a comparison's summary shows them without reading the log again). */
  turnOutcomes: TurnOutcomeTally;
  /** The tool call names by id, as of each event (a `tool:` search reads them instead of parsing the calls again). */
  calls: NotedCalls;
  /** Background jobs, paired by id as the walk passes their records (the Jobs lane). */
  jobs: JobTally;
}

/**
 * Everything the worker derives at load, as visitors of the one surface
 * walk. The prompt/request analysis and the projections are each guarded:
 * a failure in one is reported and never stops the walk.
 */
export function loadRiders(meta: LogMeta, totalBytes: number | null, store?: EventStore, options: { projections?: boolean } = {}): LoadRiders {
  const capacity = totalBytes ? totalBytes / BYTES_PER_EVENT : 1024;
  const replay = store ? ReplayBuilder.forStore(store, { capacity, dialect: meta.dialect }) : new ReplayBuilder({ capacity, dialect: meta.dialect });
  const assumed = likelyFacts(meta);
  const facts = new FactsTracker();
  const prompt = startPromptAnalysis(meta, assumed, {}, store ? { projectedCount: (n) => store.projectedCount(n) } : {});
  const promptGuard = guardVisitors(prompt.visitors);
  const projections = options.projections === false ? null : loadRegistry(meta, store ? (seq) => store.bySeq(seq) : undefined);
  const projectionsGuard = projections && guardVisitors([{ reads: projections.reads, after: (e) => void projections.apply(e), run: (r) => projections.applyRun(r) }]);
  // With a helper: its units (the same registry it drives) asked only which kinds they read.
  const helperUnits = projections ? null : loadRegistry(meta, undefined);
  const readChunks = helperUnits && new ReadChunkTally((kind) => helperUnits.readsKind(kind));
  const toolPairs = new ToolPairer();
  const turnOutcomes = new TurnOutcomeTally();
  const calls = new NotedCalls();
  const jobs = new JobTally();
  return {
    visitors: [replay, facts, toolPairs, turnOutcomes, calls, jobs, promptGuard.visitor, projectionsGuard?.visitor ?? readChunks].filter((v): v is SurfaceVisitor => v !== null),
    replay, toolPairs, prompt, promptGuard, assumed, facts, projections, projectionsGuard, readChunks, turnOutcomes, calls, jobs,
  };
}
