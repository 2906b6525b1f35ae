import { diagnostic, type Diagnostic } from '../../core/diagnostics/diagnostic.ts';
import type { EventStore } from '../../core/log/event-store.ts';
import type { LogEvent } from '../../core/log/types.ts';
import { chunkEventsOn, skippedEventCount } from '../../core/projections/chunk-skip.ts';
import { loadRegistry } from '../../core/projections/load-registry.ts';
import type { ProjectedLog } from '../../core/projections/project-log.ts';
import { ProjectionRegistry } from '../../core/projections/registry.ts';
import { Replay } from '../../core/replay/replay-index.ts';
import { analyzePrompts, decisionsMatch, surfaceBeforeOf, type PromptAnalysis } from '../../core/requests/analyze.ts';
import type { SessionFold } from '../../core/session/fold-session.ts';
import { emptySurface } from '../../core/surface/types.ts';
import type { LoadRiders } from '../load-riders.ts';
import type { LoadSummary } from '../protocol.ts';

/** What a log's analyses made of it, once its walk is done (or, `live`, as far as it went). */
export interface Analyses {
  replay: Replay<EventStore>;
  projections: ProjectionRegistry;
  projectedBy: NonNullable<LoadSummary['projectedBy']>;
  prompts: PromptAnalysis;
  /** An analysis that could not be built, as a finding (the log still opens without it). */
  failures: Diagnostic[];
}

/**
 * The replay index, the projection units and the prompt/request analysis
 * from the riders of the load's walk. `live`: the walk goes on (a followed
 * log), so what the riders made so far is read and nothing is ended. Each is
 * isolated: one that throws becomes a finding and an empty stand-in.
 */
export function analysesOf(session: SessionFold<EventStore>, riders: LoadRiders, projected: ProjectedLog | null, live: boolean): Analyses {
  const { read } = session;
  const replay = new Replay(session, riders.replay.finish(session.loggedCount, live));
  const failures: Diagnostic[] = [];
  const isolate = <T>(what: string, build: () => T, fallback: () => T): T => {
    try { return build(); } catch (err) {
      failures.push(diagnostic('analysis.failed', `${what} could not be built for this log: ${err instanceof Error ? err.message : String(err)}`));
      return fallback();
    }
  };
  let projectedBy: Analyses['projectedBy'] = 'walk';
  const projections = isolate('projections', () => {
    if (riders.projections) {
      const error = riders.projectionsGuard!.error();
      if (error) throw error;
      return riders.projections;
    }
    const made = projectionsOf(session, projected, riders.readChunks?.count ?? 0, replay);
    projectedBy = made.by;
    return made.registry;
  }, () => new ProjectionRegistry(read.header, [], { history: true }));
  const prompts = isolate('the prompt and request analysis', () => {
    // The walk guessed two whole-log facts; a log that breaks the guess is analysed again.
    if (!decisionsMatch(read, riders.assumed, riders.facts.facts)) return analyzePrompts(session);
    const error = riders.promptGuard.error();
    if (error) throw error;
    const before = surfaceBeforeOf(replay);
    return live ? riders.prompt.soFar(replay.finalState, before, session.eventAt) : riders.prompt.finish(replay.finalState, before, session.eventAt);
  }, () => analyzePrompts(emptySessionLike(read)));
  return { replay, projections, projectedBy, prompts, failures };
}

/**
 * The load's projection registry from the helper's history: imported, then
 * the restore's synthetic events applied, as the walk would have. A helper
 * that read a different log (the file changed between the two reads) or
 * sent nothing is not trusted: the units are folded here from the store's
 * events. A fold that failed in the helper fails here the same way.
 */
function projectionsOf(session: SessionFold<EventStore>, projected: ProjectedLog | null, readChunks: number, replay: Replay<EventStore>): { registry: ProjectionRegistry; by: 'helper' | 'store' } {
  const { read } = session;
  const meta = { header: read.header, version: read.version, dialect: read.dialect };
  const eventAt = (seq: number) => session.events.bySeq(seq);
  if (projected?.error && projected.error !== 'cancelled') throw new Error(projected.error);
  const history = projected?.history;
  const logged = session.loggedCount;
  const lastSeq = logged ? session.events.at(logged - 1)!.seq : -1;
  // The chunk lines the helper did not parse, checked against this load's full read (chunk-skip.ts).
  const skipped = projected?.skips ? skippedEventCount(projected.skips, { read, readChunks, chunkEventsOn: (lines) => chunkEventsOn(session.events, replay.index, lines) }) : 0;
  // The helper drove every event but those; the last one it drove is the log's last, unless that one's line was skipped.
  const lastLineSkipped = logged > 0 && projected?.skips?.lines.at(-1) === session.originAt(logged - 1)?.line;
  if (history && skipped !== null && history.driven + skipped === logged && (history.lastSeq === lastSeq || lastLineSkipped)) {
    try {
      const registry = loadRegistry(meta, eventAt);
      // Skipped events reached no unit; every watermark is still the last event's (registry.watermark).
      registry.importHistory({ ...history, driven: logged, lastSeq });
      for (const event of session.synthetic) registry.apply(event);
      return { registry, by: 'helper' };
    } catch {
      // Units that do not fit (another build of the app in the helper): fold here.
    }
  }
  const registry = loadRegistry(meta, eventAt);
  // A scan: parsed past the cache, so it does not evict what the cursor will use.
  for (let i = 0; i < session.events.length; i++) registry.apply(session.events.peek(i)!);
  return { registry, by: 'store' };
}

/** A session with no events, for the empty analysis a failed one falls back to (never a spread of the real one: its getters walk the log). */
function emptySessionLike(read: SessionFold['read']): SessionFold<LogEvent[]> {
  return {
    read, synthetic: [], events: [], loggedCount: 0, originAt: () => null, surface: emptySurface(), steps: [],
    diagnostics: [], messages: [], transcript: [], ok: true, eventAt: () => undefined,
  };
}
