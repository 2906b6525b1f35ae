import type { EventStore } from '../core/log/event-store.ts';
import { loadSession } from '../core/session/stream-load.ts';
import { OwnedChunks } from './owned-chunks.ts';
import { loadRiders, type LoadRiders } from './load-riders.ts';
import { estimateMessage } from '../core/messages/estimate.ts';
import { peekHeader } from '../core/log/peek-header.ts';
import { eventPreview } from '../core/replay/preview.ts';
import { Replay, type ReplayBuilder } from '../core/replay/replay-index.ts';
import { deriveEventMessage, deriveMessages, eventMessage } from '../core/messages/derive.ts';
import { ProjectionRegistry } from '../core/projections/registry.ts';
import { analyzePrompts, decisionsMatch, surfaceBeforeOf, type PromptAnalysis } from '../core/requests/analyze.ts';
import { boundedLineDiff } from '../core/prompt/context-diff.ts';
import { plainSnapshot } from '../core/prompt/context-stream.ts';
import { redactSecrets } from '../core/export/redact.ts';
import { packLog } from '../core/share/pack-log.ts';
import { admitSystemPrompt, type Admission, type AdmissionFlags } from '../core/prompt/admission.ts';
import { messagesToMarkdown } from '../core/export/markdown.ts';
import { diagnostic, type Diagnostic } from '../core/diagnostics/diagnostic.ts';
import { logVerdict } from '../core/session/verdict.ts';
import { LoadGuard } from '../core/log/memory-budget.ts';
import { LoadStopped, stoppedAt } from '../core/log/load-stopped.ts';
import { platformMemoryBudget } from './memory.ts';
import type { LogEvent } from '../core/log/types.ts';
import { plainRequestWith } from '../core/requests/build.ts';
import type { SessionFold } from '../core/session/fold-session.ts';
import { emptySurface } from '../core/surface/types.ts';
import type { Message } from '../core/messages/types.ts';
import { summaryToWire } from './request-rows-wire.ts';
import { requestRows, tokensOfCall } from './request-rows.ts';
import type { TurnOutcome } from '../core/session/turn-outcomes.ts';
import type { SearchProgress, SearchResult, ExportResult, ExportWhat, ContextComparison, PromptAtCursor, RequestDetail, ProjectionAtCursor, CursorQuery, CursorState, EventDetail, ListWindow, LoadProgress, LoadSource, LoadSummary, MessagesAtCursor, PartialRows, Request, RowSummary, SurfaceNodeView, SurfaceSpan } from './protocol.ts';
import type { Replacement, SurfaceState } from '../core/surface/types.ts';
import { FingerprintTap } from '../core/log/fingerprint.ts';
import { countAtOrBelow } from '../core/util/sorted.ts';
import { replaceMarks, surfaceSeries, type CallTokens, type ChartData, type ReplaceMark } from '../core/charts/series.ts';
import { summarizeStream, type StreamSummary } from '../core/messages/stream-summary.ts';
import { matchesQuery, parseQuery } from '../core/search/query.ts';
import { NotedCalls } from '../core/search/noted-calls.ts';
import { linePrefilter } from '../core/search/line-prefilter.ts';
import { LineScreen } from '../core/search/line-screen.ts';
import { toolLineCheck } from '../core/search/tool-lines.ts';
import { ToolPairs } from '../core/replay/tool-pairs.ts';
import { valueDiff } from '../core/projections/value-diff.ts';
import { typeCensus } from '../core/replay/type-census.ts';
import { inheritedEventCount, isInheritedMarker, spawnPointOf, SPAWN_TYPES, type SpawnPoint } from '../core/workspace/forks.ts';
import type { RequestRow, ToolCallRef } from './protocol.ts';
import { streamChunks } from './stream-chunks.ts';
import { watchChunks } from './watched-chunks.ts';
import { fileReadBack } from './file-read-back.ts';
import type { ByteReader } from '../core/log/read-back.ts';
import { PAUSE_EVERY_MS, yieldEvery } from './yield-every.ts';
import { HELPER_HEARTBEAT_MS, HELPER_SILENCE_MS, type Projector, type ProjectionJob } from './projector.ts';
import type { ProjectedLog } from '../core/projections/project-log.ts';
import { loadRegistry } from '../core/projections/load-registry.ts';
import { chunkEventsOn, skippedEventCount } from '../core/projections/chunk-skip.ts';

/**
 * The worker's state and query handlers, kept free of worker globals so the
 * same code runs in tests. Heavy work (read, fold, index) happens once per
 * load; each query is a window or a checkpoint-based replay.
 */
const PROGRESS_INTERVAL_MS = 100;
/** How soon a loading log's first rows go to the page, and the least gap between reports (each copies only the rows since the last). */
const ROWS_INTERVAL_MS = 400;
const ROWS_MAX = 1000;
/** `lost` once the page was told (a message never starts with a NUL). */
const SAID = '\u0000said';

/** What `loadedLog()` hands out. */
export interface LoadedLog {
  replay: Replay<EventStore>;
  prompts: PromptAnalysis;
  turnOutcomes: readonly TurnOutcome[];
  projectionsAt(seq: number): ProjectionAtCursor[];
}

export class Engine {
  private replay: Replay<EventStore> | null = null;
  private projections: ProjectionRegistry | null = null;
  private prompts: PromptAnalysis | null = null;
  /** One-line previews by seq: a node's text does not change (projections are marked separately). */
  private previews = new Map<number, string>();
  /** Surface node views by seq (not projected ones), filled as cursors visit them. */
  private nodeViews = new Map<number, SurfaceNodeView>();
  /**
   * The last cursor's surface, read-only: the panels in view ask for the same cursor one after
   * another (state, messages), and a seek at the end of a long surface lists every node again.
   */
  private lastSurface: { replay: object; index: number; at: ReturnType<Replay['surfaceAt']> } | null = null;
  /** Every replace of the log by its replacing node's seq (a span is drawn where that node is). */
  private replacementBySeq = new Map<number, Replacement>();
  /** Seqs where each projection unit's value changed (deep equality), computed once per load (typed: 4 bytes a change). */
  private changeSeqs = new Map<string, Uint32Array | Float64Array>();
  /** Seqs where a unit was written again with an equal value. */
  private equalWriteSeqs = new Map<string, Uint32Array | Float64Array>();
  /** The log's spawn points (asked for only in a workspace of several logs), found once. */
  private spawnPoints: SpawnPoint[] | null = null;
  /** Event indexes of append-origin surface events (the transcript), in log order. */
  private appendIndexes: Uint32Array = new Uint32Array(0);
  private loadToken = 0;
  /** Stream summaries the events list asked for, by run (`from:to`). */
  private streams = new Map<string, StreamSummary>();
  /** Tool calls and their results, paired by the load's walk. */
  private pairs: ToolPairs = ToolPairs.none;
  /** How each turn ended, noted by the load's walk (compare's run summary). */
  private turnOutcomes: readonly TurnOutcome[] = [];
  /** Bumped by every content search and its cancel: a running scan that sees another number stops. */
  private searchToken = 0;
  /** The open log's tool call names as of each event, noted by its load (a `tool:` search reads them). */
  private notedCalls = new NotedCalls();
  /**
   * A followed log's Requests rows as its last refresh made them, and how many
   * of them that refresh kept from the one before (the page holds those).
   */
  private liveRows: { riders: LoadRiders; rows: RequestRow[]; same: number } | null = null;
  /** The replaces the usage chart marks (compactions told apart), found at load. */
  private chartMarks: ReplaceMark[] = [];
  /** The log being read: rows and events are answered from it while it loads (the page shows the part read). */
  private loading: { store: EventStore; builder: ReplayBuilder | null; sent: number } | null = null;
  /** Rows the last load's progress reports brought the page (it keeps them: its answer then brings only the rest). */
  private rowsSentByLoad = 0;
  /** A helper that folds the projection units on another core while a file loads (none: the load folds them). */
  private projector: Projector | null;
  /** The running load's job on the helper (a cancel stops it too). */
  private helperJob: ProjectionJob | null = null;

