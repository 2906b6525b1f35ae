import type { EventStore } from '../../core/log/event-store.ts';
import type { ProjectedLog } from '../../core/projections/project-log.ts';
import type { ProjectionRegistry } from '../../core/projections/registry.ts';
import type { Replay } from '../../core/replay/replay-index.ts';
import type { ToolPairs } from '../../core/replay/tool-pairs.ts';
import type { PromptAnalysis } from '../../core/requests/analyze.ts';
import type { NotedCalls } from '../../core/search/noted-calls.ts';
import type { SessionFold } from '../../core/session/fold-session.ts';
import { sessionSummary } from '../../core/session/summary.ts';
import type { TurnOutcome } from '../../core/session/turn-outcomes.ts';
import type { LoadRiders } from '../load-riders.ts';
import type { LoadSummary, RequestRow } from '../protocol.ts';
import { requestRows } from '../request-rows.ts';
import { CallsService } from '../services/calls.ts';
import { ChartsService } from '../services/charts.ts';
import { CursorService } from '../services/cursor.ts';
import { EventsService } from '../services/events.ts';
import { JobsService } from '../services/jobs.ts';
import { ExportService } from '../services/export.ts';
import { PromptService } from '../services/prompt.ts';
import { SearchService } from '../services/search.ts';
import { UnitsService } from '../services/units.ts';
import { analysesOf, type Analyses } from './analyses.ts';
import { pageSummary } from './page-summary.ts';

/** What opening a log takes: the session its load folded and the analyses that rode the walk. */
export interface OpenInput {
  name: string;
  session: SessionFold<EventStore>;
  riders: LoadRiders;
  fingerprint: string;
  /** When the load began (Date.now()), for the summary's load time. */
  started: number;
  /** The units as a helper worker folded them (null: the walk folded them, or there was no helper). */
  projected: ProjectedLog | null;
  /** The riders' walk goes on (a followed log still being written): what they made so far is read. */
  live: boolean;
  /** The open log this one refreshes (a followed log grew): its Requests rows are reused where they still hold. */
  previous: OpenLog | null;
}

/**
 * One open log and everything derived from it, caches included: made once
 * per load (or per refresh of a followed log) and let go with it, so a new
 * log never sees another's state. Its questions are answered by named
 * services, each holding its own state: `events` (rows, one event, streams,
 * spawns), `cursor` (the surface, messages and transcript at a cursor),
 * `search`, `calls`, `units` (projections), `prompt`, `charts`, `exports`,
 * `jobs` (background jobs).
 */
export class OpenLog {
  readonly replay: Replay<EventStore>;
  readonly prompts: PromptAnalysis;
  readonly registry: ProjectionRegistry;
  /** Tool calls and their results, paired by the load's walk. */
  readonly pairs: ToolPairs;
  /** How each turn ended, noted by the load's walk (compare's run summary). */
  readonly turnOutcomes: readonly TurnOutcome[];
  /** The tool call names as of each event, noted by the load (a `tool:` search reads them). */
  readonly notedCalls: NotedCalls;
  /**
   * A followed log's Requests rows and the riders it is read by, while it is live: its next
   * refresh, from the same riders, reuses the rows that still hold. Null otherwise: the walk's
   * working state goes with the load, and the rows with the summary the page was sent.
   */
  private readonly liveRows: { riders: LoadRiders; rows: RequestRow[] } | null;

  readonly events: EventsService;
  readonly cursor: CursorService;
  readonly search: SearchService;
  readonly calls: CallsService;
  readonly units: UnitsService;
  readonly prompt: PromptService;
  readonly charts: ChartsService;
  readonly exports: ExportService;
  readonly jobs: JobsService;

  /**
   * Opens a log: its analyses, its services, and the summary the page is told of it (handed on,
   * not kept: the page holds it). `rowsKept`: how many of its Requests rows were `previous`'s.
   */
  static open(input: OpenInput): { log: OpenLog; summary: LoadSummary; rowsKept: number } {
    const { session, riders, live } = input;
    const analyses = analysesOf(session, riders, input.projected, live);
    const { replay, prompts } = analyses;
    const { typeNames, columns } = replay.index;
    const facts = sessionSummary(session, { typeNames, typeId: columns.typeId, seq: columns.seq });
    // A followed log's refresh makes the rows of the calls new or changed since its last one.
    const calls = prompts.requests.requests;
    const kept = live && input.previous?.liveRows?.riders === riders ? input.previous.liveRows.rows : [];
    const rowsKept = Math.min(prompts.requests.sameBefore ?? 0, kept.length, calls.length);
    const rows = requestRows(calls, (seq) => replay.indexOfSeq(seq), kept, rowsKept);
    const log = new OpenLog(input.name, session, riders, analyses, facts.compactionIndexes, live ? { riders, rows } : null);
    return { log, summary: pageSummary(input, analyses, facts, log.units.summaryUnits(), rows, log.jobs), rowsKept };
  }

  private constructor(name: string, session: SessionFold<EventStore>, riders: LoadRiders, analyses: Analyses, compactionIndexes: readonly number[], liveRows: OpenLog['liveRows']) {
    const { replay, prompts } = analyses;
    this.replay = replay;
    this.prompts = prompts;
    this.registry = analyses.projections;
    this.liveRows = liveRows;
    this.pairs = riders.toolPairs.finish(session.loggedCount, (seq) => replay.indexOfSeq(seq));
    this.turnOutcomes = riders.turnOutcomes.outcomes();
    this.notedCalls = riders.calls;
    this.events = new EventsService(replay, this.pairs);
    this.cursor = new CursorService(replay, prompts);
    this.search = new SearchService(replay, this.notedCalls);
    this.calls = new CallsService(replay, prompts);
    this.units = new UnitsService(replay, this.registry);
    this.prompt = new PromptService(replay, prompts);
    this.charts = new ChartsService(replay, prompts, this.calls, compactionIndexes);
    this.exports = new ExportService(replay, this.cursor, this.calls, { name, pairs: this.pairs, turnOutcomes: this.turnOutcomes });
    this.jobs = new JobsService(riders.jobs, (seq) => replay.indexOfSeq(seq), replay.seqAt(session.loggedCount - 1) ?? -1);
  }

  /** The log is no longer the open one: a search still scanning it stops. */
  close(): void {
    this.search.cancel();
  }
}
