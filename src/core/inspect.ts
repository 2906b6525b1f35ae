import type { Diagnostic } from './diagnostics/diagnostic.ts';
import { logVerdict, type Verdict, type VerdictKind } from './diagnostics/verdict.ts';
import type { LogEvent, ReadResult } from './log/types.ts';
import { deriveMessages } from './messages/derive.ts';
import type { TranscriptEntry } from './messages/transcript.ts';
import type { Message } from './messages/types.ts';
import { projectionsOf, projectionsReport, type ProjectionReportEntry } from './projections/index.ts';
import type { SnapshotEntry } from './prompt/context-stream.ts';
import type { SystemPromptAt, SystemPromptCommit } from './prompt/system-timeline.ts';
import { analyzePrompts, inspectRequests, type InspectedRequest } from './requests/analyze.ts';
import { foldSession } from './session/fold-session.ts';
import { foldSurface } from './surface/fold.ts';

/**
 * The core's results for one log as a plain JSON document: what
 * `npm run inspect -- <log> --json` prints and what tests compare. Counts
 * are of logical events (after packed-row expansion). With `at`, the
 * surface, messages, projections, prompt and context are as of that seq.
 */
export interface Inspection {
  format: { version: number; dialect: string; encoding: string };
  header: ReadResult['header'];
  eventCount: number;
  /** -1 for a log with no events, as DSH reports it. */
  lastSeq: number;
  eventTypeCounts: Record<string, number>;
  tornTail: boolean;
  tornTailDetail: { bytes: number; rows: number } | null;
  scan: ReadResult['scan'];
  /** Reader, fold and prompt/request findings. */
  diagnostics: Diagnostic[];
  /** False when DSH would refuse to restore the log (any refusing diagnostic). */
  ok: boolean;
  /**
   * The app's word on the log as a whole: `ok`, `dsh-refuses` (a DSH rule
   * fails), `newer-than-app` (a type, format or payload version this app does
   * not know) or `not-dsh` (no session header, not JSONL).
   */
  verdict: VerdictKind;
  /** The verdict's summary, deciding findings, partial analyses and what the app knows. */
  verdictDetail: Verdict;
  /** The seq the state fields below describe. */
  asOfSeq: number;
  surface: { nodes: number[]; replaceGeneration: number; contentGeneration: number };
  /** The derived model messages, as DSH's deriveMessages() returns them. */
  messages: Message[];
  transcript: TranscriptEntry[];
  /** Events the restore appends (interrupted-turn closers, end-seed); not in the file. */
  synthetic: LogEvent[];
  /** Each projection unit's view and watermark (observedSeq). */
  projections: Record<string, ProjectionReportEntry>;
  systemPrompt: SystemPromptAt & { source: 'header' | 'system-message'; commits: SystemPromptCommit[] };
  runtimeContext: { effectiveSeq: number | null; snapshots: SnapshotEntry[] };
  /** Every model call of the whole log. */
  requests: InspectedRequest[];
}

export function eventTypeCounts(result: ReadResult): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of result.events) counts[e.type] = (counts[e.type] ?? 0) + 1;
  return counts;
}

export function inspect(result: ReadResult, options: { at?: number } = {}): Inspection {
  const session = foldSession(result);
  const prompts = analyzePrompts(session);
  const lastSeq = session.events.length ? session.events[session.events.length - 1].seq : -1;
  const at = options.at === undefined ? lastSeq : Math.min(options.at, lastSeq);
  const surface = at === lastSeq ? session.surface : foldSurface(session.events.filter((e) => e.seq <= at), result.dialect).state;
  const diagnostics: Diagnostic[] = [...session.diagnostics, ...prompts.findings];
  const types = eventTypeCounts(result);
  const verdict = logVerdict({ header: result.header, version: result.version, diagnostics: session.diagnostics, types: Object.keys(types) });
  return {
    format: { version: result.version, dialect: result.dialect, encoding: result.scan.encoding },
    header: result.header,
    eventCount: result.events.length,
    lastSeq: result.events.length ? result.events[result.events.length - 1].seq : -1,
    eventTypeCounts: types,
    tornTail: result.tornTail !== null,
    tornTailDetail: result.tornTail && { bytes: result.tornTail.bytes, rows: result.tornTail.rows },
    scan: result.scan,
    diagnostics,
    ok: session.ok,
    verdict: verdict.kind,
    verdictDetail: verdict,
    asOfSeq: at,
    surface: { nodes: surface.nodes, replaceGeneration: surface.replaceGeneration, contentGeneration: surface.contentGeneration },
    messages: deriveMessages(surface, session.eventAt),
    transcript: session.transcript,
    synthetic: session.synthetic,
    projections: projectionsReport(projectionsOf(session, { upTo: at })),
    systemPrompt: { ...prompts.systemPrompt.at(at), source: prompts.systemPromptSource, commits: prompts.systemPrompt.commits },
    runtimeContext: { effectiveSeq: prompts.runtimeContext.effectiveAt(at), snapshots: prompts.runtimeContext.snapshots },
    requests: inspectRequests(prompts.requests),
  };
}