  /** How a dropped file's lines are read back from it (the file itself, not a copy of its bytes); null keeps the bytes. */
  private readonly readBack: (file: Blob) => ByteReader | null;

  constructor(options: { projector?: Projector; readBack?: (file: Blob) => ByteReader | null } = {}) {
    this.projector = options.projector ?? null;
    this.readBack = options.readBack ?? fileReadBack;
  }

  /** Attaches the helper (the worker gets its port after it starts). */
  useProjector(projector: Projector | null): void {
    this.projector = projector;
  }

  /** `options`: a memory budget in bytes (else the platform's), and the reader's line limit (tests). */
  /** `background`: a refresh of the open log (a followed log grew): queries keep reading the open one until it is done. */
  async load(source: LoadSource, onProgress: (p: LoadProgress) => void, options: { memoryBudget?: number; maxLineChars?: number; background?: boolean } = {}): Promise<LoadSummary> {
    const token = ++this.loadToken;
    const started = Date.now();
    this.lost = null;
    if (!options.background) this.loading = null;
    const opened = await openSource(source);
    const { totalBytes } = opened;
    // The link's fingerprint is taken from the bytes as they stream past (the file is read once).
    const tap = new FingerprintTap();
    // A file's or a download's chunks are the load's own (the stream made them): each one's memory is given
    // back as soon as the load lets it go, not when a full collection next finds it (issue #15).
    const own = source.kind === 'file' || source.kind === 'url' ? new OwnedChunks() : null;
    const input = watchChunks(own ? own.track(opened.chunks) : opened.chunks, (chunk) => tap.add(chunk));
    // A log that will not fit stops before the tab runs out of memory, checked now and after each chunk (issue #18).
    const guard = new LoadGuard(totalBytes, platformMemoryBudget(options.memoryBudget));
    guard.check(null);
    let lastReport = 0;
    let lastRows = started;
    const pauses = yieldEvery(PAUSE_EVERY_MS);
    // The analyses ride on the load's one walk; they are made once the header line is read.
    const made: { riders?: LoadRiders; meta?: { header: LoadSummary['header']; version: number } } = {};
    // A file (shared with the helper, not copied) is folded for projections on another core meanwhile.
    const helper = source.kind === 'file' ? this.startHelper(source.file, options.maxLineChars) : null;
    if (helper) this.helperJob = helper;
    try {
    const session = await loadSession(input.chunks, {
      // The file's size sizes the per-event arrays; a compressed file undercounts and they grow past it.
      sizeHint: source.kind === 'text' ? source.text.length : totalBytes,
      // A file's lines (plain, or zstd through its frames) are read back from it when asked for, not kept in memory (issue #15).
      readBack: source.kind === 'file' ? this.readBackOf(source.file, source.name, token) : undefined,
      cancelled: () => token !== this.loadToken,
      onLetGo: own?.letGo,
      pause: pauses.pause,
      maxLineChars: options.maxLineChars,
      onProgress: (p) => {
        guard.check(p);
        const now = Date.now();
        if (now - lastReport < PROGRESS_INTERVAL_MS) return;
        lastReport = now;
        // Every so often, the rows read since the last report: the page shows the log as it loads.
        // The page redraws the events list and the timeline over every row it has at each report, so
        // reports come further apart as the log grows (each gap half the time so far): the page's
        // work over the whole load stays linear, and it leaves the cores to the load (issue #15).
        // The rows the whole file will hold, extrapolated from what was read: the page sizes its columns once.
        const expected = totalBytes && p.bytesIn > 0 ? Math.ceil((p.events * totalBytes) / p.bytesIn) : 0;
        const rows = now - lastRows >= Math.max(ROWS_INTERVAL_MS, (now - started) / 2) ? this.rowsRead(made.meta ?? null, expected) : undefined;
        if (rows) lastRows = now;
        onProgress({ bytesIn: p.bytesIn, totalBytes, events: p.events, phase: 'reading', ...(rows ? { rows } : {}) });
      },
      riders: (meta, store) => {
        made.riders = loadRiders(meta, totalBytes, store, { projections: !helper });
        if (!options.background) this.loading = { store, builder: made.riders.replay, sent: 0 };
        made.meta = { header: meta.header, version: meta.version };
        return made.riders.visitors;
      },
    });
    if (token !== this.loadToken) throw new Error('cancelled');
    let projected: ProjectedLog | null = null;
    let helperWaitMs: number | undefined;
    if (helper) {
      onProgress({ bytesIn: totalBytes ?? 0, totalBytes, events: session.events.length, phase: 'indexing' });
      const waitFrom = performance.now();
      projected = await helperResult(helper);
      helperWaitMs = Math.round(performance.now() - waitFrom);
      if (token !== this.loadToken) throw new Error('cancelled');
    }
    const summary = this.finishLoad(source, session, made, started, totalBytes, onProgress, tap.value(), projected);
    // Text and bytes are in memory already: only a file's or a download's wait is worth saying.
    const sourceWaitMs = source.kind === 'file' || source.kind === 'url' ? Math.round(input.waitedMs()) : undefined;
    return { ...summary, ...(sourceWaitMs === undefined ? {} : { sourceWaitMs }), ...(helperWaitMs === undefined ? {} : { helperWaitMs }) };
    } finally {
      helper?.cancel();
      if (this.helperJob === helper) this.helperJob = null;
      pauses.close();
      if (token === this.loadToken) {
        if (!options.background) this.rowsSentByLoad = this.loading?.sent ?? 0;
        this.loading = null;
      }
    }
  }

  /**
   * The file's read-back, watched: the first read that fails (the file
   * changed on disk) is said once, with the next answer to the page —
   * whichever query met it, even one that shows a placeholder instead.
   */
  private readBackOf(file: Blob, name: string, token: number): ByteReader | undefined {
    const reader = this.readBack(file);
    if (!reader) return undefined;
    const lost = (message: string) => { if (token === this.loadToken) this.lost ??= `${name}: ${message}`; };
    return {
      size: reader.size,
      read: (start, end) => {
        try {
          return reader.read(start, end);
        } catch (err) {
          lost(err instanceof Error ? err.message : String(err));
          throw err;
        }
      },
      failed: lost,
    };
  }

  /** A failed read-back not yet told to the page, or SAID once it was (once per log). */
  private lost: string | null = null;

  /** The lost file's message for the answer being posted (once; compare mode's answers carry it too). */
  takeLost(): { lost: string } | Record<string, never> {
    if (!this.lost || this.lost === SAID) return {};
    const lost = this.lost;
    this.lost = SAID;
    return { lost };
  }

  /** The helper's job for a file; null without a helper or when the file cannot be handed to it (the load then folds the units). */
  private startHelper(file: Blob, maxLineChars: number | undefined): ProjectionJob | null {
    try {
      return this.projector?.project(file, { maxLineChars }) ?? null;
    } catch {
      return null;
    }
  }

