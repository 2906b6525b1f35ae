import type { Diagnostic } from './diagnostics/diagnostic.ts';
import type { Verdict, VerdictKind } from './session/verdict.ts';
import { sessionSummary, typeRowsOf } from './session/summary.ts';
import type { LogEvent, ReadResult } from './log/types.ts';
import { deriveMessages } from './messages/derive.ts';
import type { TranscriptEntry } from './surface/transcript.ts';
import type { Message } from './messages/types.ts';
import { projectionsOf, projectionsReport, type ProjectionReportEntry } from './projections/index.ts';
import type { SnapshotEntry } from './prompt/context-stream.ts';
import type { SystemPromptAt, SystemPromptCommit } from './prompt/system-timeline.ts';
import { analyzePrompts, inspectRequests, type InspectedRequest } from './requests/analyze.ts';
import { foldSession, type SessionFold } from './session/fold-session.ts';
import { foldSurface } from './surface/fold.ts';
import { JOB_TYPES, jobsOf, type Job } from './jobs/job-tally.ts';

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
  /** Every background job of the whole log, paired by id (dsh-log-rules V6). */
  jobs: Job[];
}

export function eventTypeCounts(result: ReadResult): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of result.events) counts[e.type] = (counts[e.type] ?? 0) + 1;
  return counts;
}

/** `at`: the state fields as of that seq; `briefCalls`: each model call without its messages and hash. */
export interface InspectOptions {
  at?: number;
  briefCalls?: boolean;
}

export function inspect(result: ReadResult, options: InspectOptions = {}): Inspection {
  return inspectSession(foldSession(result), options);
}

/**
 * The same from a folded session, however its events are held: an array
 * (a log read whole) or an EventStore (a streaming load, as the CLI reads a
 * log of any size — events parsed again from their bytes when walked).
 */
export function inspectSession(session: SessionFold, options: InspectOptions = {}): Inspection {
  const read = session.read;
  const prompts = analyzePrompts(session);
  const logged = session.loggedCount;
  // The same whole-log facts the app's load summary states (session/summary.ts).
  const facts = sessionSummary(session, typeRowsOf(session.events, logged));
  const lastSeq = session.events.length ? session.events.at(session.events.length - 1)!.seq : -1;
  const at = options.at === undefined ? lastSeq : Math.min(options.at, lastSeq);
  const surface = at === lastSeq ? session.surface : foldSurface(eventsThrough(session, at), read.dialect).state;
  // A log without job records is not walked again for them (a long log's extra pass).
  const hasJobs = [...JOB_TYPES].some((t) => facts.typeCounts[t]);
  const jobs = hasJobs ? jobsOf(session.events, logged) : { jobs: [], findings: [] };
  const diagnostics: Diagnostic[] = [...session.diagnostics, ...jobs.findings, ...prompts.findings];
  const { verdict } = facts;
  return {
    format: { version: read.version, dialect: read.dialect, encoding: read.scan.encoding },
    header: read.header,
    eventCount: logged,
    lastSeq: facts.lastSeq,
    eventTypeCounts: facts.typeCounts,
    tornTail: read.tornTail !== null,
    tornTailDetail: read.tornTail && { bytes: read.tornTail.bytes, rows: read.tornTail.rows },
    scan: read.scan,
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
    requests: inspectRequests(prompts.requests, { briefCalls: options.briefCalls }),
    jobs: jobs.jobs,
  };
}

/** The session's events with seq ≤ `at`, in order (for the surface as of `at`). */
function eventsThrough(session: SessionFold, at: number): LogEvent[] {
  const out: LogEvent[] = [];
  for (let i = 0; i < session.events.length; i++) {
    const e = session.events.at(i)!;
    if (e.seq <= at) out.push(e);
  }
  return out;
}
