import type { Diagnostic } from '../core/diagnostics/diagnostic.ts';
import type { Verdict } from '../core/session/verdict.ts';
import type { EventOrigin, LogEvent, ReadResult, SessionHeader } from '../core/log/types.ts';
import type { Message } from '../core/messages/types.ts';
import type { ReplayColumns } from '../core/replay/replay-index.ts';
import type { Replacement } from '../core/surface/types.ts';
import type { ProjectionFailure } from '../core/projections/types.ts';
import type { LinePart, SnapshotDiff } from '../core/prompt/context-diff.ts';
import type { ContextSnapshot } from '../core/prompt/runtime-context.ts';
import type { RequestWindow } from '../core/requests/build.ts';
import type { ValueDiff } from '../core/projections/value-diff.ts';
import type { SpawnPoint } from '../core/workspace/forks.ts';
import type { CallTokens } from '../core/charts/series.ts';
import type { Job } from '../core/jobs/job-tally.ts';

/** Messages between the main thread and the load worker. Plain data only. */
export type LoadSource =
  | { kind: 'file'; file: Blob; name: string }
  | { kind: 'text'; text: string; name: string }
  | { kind: 'bytes'; bytes: Uint8Array; name: string }
  | { kind: 'url'; url: string; name: string };

// The requests themselves are declared once, with their handlers, in operations.ts.

/** A content search under way. */
export interface SearchProgress {
  searched: number;
  total: number;
  matches: number;
}

/** A finished content search: the events that match, ascending (the first SEARCH_KEEP of them), and how many in all. */
export interface SearchResult {
  text: string;
  matches: Uint32Array;
  count: number;
  capped: boolean;
}

/** What the Export menu can save: the request at the cursor, the surface, or the transcript. */
export type ExportWhat = 'request' | 'surface' | 'transcript';

/** A model call's request to copy: the provider body, and a cURL command when DSH's DeepSeek adapter sent it. */
export interface RequestCopy {
  kind: 'deepseek' | 'loop';
  json: string;
  curl: string | null;
  /** What the copy cannot hold exactly (image bytes, another provider's wire format). */
  notes: string[];
}

export interface ExportResult {
  fileName: string;
  mime: string;
  text: string;
  /** Secrets replaced (0 when redaction is off). */
  redactions: number;
}

export interface LoadProgress {
  bytesIn: number;
  totalBytes: number | null;
  events: number;
  /** 'reading': the one streaming pass (read, fold, index, analyses); 'indexing': finishing the index and analyses. */
  phase: 'reading' | 'indexing';
  /** The rows read since the last report (their columns travel as transferred buffers): the page shows the log as it loads. */
  rows?: PartialRows;
}

/** Replay columns of events `from`… of a log still loading, with what the page needs to draw them. */
export interface PartialRows {
  from: number;
  /** About how many rows the whole log holds (extrapolated from the bytes read; 0: unknown). */
  expected?: number;
  columns: ReplayColumns;
  /** The time column's base, the same for every report of one load (LoadSummary.timeBase). */
  timeBase: number;
  typeNames: string[];
  header: SessionHeader | null;
  version: number;
}

/** `lost`: the open file could not be read back (it changed on disk): said once, with whichever answer met it. */
export type Response =
  | { id: number; ok: true; result: unknown; lost?: string }
  /** A failed load also carries its finding (a log too big, an unexpected error at a line/seq). */
  | { id: number; ok: false; error: string; finding?: Diagnostic; lost?: string }
  | { id: number; progress: LoadProgress };

/** What the UI knows about a loaded log without asking again. */
/** A background job as the page draws it: the core's pairing, with each record's event index (−1: none). */
export interface JobRow extends Job {
  registeredIndex: number;
  settledIndex: number;
}