  /** The rows walked since the last report, while a log loads (null before its header, or when none are new). */
  private rowsRead(header: { header: LoadSummary['header']; version: number } | null, expected: number): PartialRows | undefined {
    const loading = this.loading;
    if (!loading?.builder || !header || loading.builder.length === loading.sent) return undefined;
    const from = loading.sent;
    const { columns, typeNames, timeBase } = loading.builder.rowsSince(from);
    loading.sent = from + columns.seq.length;
    return { from, columns, timeBase, typeNames, header: header.header, version: header.version, expected };
  }

  private finishLoad(source: LoadSource, session: Awaited<ReturnType<typeof loadSession>>, made: { riders?: LoadRiders }, started: number, totalBytes: number | null, onProgress: (p: LoadProgress) => void, fingerprint: string, projected: ProjectedLog | null): LoadSummary {
    const { read } = session;
    if (!read.header && session.loggedCount === 0) {
      // Not a log at all (an image, a PDF, an empty file): keep the open log.
      // Worded as the core's "not a DSH log" verdict (issue #16).
      throw new Error(logVerdict({ header: read.header, version: read.version, diagnostics: read.diagnostics }).summary);
    }
    onProgress({ bytesIn: totalBytes ?? 0, totalBytes, events: session.events.length, phase: 'indexing' });
    return this.summarizeOrStop(source, session, made, started, fingerprint, projected);
  }

  /**
   * A followed log, read by a load of its own that goes on as the file grows
   * (follow-host.ts), opened as the open log from what that load's riders made:
   * `live` while the file is still being written (its committed part, read
   * without ending the riders' walk), else once its input has ended. The work
   * is the index and the summary, never the log read again. `requestsFrom`:
   * the summary's Requests rows before it are those of the last refresh.
   */
  openFollowed(name: string, session: SessionFold<EventStore>, riders: LoadRiders, fingerprint: string, live: boolean): { summary: LoadSummary; requestsFrom: number } {
    // A log being opened meanwhile is not replaced by the followed one.
    if (this.opening) throw new Error('cancelled');
    const summary = this.summarizeOrStop({ name }, session, { riders }, Date.now(), fingerprint, null, live);
    return { summary, requestsFrom: live ? this.liveRows?.same ?? 0 : 0 };
  }

  /** `summarize`, where whatever throws stops the load with a finding that says where the log ended (issue #18); the open log stays. */
  private summarizeOrStop(source: Pick<LoadSource, 'name'>, session: SessionFold<EventStore>, made: { riders?: LoadRiders }, started: number, fingerprint: string, projected: ProjectedLog | null, live = false): LoadSummary {
    try {
      return this.summarize(source, session, made, started, fingerprint, projected, live);
    } catch (err) {
      const last = session.loggedCount - 1;
      const line = last >= 0 ? session.originAt(last)?.line : undefined;
      const seq = last >= 0 ? session.events.at(last)?.seq : undefined;
      throw stoppedAt(err, { ...(line !== undefined ? { line } : {}), ...(seq !== undefined ? { seq } : {}) });
    }
  }

  /**
   * The loaded log's index and analyses, kept by the engine, and the summary the page gets.
   * `live`: the riders' walk goes on (a followed log): what they made so far is read, nothing is ended.
   */
  private summarize(source: Pick<LoadSource, 'name'>, session: SessionFold<EventStore>, made: { riders?: LoadRiders }, started: number, fingerprint: string, projected: ProjectedLog | null, live = false): LoadSummary {
    const { read } = session;
    // loadSession makes its riders once the header is known, even for a log with no events.
    const r = made.riders!;
    const replay = new Replay(session, r.replay.finish(session.loggedCount, live));
    // Each derived view is isolated: a failure becomes a finding and the log still opens.
    const analysisFailures: Diagnostic[] = [];
    const isolate = <T>(what: string, build: () => T, fallback: () => T): T => {
      try { return build(); } catch (err) {
        analysisFailures.push(diagnostic('analysis.failed', `${what} could not be built for this log: ${err instanceof Error ? err.message : String(err)}`));
        return fallback();
      }
    };
    let projectedBy: LoadSummary['projectedBy'] = 'walk';
    const projections = isolate('projections', () => {
      if (r.projections) {
        const error = r.projectionsGuard!.error();
        if (error) throw error;
        return r.projections;
      }
      const made = projectionsOf(read, session, projected, r.readChunks?.count ?? 0, replay);
      projectedBy = made.by;
      return made.registry;
    }, () => new ProjectionRegistry(read.header, [], { history: true }));
    const prompts = isolate('the prompt and request analysis', () => {
      // The walk guessed two whole-log facts; a log that breaks the guess is analysed again.
      if (!decisionsMatch(read, r.assumed, r.facts.facts)) return analyzePrompts(session);
      const error = r.promptGuard.error();
      if (error) throw error;
      return live ? r.prompt.soFar(replay.finalState, surfaceBeforeOf(replay), session.eventAt) : r.prompt.finish(replay.finalState, surfaceBeforeOf(replay), session.eventAt);
    }, () => analyzePrompts(emptySessionLike(read)));
    this.replay = replay;
    this.projections = projections;
    this.prompts = prompts;
    this.previews = new Map();
    this.nodeViews = new Map();
    this.replacementBySeq = new Map(session.surface.replacements.map((r) => [r.seq, r]));
    this.changeSeqs = new Map(projections.units.map((u) => [u.key, projections.changeSeqsWhere(u.key, false)]));
    this.equalWriteSeqs = new Map(projections.units.map((u) => [u.key, projections.changeSeqsWhere(u.key, true)]));
    this.spawnPoints = null;
    this.pairs = r.toolPairs.finish(session.loggedCount, (seq) => replay.indexOfSeq(seq));
    this.turnOutcomes = r.turnOutcomes.outcomes();
    this.notedCalls = r.calls;
    this.streams = new Map();
    this.appendIndexes = replay.index.appendIndexes;
    const { columns, typeNames } = replay.index;
    const findings: Diagnostic[] = [...analysisFailures, ...prompts.findings.map((f) => ({ ...f }))];
    // A finding points at its seq; one with only a line (a row that never became an event) at the next event.
    const logged = session.loggedCount;
    const findingIndex = (d: Diagnostic): number | undefined => {
      if (d.seq !== undefined) return replay.indexOfSeq(d.seq);
      if (d.line === undefined || d.line <= 1 || logged === 0) return undefined;
      const k = session.events.eventsThroughLine(d.line - 1, logged);
      return Math.min(k, logged - 1);
    };
    // One pass over the type column, by type id (no string per event on a 1M-event log).
    const endSeedType = typeNames.indexOf('session/end-seed');
    const isCompaction = (id: number) => typeNames[id] === 'compaction/summary' || typeNames[id] === 'compaction/prune';
    const flagged = Uint8Array.from(typeNames, (_t, id) => (id === endSeedType || isCompaction(id) ? 1 : 0));
    const { perType, flaggedRows } = typeCensus(columns.typeId, logged, typeNames.length, flagged);
    let lastMarker: number | null = null;
    const compactionIndexes: number[] = [];
    for (const i of flaggedRows) {
      if (columns.typeId[i] !== endSeedType) compactionIndexes.push(i);
      else if (isInheritedMarker(session.events.at(i)!)) lastMarker = columns.seq[i];
    }
    const typeCounts: Record<string, number> = {};
    typeNames.forEach((t, id) => { if (perType[id]) typeCounts[t] = perType[id]; });
    const turns = typeCounts['turn/start'] ?? 0;
    const inheritedSeq = inheritedEventCount(read.header, lastMarker);
    this.chartMarks = replaceMarks(session.surface.replacements, (seq) => replay.indexOfSeq(seq), compactionIndexes);
    // A followed log's refresh makes the rows of the calls new or changed since its last one.
    const calls = prompts.requests.requests;
    const lastRows = live && this.liveRows?.riders === r ? this.liveRows.rows : [];
    const same = Math.min(prompts.requests.sameBefore ?? 0, lastRows.length, calls.length);
    const requests = requestRows(calls, (seq) => replay.indexOfSeq(seq), lastRows, same);
    this.liveRows = live ? { riders: r, rows: requests, same } : null;
    return {
      name: source.name,
      fingerprint,
      inherited: { seq: inheritedSeq, events: countBelow(columns.seq, inheritedSeq, logged) },
      header: read.header,
      version: read.version,
      dialect: read.dialect,
      encoding: read.scan.encoding,
      count: session.events.length,
      syntheticCount: session.synthetic.length,
      lastSeq: logged ? columns.seq[logged - 1] : -1,
      typeCounts,
      diagnostics: [...session.diagnostics, ...findings].map((d) => ({ ...d, index: findingIndex(d) })),
      tornTail: read.tornTail,
      ok: session.ok,
      verdict: logVerdict({ header: read.header, version: read.version, diagnostics: session.diagnostics, types: Object.keys(typeCounts) }),
      columns: replay.index.columns,
      timeBase: replay.index.timeBase,
      typeNames: replay.index.typeNames,
      families: replay.index.families,
      replacements: session.surface.replacements,
      turns,
      requests,
      callCuts: Int32Array.from(requests, (r) => r.cutIndex),
      contextSnapshots: prompts.runtimeContext.snapshots.map((c) => ({
        seq: c.seq, index: replay.indexOfSeq(c.seq), names: [...c.names], onSurface: c.onSurface,
        shadowedBy: c.shadowedBy, reemittedAfterShadowing: c.reemittedAfterShadowing, unchanged: c.unchanged,
        cleared: c.form === 'cleared', turn: c.turn, step: c.step,
      })),
      systemPromptSource: prompts.systemPromptSource,
      projectionUnits: projections.units.map((u) => ({
        key: u.key,
        stateVersion: u.stateVersion,
        hostOnly: u.hostOnly === true,
        changes: this.changeSeqs.get(u.key) ?? NO_SEQS,
        equalWrites: this.equalWriteSeqs.get(u.key) ?? NO_SEQS,
        failure: projections.cell(u.key)?.failure ?? null,
      })),
      loadMs: Date.now() - started,
      projectedBy,
    };
  }

