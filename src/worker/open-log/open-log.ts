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
import { ExportService } from '../services/export.ts';
import { PromptService } from '../services/prompt.ts';
import { SearchService } from '../services/search.ts';
import { UnitsService } from '../services/units.ts';
import { analysesOf } from './analyses.ts';
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
 * `search`, `calls`, `units` (projections), `prompt`, `charts`, `exports`.
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
  /** The riders this log was read by: a followed log's refresh from the same riders may reuse this one's rows. */
  readonly riders: LoadRiders;
  /** Every model call's Requests row, and how many of them were this log's `previous`'s. */
  readonly requestRows: RequestRow[];
  readonly rowsKept: number;
  /** What the page is told of the log. */
  readonly summary: LoadSummary;

  readonly events: EventsService;
  readonly cursor: CursorService;
  readonly search: SearchService;
  readonly calls: CallsService;
  readonly units: UnitsService;
  readonly prompt: PromptService;
  readonly charts: ChartsService;
  readonly exports: ExportService;

  constructor(input: OpenInput) {
    const { session, riders, live } = input;
    const analyses = analysesOf(session, riders, input.projected, live);
    const { replay, prompts } = analyses;
    this.replay = replay;
    this.prompts = prompts;
    this.registry = analyses.projections;
    this.riders = riders;
    this.pairs = riders.toolPairs.finish(session.loggedCount, (seq) => replay.indexOfSeq(seq));
    this.turnOutcomes = riders.turnOutcomes.outcomes();
    this.notedCalls = riders.calls;
    const { typeNames, columns } = replay.index;
    const facts = sessionSummary(session, { typeNames, typeId: columns.typeId, seq: columns.seq });
    this.events = new EventsService(replay, this.pairs);
    this.cursor = new CursorService(replay, prompts);
    this.search = new SearchService(replay, this.notedCalls);
    this.calls = new CallsService(replay, prompts);
    this.units = new UnitsService(replay, this.registry);
    this.prompt = new PromptService(replay, prompts);
    this.charts = new ChartsService(replay, prompts, this.calls, facts.compactionIndexes);
    this.exports = new ExportService(replay, this.cursor, this.calls);
    // A followed log's refresh makes the rows of the calls new or changed since its last one.
    const calls = this.calls.list;
    const previous = live && input.previous?.riders === riders ? input.previous.requestRows : [];
    this.rowsKept = Math.min(prompts.requests.sameBefore ?? 0, previous.length, calls.length);
    this.requestRows = requestRows(calls, (seq) => replay.indexOfSeq(seq), previous, this.rowsKept);
    this.summary = pageSummary(input, analyses, facts, this.units.summaryUnits(), this.requestRows);
  }

  /** The log is no longer the open one: a search still scanning it stops. */
  close(): void {
    this.search.cancel();
  }
}