export interface LoadSummary {
  /** The part of a log read so far (its load still runs): only the events list, timeline and scrubber show it. */
  partial?: true;
  /**
   * Who folded the projection units: the load's own walk, a helper worker on
   * another core (docs/performance.md), or the load from its store after a helper that
   * did not answer or read another log. The states are the same.
   */
  projectedBy?: 'walk' | 'helper' | 'store';
  /**
   * How long the load waited for the helper's answer after its own walk was
   * done (ms; absent without a helper): which of the two threads set the
   * load's time, for the bench and the perf report.
   */
  helperWaitMs?: number;
  /**
   * How long the load awaited its input's next bytes (ms): a file's stream
   * or a download, time that was not the load's own work (absent for text
   * and bytes already in memory). The worker answers the page meanwhile, so
   * a page's question asked then is counted too.
   */
  sourceWaitMs?: number;
  name: string;
  /** A short hash of the file's first 64 KiB and its size: which log a link was made on. */
  fingerprint: string;
  /**
   * Set by the page on a followed log: the fingerprint its notes are kept
   * under, the one following started on (the file's own changes as it grows,
   * and its notes would seem to vanish at the first refresh: docs/notes.md).
   */
  notesKey?: string;
  /** A fork child's inherited events: the seq N its own events start at (0: not a fork), and how many events come before it (dsh-log-rules L1.7). */
  inherited: { seq: number; events: number };
  header: SessionHeader | null;
  version: number;
  dialect: string;
  encoding: string;
  /** Logged events plus synthetic (restore-appended) ones. */
  count: number;
  syntheticCount: number;
  lastSeq: number;
  typeCounts: Record<string, number>;
  /** Every finding, with the event index it points at (when it has a seq). */
  diagnostics: (Diagnostic & { index?: number })[];
  tornTail: ReadResult['tornTail'];
  ok: boolean;
  /** ok / DSH refuses / newer than this app / not a DSH log, with its reasons (docs/diagnostics.md). */
  verdict: Verdict;
  columns: ReplayColumns;
  /**
   * Set when `columns` holds only the rows from this index on: the page kept
   * the ones before from the load's progress reports (a load asked with
   * `keepsRows`), and puts these after them, so what it derived from those
   * rows is extended, not made again.
   */
  columnsFrom?: number;
  /** What the time column counts from: event i's time is `timeBase + columns.time[i]` (timeAt). */
  timeBase: number;
  typeNames: string[];
  families: readonly string[];
  /** Every committed replace of the whole log, for the timeline. */
  replacements: Replacement[];
  turns: number;
  loadMs: number;
  /** Every model call, one row each (the Requests table). */
  requests: RequestRow[];
  /** Every background job, paired by id (dsh-log-rules V6): the Jobs lane and Event detail. */
  jobs: JobRow[];
  /**
   * Each call's cut as an event index, in call order (so ascending): what the
   * page finds a cursor's call by, without the rows (on the page those are
   * made when first read: request-rows-wire.ts).
   */
  callCuts: Int32Array;
  /** Every runtime-context snapshot in log order. */
  contextSnapshots: ContextSnapshotRow[];
  /** Where the system prompt lives in this dialect. */
  systemPromptSource: 'header' | 'system-message';
  /**
   * Projection units (wire and host-only): the seqs where each one's value
   * changed, and where it was written again with an equal value (typed arrays:
   * a unit of a long log can change at every event).
   */
  projectionUnits: { key: string; stateVersion: number; hostOnly: boolean; changes: Uint32Array | Float64Array; equalWrites: Uint32Array | Float64Array; failure: ProjectionFailure | null }[];
}

export interface ProjectionAtCursor {
  key: string;
  stateVersion: number;
  hostOnly: boolean;
  view: unknown;
  state: unknown;
  /** The unit's watermark at the cursor: the last seq it observed. */
  observedSeq: number;
  /** The value changed at the cursor's event (deep equality, not just a write). */
  changedHere: boolean;
  /** The event wrote a value equal to the one before (a publication, no change). */
  rewroteHere: boolean;
  /** What changed at the cursor (when `changedHere`). */
  diff: ValueDiff | null;
  /** The value changes before and after the cursor. */
  prevChange: number | null;
  nextChange: number | null;
  /** Set when the unit's fold failed at or before the cursor. */
  failure: ProjectionFailure | null;
}

export interface RowSummary {
  index: number;
  seq: number;
  type: string;
  preview: string;
  synthetic: boolean;
  /** A tool call's result, or a result's call: the other event, its status and the time between. */
  pair?: { other: number; name: string; status: 'ok' | 'error' | 'pending'; ms: number | null };
}

export interface EventDetail {
  index: number;
  event: LogEvent;
  origin: EventOrigin | null;
  synthetic: boolean;
  diagnostics: Diagnostic[];
  /** Where the event stands at the end of the log ('loading' while the log is still being read). */
  surfaceStatus: 'node' | 'shadowed' | 'not-a-node' | 'loading';
  shadowedBy?: number;
  /** The message the event carries, as logged (no projection applied). */
  message: Message | null;
  /** For a tool result: the call it answers (from its sourceEventSeqs). */
  call: ToolCallRef | null;
  /** The event starts or records a child session. */
  spawn: SpawnPoint | null;
}

export interface ToolCallRef {
  seq: number;
  callId: string | null;
  name: string;
  arguments: unknown;
}