  cancel(): void {
    this.loadToken++;
    this.helperJob?.cancel();
  }

  /** A log is being opened (not a background refresh): a refresh must not cancel it. */
  get opening(): boolean {
    return this.loading !== null;
  }

  /** The loaded log's columns, handed over to the page (the worker keeps the navigation ones). */
  handOverColumns(): LoadSummary['columns'] {
    return this.need().handOverColumns();
  }

  /** Copies of the open log's column rows from `from` on (a followed log's: the page holds the rows before). */
  columnsSince(from: number): LoadSummary['columns'] {
    return this.need().columnsSince(from);
  }

  /** The loaded log's replay and analyses, for a view that reads two engines at once (compare, issue #20). */
  loadedLog(): LoadedLog | null {
    if (!this.replay || !this.prompts) return null;
    return { replay: this.replay, prompts: this.prompts, turnOutcomes: this.turnOutcomes, projectionsAt: (seq) => this.projectionsAt(seq) };
  }

  private need(): Replay<EventStore> {
    if (!this.replay) throw new Error('no log loaded');
    return this.replay;
  }

  rows(from: number, count: number): RowSummary[] {
    // While a log loads, its rows come from what is read so far.
    const events = this.loading ? this.loading.store : this.need().session.events;
    const first = this.loading ? events.length : events.length - this.need().session.synthetic.length;
    const out: RowSummary[] = [];
    // Calls and results pair up once the whole log is read (a result may come long after its call).
    const pairs = this.loading ? null : this.pairs;
    for (let i = Math.max(0, from); i < Math.min(events.length, from + Math.min(count, ROWS_MAX)); i++) {
      const e = events.at(i)!;
      const row: RowSummary = { index: i, seq: e.seq, type: e.type, preview: eventPreview(e), synthetic: i >= first };
      const asCall = pairs?.ofCall(i);
      const asResult = asCall ? undefined : pairs?.ofResult(i);
      if (asCall) row.pair = { other: asCall.result, name: asCall.name, status: asCall.result < 0 ? 'pending' : asCall.isError ? 'error' : 'ok', ms: asCall.ms };
      else if (asResult) row.pair = { other: asResult.call, name: asResult.name, status: asResult.isError ? 'error' : 'ok', ms: asResult.ms };
      out.push(row);
    }
    return out;
  }

  event(index: number): EventDetail {
    if (this.loading) {
      const { store } = this.loading;
      const event = store.at(index);
      if (!event) throw new Error(`no event at index ${index} yet`);
      return { index, event, origin: store.origin(index), synthetic: false, diagnostics: [], surfaceStatus: 'loading', message: null, call: null, spawn: null };
    }
    const replay = this.need();
    const { session } = replay;
    const event = session.events.at(index);
    if (!event) throw new Error(`no event at index ${index}`);
    const logged = index < session.loggedCount;
    const shadow = session.surface.replacements.find((r) => r.shadowedSeqs.includes(event.seq));
    return {
      index,
      event,
      origin: logged ? session.originAt(index) : null,
      synthetic: !logged,
      diagnostics: session.diagnostics.filter((d) => d.seq === event.seq),
      surfaceStatus: session.surface.nodes.includes(event.seq) ? 'node' : shadow ? 'shadowed' : 'not-a-node',
      shadowedBy: shadow?.seq,
      message: deriveEventMessage(event),
      call: event.type === 'tool/result' ? this.callOf(event) : null,
      spawn: spawnPointOf(event),
    };
  }

  /** The tool call a tool result answers: the `tool/call` among its sourceEventSeqs. */
  private callOf(event: LogEvent): ToolCallRef | null {
    for (const seq of event.sourceEventSeqs ?? []) {
      const call = this.need().session.eventAt(seq);
      if (call?.type !== 'tool/call') continue;
      const d = call.data ?? {};
      return { seq, callId: typeof d.callId === 'string' ? d.callId : null, name: String(d.name ?? ''), arguments: d.arguments };
    }
    return null;
  }

  /** Where this log starts child sessions (subagent calls, catalog and workflow records), read once from those events only. */
  spawns(): SpawnPoint[] {
    if (this.spawnPoints) return this.spawnPoints;
    const { session, index } = this.need();
    const ids = new Set(SPAWN_TYPES.map((t) => index.typeNames.indexOf(t)).filter((t) => t >= 0));
    const out: SpawnPoint[] = [];
    const { typeId } = index.columns;
    for (let i = 0; i < session.loggedCount; i++) {
      if (!ids.has(typeId[i])) continue;
      const point = spawnPointOf(session.events.at(i)!);
      if (point) out.push(point);
    }
    this.spawnPoints = out;
    return out;
  }

