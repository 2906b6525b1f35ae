import type { Diagnostic } from './diagnostics/diagnostic.ts';
import type { LogEvent, ReadResult } from './log/types.ts';
import type { TranscriptEntry } from './messages/transcript.ts';
import type { Message } from './messages/types.ts';
import { foldSession } from './session/fold-session.ts';
import { projectionsOf, projectionsReport, type ProjectionReportEntry } from './projections/index.ts';

/**
 * The core's results for one log as a plain JSON document: what
 * `npm run inspect -- <log> --json` prints and what the corpus suite
 * compares. Counts are of logical events (after packed-row expansion).
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
  diagnostics: Diagnostic[];
  /** False when DSH would refuse to restore the log (any refusing diagnostic). */
  ok: boolean;
  surface: { nodes: number[]; replaceGeneration: number; contentGeneration: number };
  /** The derived model messages at the end of the log, as DSH's deriveMessages() returns them. */
  messages: Message[];
  transcript: TranscriptEntry[];
  /** Events the restore appends (interrupted-turn closers, end-seed); not in the file. */
  synthetic: LogEvent[];
  /** Each projection unit's view and watermark (observedSeq) at the end of the log. */
  projections: Record<string, ProjectionReportEntry>;
}

export function eventTypeCounts(result: ReadResult): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of result.events) counts[e.type] = (counts[e.type] ?? 0) + 1;
  return counts;
}

export function inspect(result: ReadResult): Inspection {
  const session = foldSession(result);
  return {
    format: { version: result.version, dialect: result.dialect, encoding: result.scan.encoding },
    header: result.header,
    eventCount: result.events.length,
    lastSeq: result.events.length ? result.events[result.events.length - 1].seq : -1,
    eventTypeCounts: eventTypeCounts(result),
    tornTail: result.tornTail !== null,
    tornTailDetail: result.tornTail && { bytes: result.tornTail.bytes, rows: result.tornTail.rows },
    scan: result.scan,
    diagnostics: session.diagnostics,
    ok: session.ok,
    surface: {
      nodes: session.surface.nodes,
      replaceGeneration: session.surface.replaceGeneration,
      contentGeneration: session.surface.contentGeneration,
    },
    messages: session.messages,
    transcript: session.transcript,
    synthetic: session.synthetic,
    projections: projectionsReport(projectionsOf(session)),
  };
}