export interface SurfaceNodeView {
  seq: number;
  index: number;
  type: string;
  role: string | null;
  preview: string;
  /** null when the event contributes no wire message (empty content), or its message has no id. */
  messageId: string | null;
  /** Whether the node sends a message to the model. */
  hasMessage: boolean;
  /** DSH's token-meter estimate of the node's message (0 when it sends none). */
  tokens: number;
  projected: boolean;
}

/** A slice of a long list: the part a panel shows (it scrolls; the rest is fetched when it comes into view). */
export interface ListWindow {
  from: number;
  count: number;
}

/** What the surface panel asks at a cursor: the nodes in its window, and the transcript's when it shows that. */
export interface CursorQuery {
  index: number;
  window: ListWindow;
  /** The transcript's window, when the panel shows the transcript. */
  transcript?: ListWindow | null;
}

/** A replace whose replacing node is in the window: the span drawn over the nodes it shadowed. */
export interface SurfaceSpan extends Replacement {
  shadowedCount: number;
  /** The shadowed nodes' views when there are few (3 or fewer); more are asked for with `span`. */
  shadowed: SurfaceNodeView[];
}

export type TranscriptRow = SurfaceNodeView & { status: 'on-surface' | 'shadowed' | 'not-a-node'; shadowedBy: number | null };

/**
 * The surface at the cursor, as much as the panel shows: a long session has
 * tens of thousands of nodes, so only the window's are read and sent.
 */
export interface CursorState {
  index: number;
  seq: number;
  nodeCount: number;
  /** Surface index of `nodes[0]`. */
  nodesFrom: number;
  nodes: SurfaceNodeView[];
  /** Surface index of the cursor's event when it is a node (-1 otherwise). */
  cursorNode: number;
  replaceGeneration: number;
  contentGeneration: number;
  /** Replaces whose replacing node is among `nodes`, with the shadowed nodes' previews when few. */
  spans: SurfaceSpan[];
  /** What the event at the cursor did to the surface. */
  change: 'append' | 'replace' | 'project' | 'none' | 'reject';
  /** How many nodes contribute a message (the model context's length). */
  messageCount: number;
  /** The token meter's estimate of the whole context. */
  tokens: number;
  /** The human transcript up to the cursor (append-origin surface events in log order): its length, and the window asked for. */
  transcriptCount: number;
  transcriptFrom: number;
  transcript: TranscriptRow[];
}

/** The model context at the cursor, a window of it (it can be tens of thousands of messages). */
export interface MessagesAtCursor {
  index: number;
  seq: number;
  count: number;
  from: number;
  messages: Message[];
}

export interface RequestRow {
  index: number;
  cut: number;
  /** Event index of the cut. */
  cutIndex: number;
  turn: number;
  step: number;
  attempt: number;
  model: string;
  messageCount: number;
  toolCount: number;
  keptMessages: number;
  previousMessageCount: number;
  keptBytes: number;
  bytes: number;
  extendsPrevious: boolean;
  reasons: string[];
  cacheReadTokens?: number;
  inputTokens?: number;
  outcome?: string;
  /** The call's logged usage in buckets, with its provider and model apart (its price, its bars). */
  tokens: CallTokens;
}

export interface ContextSnapshotRow {
  seq: number;
  index: number;
  names: string[];
  onSurface: boolean;
  shadowedBy: number | null;
  reemittedAfterShadowing: boolean;
  unchanged: boolean;
  cleared: boolean;
  turn: number | null;
  step: number | null;
}

export interface PromptAtCursor {
  source: 'header' | 'system-message';
  text: string | null | undefined;
  setBySeq: number | null;
  setBy: string | null;
  changedAt: boolean;
  scrubbed: boolean;
  /** The effective prompt just before the event that set the current one. */
  previousText: string | null | undefined;
  /** Line diff previous → current; null when a limit stopped it or there is nothing to compare. */
  diff: LinePart[] | null;
  /** The runtime-context snapshot in force at the cursor (last owned one on the surface). */
  contextSeq: number | null;
}

export interface ContextComparison {
  a: ContextSnapshot | null;
  b: ContextSnapshot;
  diff: SnapshotDiff;
}

export interface RequestDetail {
  /** The call; its `messages` (and its loop request's) are the window in `messageWindow` (no hash: that is the whole request's). */
  request: RequestWindow;
  /** Where `request.messages` starts in the call's context, and how many messages the context has. */
  messageWindow: { from: number; total: number };
  /** Messages kept from, dropped from and added to the previous call, by id. */
  messageDiff: { kept: number; removed: string[]; added: string[] } | null;
}