  /**
   * The surface at the cursor, as much of it as the panel shows (issue #15):
   * a seek from the nearest checkpoint, then views of the window's nodes only
   * (cached per seq, so a step parses just the nodes that came into view).
   * Counts come from the load's per-change totals, never from a walk of the nodes.
   */
  state(query: CursorQuery): CursorState {
    const replay = this.need();
    const { session } = replay;
    const index = query.index;
    const { state, plan } = this.surfaceAt(index);
    const seq = session.events.at(index)?.seq ?? -1;
    const node = (s: number) => this.nodeView(s, state);
    const { from, count } = clampWindow(query.window, state.nodes.length);
    const nodes = state.nodes.slice(from, from + count).map(node);
    const spans: SurfaceSpan[] = [];
    for (const n of nodes) {
      const r = this.replacementBySeq.get(n.seq);
      if (!r) continue;
      // A small span comes with its shadowed nodes; a big one is asked for when the user opens it.
      spans.push({ ...r, shadowedCount: r.shadowedSeqs.length, shadowed: r.shadowedSeqs.length <= 3 ? r.shadowedSeqs.map(node) : [] });
    }
    const totals = this.prompts?.surfaceTotals.at(seq) ?? this.countNodes(state);
    const transcript = this.transcriptAt(index, state, query.transcript ?? null);
    return {
      index,
      seq,
      nodeCount: state.nodes.length,
      nodesFrom: from,
      nodes,
      cursorNode: state.nodes.lastIndexOf(seq),
      replaceGeneration: state.replaceGeneration,
      contentGeneration: state.contentGeneration,
      spans,
      change: plan?.kind ?? 'none',
      messageCount: totals.messages,
      tokens: totals.tokens,
      ...transcript,
    };
  }

  /**
   * Every event matching a content query (issue #19), scanned in the
   * background: the worker pauses every few ms to answer the page, reports
   * progress, and stops when a newer search starts or this one is cancelled.
   */
  async searchAll(text: string, onProgress: (p: SearchProgress) => void): Promise<SearchResult> {
    const token = ++this.searchToken;
    const replay = this.need();
    const query = parseQuery(text);
    const events = replay.session.events;
    const total = events.length;
    const { typeId } = replay.index.columns;
    const names = replay.index.typeNames;
    // A type filter is decided from the columns: other types are never parsed.
    const typeOk = names.map((t) => query.type === undefined || t.toLowerCase() === query.type || t.toLowerCase().startsWith(query.type.endsWith('/') ? query.type : `${query.type}/`));
    const turnStart = names.indexOf('turn/start');
    // Lines whose raw text rules out a match are not parsed (line-prefilter.ts says why that is exact).
    const prefilter = linePrefilter(query, names);
    // A `tool:` filter reads the call names the load noted as of each event (noted-calls.ts), and
    // keeps only lines that name the tool or a call noted with it (tool-lines.ts).
    const calls = this.notedCalls;
    const toolCheck = query.tool !== undefined ? toolLineCheck(query.tool) : null;
    const screen = prefilter || toolCheck ? new LineScreen(events, prefilter, undefined, toolCheck && {
      block: (text, at) => toolCheck.block(text, calls.asOf(at)),
      line: (text, at) => toolCheck.line(text, calls.asOf(at)),
    }) : null;
    const found: number[] = [];
    let count = 0;
    let turn = 0;
    let lastReport = Date.now();
    const pauses = yieldEvery(PAUSE_EVERY_MS);
    try {
      for (let i = 0; i < total; i++) {
        // Checked before any skip: a scan that rules most lines out still answers the page.
        const paused = (i & 255) === 0 ? pauses.pause() : null;
        if (paused) {
          await paused;
          if (token !== this.searchToken || this.replay !== replay) throw new Error('cancelled');
          const now = Date.now();
          if (now - lastReport >= PROGRESS_INTERVAL_MS) { lastReport = now; onProgress({ searched: i, total, matches: count }); }
        }
        let wanted = typeOk[typeId[i]] ?? true;
        if (wanted && screen && !screen.admits(i, typeId[i])) wanted = false;
        // Turns are read from turn/start, whatever the filter.
        const turnNeeded = query.turn !== undefined && typeId[i] === turnStart;
        if (!wanted && !turnNeeded) continue;
        const e = events.peek(i);
        if (!e) continue;
        if (e.type === 'turn/start' && typeof e.data?.turn === 'number') turn = e.data.turn;
        if (wanted && matchesQuery(query, e, typeof e.data?.turn === 'number' ? e.data.turn : turn, calls.asOf(i))) {
          count++;
          if (found.length < SEARCH_KEEP) found.push(i);
        }
      }
    } finally {
      pauses.close();
    }
    return { text, matches: Uint32Array.from(found), count, capped: count > found.length };
  }

  /** Stops the running content search. */
  cancelSearch(): void {
    this.searchToken++;
  }

  /**
   * One streamed output (events `from`…`to`-1, a run of chunks) in a line (issue #19). A very long
   * stream is read at its start and its end only: the preview needs its first words and how it ended.
   */
  stream(from: number, to: number): StreamSummary {
    // A row scrolled back into view asks again: a read log's summaries are kept (a few per screen).
    const key = `${from}:${to}`;
    const kept = this.loading ? undefined : this.streams.get(key);
    if (kept) return kept;
    const events = this.loading ? this.loading.store : this.need().session.events;
    const end = Math.min(to, events.length);
    const picked: LogEvent[] = [];
    const take = (a: number, b: number) => { for (let i = Math.max(0, a); i < b; i++) { const e = events.peek(i); if (e) picked.push(e); } };
    if (end - from <= STREAM_READ_MAX) take(from, end);
    else { take(from, from + STREAM_READ_MAX - STREAM_READ_TAIL); take(end - STREAM_READ_TAIL, end); }
    const summary = summarizeStream(picked);
    if (!this.loading) this.streams.set(key, summary);
    return summary;
  }

  /** Each model call's logged usage, by call: derived when asked, not kept (a long session has thousands of calls). */
  private callTokens(): CallTokens[] {
    const replay = this.need();
    return (this.prompts?.requests.requests ?? []).map((r, i) => tokensOfCall(r, i, (seq) => replay.indexOfSeq(seq)));
  }

  /**
   * The charts' data (issue #19): the surface's token series, every call's usage, the replaces.
   * `withCalls: false` leaves the calls out: the page has their figures already (each request row's
   * `tokens`), and 27,542 of them cost about 100 ms of structured clone each way.
   */
  charts(withCalls = true): ChartData {
    const replay = this.need();
    return {
      surface: this.prompts ? surfaceSeries(this.prompts.surfaceTotals, (seq) => replay.indexOfSeq(seq)) : { x: new Float64Array(0), tokens: new Float64Array(0), changes: 0, binned: false },
      calls: withCalls ? this.callTokens() : [],
      marks: this.chartMarks,
    };
  }

  /** The shadowed nodes of the replace at `seq`, as the cursor at `index` sees them (a big span, opened). */
  span(index: number, seq: number): SurfaceNodeView[] {
    const replay = this.need();
    const r = this.replacementBySeq.get(seq);
    if (!r) throw new Error(`no replace at seq ${seq}`);
    const { state } = this.surfaceAt(index);
    return r.shadowedSeqs.map((s) => this.nodeView(s, state));
  }

