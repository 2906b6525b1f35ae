import type { Diagnostic } from '../../core/diagnostics/diagnostic.ts';
import { findingIndexer, type SessionSummary } from '../../core/session/summary.ts';
import type { LoadSummary, RequestRow } from '../protocol.ts';
import type { Analyses } from './analyses.ts';
import type { EventStore } from '../../core/log/event-store.ts';
import type { SessionFold } from '../../core/session/fold-session.ts';
import type { JobsService } from '../services/jobs.ts';

/**
 * What the page is told of an open log: the core's whole-log facts, the
 * replay columns, every finding with the event it points at, the Requests
 * rows, the background jobs, the runtime-context snapshots and the units' change strips.
 */
export function pageSummary(input: { name: string; fingerprint: string; started: number; session: SessionFold<EventStore> }, analyses: Analyses, facts: SessionSummary, projectionUnits: LoadSummary['projectionUnits'], requests: RequestRow[], jobs: JobsService): LoadSummary {
  const { session } = input;
  const { read } = session;
  const { replay, prompts } = analyses;
  const { columns } = replay.index;
  const findings: Diagnostic[] = [...analyses.failures, ...jobs.findings, ...prompts.findings.map((f) => ({ ...f }))];
  const findingIndex = findingIndexer(session, (seq) => replay.indexOfSeq(seq));
  return {
    name: input.name,
    fingerprint: input.fingerprint,
    inherited: facts.inherited,
    header: read.header,
    version: read.version,
    dialect: read.dialect,
    encoding: read.scan.encoding,
    count: session.events.length,
    syntheticCount: session.synthetic.length,
    lastSeq: facts.lastSeq,
    typeCounts: facts.typeCounts,
    diagnostics: [...session.diagnostics, ...findings].map((d) => ({ ...d, index: findingIndex(d) })),
    tornTail: read.tornTail,
    ok: session.ok,
    verdict: facts.verdict,
    columns,
    timeBase: replay.index.timeBase,
    typeNames: replay.index.typeNames,
    families: replay.index.families,
    replacements: session.surface.replacements,
    turns: facts.turns,
    requests,
    jobs: [...jobs.rows],
    callCuts: Int32Array.from(requests, (r) => r.cutIndex),
    contextSnapshots: prompts.runtimeContext.snapshots.map((c) => ({
      seq: c.seq, index: replay.indexOfSeq(c.seq), names: [...c.names], onSurface: c.onSurface,
      shadowedBy: c.shadowedBy, reemittedAfterShadowing: c.reemittedAfterShadowing, unchanged: c.unchanged,
      cleared: c.form === 'cleared', turn: c.turn, step: c.step,
    })),
    systemPromptSource: prompts.systemPromptSource,
    projectionUnits,
    loadMs: Date.now() - input.started,
    projectedBy: analyses.projectedBy,
  };
}