  /** A window of the model context at event `index`: the messages DSH would send, derived from the log. */
  messages(index: number, window: ListWindow): MessagesAtCursor {
    const replay = this.need();
    const { session } = replay;
    const { state } = this.surfaceAt(index);
    const seq = session.events.at(index)?.seq ?? -1;
    // The messages are the nodes that carry one (nearly all: the load noted the few that do not).
    const silent = this.prompts?.surfaceTotals.silent;
    const out: Message[] = [];
    const end = window.from + window.count;
    const message = (s: number) => deriveEventMessage(session.eventAt(s)!, state.projected);
    const positions = silent && silentPositions(state.nodes, silent);
    if (positions) {
      // Node positions from the few silent ones: a window at the end of a long surface visits only its own nodes.
      const count = state.nodes.length - positions.length;
      let p = window.from;
      let q = 0;
      for (let k = window.from; k < Math.min(end, count); k++, p++) {
        // Each silent node at or before p moves the k-th message one node on.
        while (q < positions.length && positions[q] <= p) { p++; q++; }
        const m = message(state.nodes[p]);
        if (m) out.push(m);
      }
      return { index, seq, count, from: window.from, messages: out };
    }
    let k = 0;
    for (const s of state.nodes) {
      if (silent ? silent.has(s) : !this.nodeView(s, state).hasMessage) continue;
      if (k >= window.from && k < end) {
        const m = message(s);
        if (m) out.push(m);
      }
      k++;
    }
    return { index, seq, count: k, from: window.from, messages: out };
  }

  /** Every projection unit at event `index` (the Projections panel asks when it is shown). */
  projectionsAtIndex(index: number): ProjectionAtCursor[] {
    const replay = this.need();
    return this.projectionsAt(replay.session.events.at(index)?.seq ?? -1);
  }

  /** The surface at event `index` for answers that only read it (see `lastSurface`). */
  private surfaceAt(index: number): ReturnType<Replay['surfaceAt']> {
    const replay = this.need();
    const last = this.lastSurface;
    if (last && last.replay === replay && last.index === index) return last.at;
    const at = replay.surfaceAt(index);
    this.lastSurface = { replay, index, at };
    return at;
  }

  /** A node's view: it depends only on its event (unless a V4 projection rewrote it), so it is cached per seq. */
  private nodeView(seq: number, state: SurfaceState): SurfaceNodeView {
    const replay = this.need();
    const projected = state.projected.has(seq);
    let view = projected ? undefined : this.nodeViews.get(seq);
    if (!view) {
      const event = replay.session.eventAt(seq) as LogEvent;
      const message = deriveEventMessage(event, state.projected);
      view = { seq, index: replay.indexOfSeq(seq), type: event.type, role: message?.role ?? null, preview: this.preview(event), messageId: message?.id ?? null, hasMessage: message !== null, tokens: message ? safeEstimate(message) : 0, projected };
      if (!projected) {
        // Bounded: a scrub over a long log visits many nodes.
        if (this.nodeViews.size >= NODE_VIEWS_MAX) this.nodeViews.delete(this.nodeViews.keys().next().value!);
        this.nodeViews.set(seq, view);
      }
    }
    return view;
  }

  /** Messages and tokens by visiting every node: only when the load's totals are missing (its analysis failed). */
  private countNodes(state: SurfaceState): { messages: number; tokens: number } {
    let messages = 0;
    let tokens = 0;
    for (const s of state.nodes) {
      const v = this.nodeView(s, state);
      if (v.hasMessage) messages++;
      tokens += v.tokens;
    }
    return { messages, tokens };
  }

  /** The transcript's length at the cursor, and the window asked for (only when the panel shows it). */
  private transcriptAt(index: number, state: SurfaceState, window: ListWindow | null, max = WINDOW_MAX): Pick<CursorState, 'transcriptCount' | 'transcriptFrom' | 'transcript'> {
    const count = countAtOrBelow(this.appendIndexes, index);
    if (!window) return { transcriptCount: count, transcriptFrom: 0, transcript: [] };
    const { from, count: n } = clampWindow(window, count, max);
    const transcript = this.transcriptEntries(state, from, n).map((t) => ({ ...this.nodeView(t.seq, state), status: t.status, shadowedBy: t.shadowedBy }));
    return { transcriptCount: count, transcriptFrom: from, transcript };
  }

  /** Transcript entries `from`…`from + n - 1`: each one's seq (from the seq table, no event parsed) and where it stands on `state`. */
  private transcriptEntries(state: SurfaceState, from: number, n: number): { seq: number; status: 'on-surface' | 'shadowed' | 'not-a-node'; shadowedBy: number | null }[] {
    const replay = this.need();
    const seqs = Array.from(this.appendIndexes.subarray(from, from + n), (i) => replay.seqAt(i)!);
    // Which of the window's nodes are on the surface: one pass that stops once all are found (no set of every node).
    const wanted = new Set(seqs);
    const onSurface = new Set<number>();
    for (let k = 0; k < state.nodes.length && onSurface.size < wanted.size; k++) if (wanted.has(state.nodes[k])) onSurface.add(state.nodes[k]);
    const shadowedBy = new Map<number, number>();
    for (const r of state.replacements) for (const s of r.shadowedSeqs) shadowedBy.set(s, r.seq);
    return seqs.map((seq) => ({
      seq,
      status: onSurface.has(seq) ? 'on-surface' as const : shadowedBy.has(seq) ? 'shadowed' as const : 'not-a-node' as const,
      shadowedBy: shadowedBy.get(seq) ?? null,
    }));
  }

  private preview(event: LogEvent): string {
    let p = this.previews.get(event.seq);
    if (p === undefined) { p = eventPreview(event); this.previews.set(event.seq, p); }
    return p;
  }

  /** Every unit's view, raw state and watermark as of `seq`, from recorded history. */
  private projectionsAt(seq: number): ProjectionAtCursor[] {
    const registry = this.projections;
    if (!registry) return [];
    return registry.units.map((unit) => {
      const changes = this.changeSeqs.get(unit.key) ?? NO_SEQS;
      const state = registry.stateAt(unit.key, seq);
      const failure = registry.cell(unit.key)?.failure ?? null;
      // A fold's own failure from its seq on; else the view at the cursor against its schema, dated where it began failing.
      const failed = (failure && failure.seq <= seq ? failure : null) ?? registry.schemaFailureAt(unit.key, seq, state);
      const k = countAtOrBelow(changes, seq);
      return {
        key: unit.key,
        stateVersion: unit.stateVersion,
        hostOnly: unit.hostOnly === true,
        view: unit.view(state),
        state,
        // The watermark advances on every event; a unit whose fold threw stops at its failure.
        observedSeq: failed && failed.kind === 'threw' ? failed.seq - 1 : seq,
        changedHere: changes[k - 1] === seq,
        rewroteHere: !(changes[k - 1] === seq) && includesSorted(this.equalWriteSeqs.get(unit.key) ?? NO_SEQS, seq),
        // What changed: the value before this event against the one after it (only at a change).
        diff: changes[k - 1] === seq ? valueDiff(unit.view(registry.stateAt(unit.key, seq - 1)), unit.view(state)) : null,
        prevChange: changes[k - 1] === seq ? (changes[k - 2] ?? null) : (changes[k - 1] ?? null),
        nextChange: changes[k] ?? null,
        failure: failed,
      };
    });
  }

  /** The effective system prompt at event `index`, and its diff against the one before it. */
  prompt(index: number): PromptAtCursor {
    const replay = this.need();
    const prompts = this.prompts!;
    const seq = replay.session.events.at(index)?.seq ?? -1;
    const at = prompts.systemPrompt.at(seq);
    const before = at.setBySeq !== null && at.setBySeq > 0 ? prompts.systemPrompt.at(at.setBySeq - 1) : null;
    const previousText = before ? before.text : null;
    const diff = typeof at.text === 'string' && typeof previousText === 'string' ? boundedLineDiff(previousText, at.text) : null;
    return {
      source: prompts.systemPromptSource, text: at.text, setBySeq: at.setBySeq, setBy: at.setBy, changedAt: at.changedAt,
      scrubbed: at.scrubbed, previousText, diff, contextSeq: prompts.runtimeContext.effectiveAt(seq),
    };
  }

  /** Two runtime-context snapshots by seq (a null: the one before b) and their section diff. */
  context(a: number | null, b: number): ContextComparison {
    const snapshots = this.prompts!.runtimeContext.snapshots;
    const bEntry = snapshots.find((s) => s.seq === b);
    if (!bEntry) throw new Error(`no runtime-context snapshot at seq ${b}`);
    const aSeq = a ?? bEntry.previousSeq;
    const aEntry = aSeq === null ? undefined : snapshots.find((s) => s.seq === aSeq);
    const diff = aEntry ? (this.prompts!.runtimeContext.compare(aEntry.seq, b) ?? bEntry.diff) : bEntry.diff;
    return { a: aEntry ? plainSnapshot(aEntry) : null, b: plainSnapshot(bEntry), diff };
  }

  /**
   * One model call, with a window of its messages (the newest page unless
   * asked: a long session's call carries tens of thousands) and a
   * message-level diff against the previous call, made from the two
   * contexts' tails after the messages they share.
   */
  request(index: number, window?: ListWindow): RequestDetail {
    const list = this.prompts!.requests.requests;
    const request = list[index];
    if (!request) throw new Error(`no request ${index}`);
    const at = this.messageNodesBefore(request.cut);
    const total = at.seqs.length;
    const w = clampWindow(window ?? { from: Math.max(0, total - REQUEST_PAGE), count: REQUEST_PAGE }, total);
    const messages = at.seqs.slice(w.from, w.from + w.count).map((s) => at.message(s));
    const plain = plainRequestWith(request, messages);
    const messageWindow = { from: w.from, total };
    const previous = request.prefix.previous === null ? null : list[request.prefix.previous];
    if (!previous) return { request: plain, messageWindow, messageDiff: null };
    // The first `kept` messages are the same in both calls: only what follows them can differ.
    const kept = request.prefix.keptMessages;
    const before = this.messageNodesBefore(previous.cut);
    const removedFrom = new Set(before.seqs.slice(kept).map((s) => before.message(s).id));
    const addedTo = new Set(at.seqs.slice(kept).map((s) => at.message(s).id));
    return {
      request: plain,
      messageWindow,
      messageDiff: {
        kept,
        removed: [...removedFrom].filter((id) => !addedTo.has(id)),
        added: [...addedTo].filter((id) => !removedFrom.has(id)),
      },
    };
  }

  /** The exact loop request of a call as JSON text (to copy or download: every message, derived once). */
  requestJson(index: number): string {
    const request = this.prompts!.requests.requests[index];
    if (!request) throw new Error(`no request ${index}`);
    return JSON.stringify(request.loopRequest, null, 2);
  }

  /** The surface before a cut: its message-bearing nodes (found without parsing) and a way to read one's message. */
  private messageNodesBefore(cut: number): { seqs: number[]; message(seq: number): Message } {
    const replay = this.need();
    const state = surfaceBeforeOf(replay)(cut);
    const silent = this.prompts?.surfaceTotals.silent;
    const eventAt = replay.session.eventAt;
    const seqs = state.nodes.filter((s) => (silent ? !silent.has(s) : eventMessage(eventAt(s)!, state.projected) !== null));
    return { seqs, message: (s) => deriveEventMessage(eventAt(s)!, state.projected)! };
  }

  /** An export of the state at event `index`, as JSON or Markdown, secrets redacted unless asked not to. */
  export(what: ExportWhat, format: 'json' | 'markdown', index: number, redact: boolean): ExportResult {
    const replay = this.need();
    const { session } = replay;
    // An export is asked for once: the whole surface or transcript, not a window.
    const { state } = replay.surfaceAt(index);
    const seq = session.events.at(index)?.seq ?? -1;
    // Only the format asked for is made: on a long log each is a pass over tens of thousands of messages.
    const json = format === 'json';
    let raw: string;
    if (what === 'request') {
      const list = this.prompts!.requests.requests;
      const cut = [...list].reverse().find((r) => r.cut <= seq);
      if (!cut) throw new Error(`no model call at or before seq ${seq}`);
      raw = json ? JSON.stringify(cut.loopRequest, null, 2) : messagesToMarkdown(`Model call ${cut.index + 1} (cut seq ${cut.cut}, turn ${cut.turn} step ${cut.step})`, cut.messages.map((message) => ({ message })));
    } else if (what === 'surface') {
      raw = json
        ? JSON.stringify({ seq, nodes: state.nodes, replaceGeneration: state.replaceGeneration, contentGeneration: state.contentGeneration, messages: deriveMessages(state, session.eventAt) }, null, 2)
        : messagesToMarkdown(`Model context at seq ${seq}`, state.nodes.map((n) => ({ seq: n, message: deriveEventMessage(session.eventAt(n)!, state.projected) })));
    } else {
      // The entries alone (no list view of each, which reads every event once more).
      const transcript = this.transcriptEntries(state, 0, countAtOrBelow(this.appendIndexes, index));
      const entries = transcript.map((t) => ({ seq: t.seq, message: deriveEventMessage(session.eventAt(t.seq)!), note: t.status === 'shadowed' ? `later shadowed by seq ${t.shadowedBy}` : undefined }));
      raw = json ? JSON.stringify(entries, null, 2) : messagesToMarkdown(`Transcript up to seq ${seq}`, entries);
    }
    const { text, count } = redact ? redactSecrets(raw) : { text: raw, count: 0 };
    return { fileName: `${what}-at-seq-${seq}.${format === 'json' ? 'json' : 'md'}`, mime: format === 'json' ? 'application/json' : 'text/markdown', text, redactions: count };
  }

  /** What DSH's system-prompt projection would commit for `text` on the surface at event `index` (seed §6.9). */
  admit(index: number, text: string, flags: AdmissionFlags): Admission {
    const replay = this.need();
    const { state } = replay.surfaceAt(index);
    return admitSystemPrompt(state, { dialect: replay.session.read.dialect, eventAt: replay.session.eventAt }, text, flags);
  }

  navigate(kind: Parameters<Replay['navigate']>[0], from: number, dir: 1 | -1): number | null {
    const replay = this.need();
    const withDiagnostics = new Set<number>();
    if (kind === 'diagnostic') for (const d of replay.session.diagnostics) if (d.seq !== undefined) withDiagnostics.add(replay.indexOfSeq(d.seq));
    return replay.navigate(kind, from, dir, withDiagnostics);
  }

  search(text: string, from: number, dir: 1 | -1): number | null {
    const needle = text.toLowerCase();
    return this.need().find((type) => type.includes(needle), (e) => eventPreview(e).toLowerCase().includes(needle), from, dir);
  }

  /** One request → its result; progress goes to `post` as it happens. */
  async handle(req: Request, post: (msg: unknown, transfer?: Transferable[]) => void): Promise<void> {
    try {
      let result: unknown;
      // While a log loads only its rows and events can be asked (the page shows just those).
      if (this.loading && !LOADING_OPS.has(req.op)) throw new Error('the log is still loading');
      switch (req.op) {
        case 'load': {
          const summary = await this.load(req.source, (progress) => post({ id: req.id, progress }, progress.rows ? Object.values(progress.rows.columns).map((c) => c.buffer as ArrayBuffer) : undefined), { memoryBudget: req.memoryBudget });
          // The columns travel as transferred buffers (no structured clone): every row, the worker keeping
          // copies of the few columns it navigates with; or, to a page that kept the progress reports' rows,
          // copies of the rows after them, so what it made of those (the timeline's axis, the scrubber's
          // steps) is extended, not made again (issue #15). The Requests rows travel packed in typed arrays
          // too (request-rows-wire.ts).
          const held = req.keepsRows ? this.rowsSentByLoad : 0;
          const columns = held > 0 ? this.replay!.handOverColumnsSince(held) : this.replay!.handOverColumns();
          const { wire, transfer } = summaryToWire({ ...summary, columns, ...(held > 0 ? { columnsFrom: held } : {}) });
          post({ id: req.id, ok: true, result: wire }, transfer);
          return;
        }
        case 'cancel': this.cancel(); result = null; break;
        case 'peek': result = await peekHeader((await openSource(req.source)).chunks); break;
        case 'rows': result = this.rows(req.from, req.count); break;
        case 'event': result = this.event(req.index); break;
        case 'state': result = this.state(req.query); break;
        case 'messages': result = this.messages(req.index, req.window); break;
        case 'projections': result = this.projectionsAtIndex(req.index); break;
        case 'span': result = this.span(req.index, req.seq); break;
        case 'navigate': result = this.navigate(req.kind, req.from, req.dir); break;
        case 'prompt': result = this.prompt(req.index); break;
        case 'context': result = this.context(req.a, req.b); break;
        case 'request': result = this.request(req.index, req.window); break;
        case 'requestJson': result = this.requestJson(req.index); break;
        case 'spawns': result = this.spawns(); break;
        case 'charts': result = this.charts(req.calls !== false); break;
        case 'stream': result = this.stream(req.from, req.to); break;
        case 'searchAll': result = await this.searchAll(req.text, (progress) => post({ id: req.id, progress })); break;
        case 'searchCancel': this.cancelSearch(); result = null; break;
        case 'admit': result = this.admit(req.index, req.text, { inHistory: req.inHistory, startsSeries: req.startsSeries }); break;
        case 'export': result = this.export(req.what, req.format, req.index, req.redact); break;
        case 'pack': result = await packLog((await openSource(req.source)).chunks, { redact: req.redact }); break;
      }
      post({ id: req.id, ok: true, result, ...this.takeLost() });
    } catch (err) {
      // A load stopped by the reader (too big, an error at a line/seq) says why as a finding; the app keeps the open log.
      post({ id: req.id, ok: false, error: err instanceof Error ? err.message : String(err), ...(err instanceof LoadStopped ? { finding: err.finding } : {}), ...this.takeLost() });
    }
  }
}

async function openSource(source: LoadSource): Promise<{ chunks: AsyncIterable<Uint8Array>; totalBytes: number | null }> {
  if (source.kind === 'text') {
    const bytes = new TextEncoder().encode(source.text);
    return { chunks: (async function* () { yield bytes; })(), totalBytes: bytes.length };
  }
  if (source.kind === 'bytes') {
    const { bytes } = source;
    const CHUNK = 1 << 20;
    return { chunks: (async function* () { for (let o = 0; o < bytes.length; o += CHUNK) yield bytes.subarray(o, o + CHUNK); })(), totalBytes: bytes.length };
  }
  if (source.kind === 'file') return { chunks: streamChunks(source.file.stream()), totalBytes: source.file.size };
  const response = await fetch(source.url, { credentials: 'omit', referrerPolicy: 'no-referrer' });
  if (!response.ok || !response.body) throw new Error(`could not fetch ${source.url}: HTTP ${response.status}`);
  const length = Number(response.headers.get('content-length'));
  return { chunks: streamChunks(response.body), totalBytes: Number.isFinite(length) && length > 0 ? length : null };
}

/**
 * The helper's answer, or nothing once it has been silent for
 * HELPER_SILENCE_MS (a helper that crashed never answers; the load then
 * folds the units itself). A working helper says so every few hundred ms.
 */
function helperResult(job: ProjectionJob): Promise<ProjectedLog> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gone = new Promise<ProjectedLog>((resolve) => {
    const check = () => {
      if (Date.now() - job.lastHeard() > HELPER_SILENCE_MS) { job.cancel('silent'); resolve({ history: null, error: null }); }
      else timer = setTimeout(check, HELPER_HEARTBEAT_MS);
    };
    check();
  });
  return Promise.race([job.result, gone]).finally(() => clearTimeout(timer));
}

/**
 * The load's projection registry from the helper's history: imported, then
 * the restore's synthetic events applied, as the walk would have. A helper
 * that read a different log (the file changed between the two reads) or
 * sent nothing is not trusted: the units are folded here from the store's
 * events. A fold that failed in the helper fails here the same way.
 */
function projectionsOf(read: SessionFold['read'], session: SessionFold<EventStore>, projected: ProjectedLog | null, readChunks: number, replay: Replay<EventStore>): { registry: ProjectionRegistry; by: 'helper' | 'store' } {
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

/** Token estimate that never throws on a malformed message (the fold reports those). */
function safeEstimate(message: Message): number {
  try { return estimateMessage(message); } catch { return 0; }
}

const NO_SEQS = new Uint32Array(0);

/** What the page may ask while a log loads. */
const LOADING_OPS: ReadonlySet<Request['op']> = new Set(['load', 'cancel', 'peek', 'rows', 'event', 'stream']);
/** A stream summary reads at most this many chunks: its first ones and the last STREAM_READ_TAIL. */
const STREAM_READ_MAX = 4000;
const STREAM_READ_TAIL = 500;
/** Silent nodes (no message) a messages window looks up one by one; past this many it walks the surface. */
export const SILENT_LOOKUPS = 16;

/**
 * Where the silent nodes sit on a surface, ascending (each found by the
 * engine's native search of the node list), or null when there are too
 * many to look up one at a time.
 */
function silentPositions(nodes: readonly number[], silent: ReadonlySet<number>): number[] | null {
  if (silent.size > SILENT_LOOKUPS) return null;
  const at: number[] = [];
  for (const s of silent) {
    const p = nodes.indexOf(s);
    if (p >= 0) at.push(p);
  }
  return at.sort((a, b) => a - b);
}

/** A content search keeps this many match positions (it counts them all). */
const SEARCH_KEEP = 200_000;

/** Surface node views kept for the cursor (a few screens' worth many times over). */
const NODE_VIEWS_MAX = 20_000;

/** A window clamped to a list of `length`. */
export function clampWindow(window: ListWindow, length: number, max = WINDOW_MAX): ListWindow {
  const from = Math.max(0, Math.min(Math.floor(window.from), length));
  return { from, count: Math.max(0, Math.min(Math.floor(window.count), length - from, max)) };
}

/** Messages a request's detail shows at a time. */
const REQUEST_PAGE = 50;

/** The most rows one panel query may ask for (a screen is a few dozen). */
const WINDOW_MAX = 2000;

/** How many of the first `n` entries of a sorted array are < `value`. */
function countBelow(sorted: ArrayLike<number>, value: number, n: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (sorted[mid] < value) lo = mid + 1; else hi = mid; }
  return lo;
}

/** Whether a sorted array holds `value`. */
function includesSorted(sorted: ArrayLike<number>, value: number): boolean {
  const k = countAtOrBelow(sorted, value);
  return k > 0 && sorted[k - 1] === value;
}


