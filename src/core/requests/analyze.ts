// Section ids (P…) are those of docs/dsh-log-rules.md.
import { RuntimeContextStream } from '../prompt/context-stream.ts';
import type { DiffLimits } from '../prompt/context-diff.ts';
import { promptFailureOf, type PromptFailure } from '../prompt/errors.ts';
import { SystemPromptTimeline } from '../prompt/system-timeline.ts';
import type { SessionFold } from '../session/fold-session.ts';
import { RequestBuilder, type ModelRequest, type RequestList, type SurfaceBefore } from './build.ts';
import { SurfaceLedger, type LedgerSizing } from '../surface/ledger.ts';
import type { SurfaceTotals } from '../surface/surface-totals.ts';
import { TextPool } from '../util/text-pool.ts';
import { Replay, ReplayBuilder } from '../replay/replay-index.ts';
import { cutModeFor } from './cuts.ts';
import type { LogEvent, LogMeta, ReadMeta } from '../log/types.ts';
import { finding, type PromptFinding } from '../diagnostics/prompt-findings.ts';
import { walkSurface, type SurfaceVisitor } from '../surface/walk.ts';
import type { SurfaceState } from '../surface/types.ts';

/**
 * System prompt, runtime context and requests of one session in a single
 * surface walk (P4–P8, P10).
 */
export interface PromptAnalysis {
  /** Where the effective prompt comes from (P5.4). */
  systemPromptSource: 'header' | 'system-message';
  systemPrompt: SystemPromptTimeline;
  runtimeContext: RuntimeContextStream;
  requests: RequestList;
  /** Messages and estimated tokens after every surface change (the cursor's totals). */
  surfaceTotals: SurfaceTotals;
  /** Every P10 finding, in seq order. */
  findings: PromptFinding[];
}

/**
 * Whole-log facts two rules depend on before the walk starts: whether the
 * prompt lives in the header (P3, P5.4) and how model calls are cut (P8).
 */
export interface LogFacts {
  hasChunks: boolean;
  hasSystemMessage: boolean;
  hasHeaderSystem: boolean;
}

/** Collects the facts as events pass (a streaming load checks its guess with them). */
export class FactsTracker implements SurfaceVisitor {
  readonly facts: LogFacts = { hasChunks: false, hasSystemMessage: false, hasHeaderSystem: false };
  readonly reads: ReadonlySet<string> = new Set(['assistant/chunk', 'system/message', 'request/header']);
  run(): void {
    this.facts.hasChunks = true;
  }
  after(e: LogEvent): void {
    if (e.type === 'assistant/chunk') this.facts.hasChunks = true;
    else if (e.type === 'system/message') this.facts.hasSystemMessage = true;
    else if (e.type === 'request/header' && e.data?.header?.system !== undefined) this.facts.hasHeaderSystem = true;
  }
}

export function factsOf(events: Iterable<LogEvent>): LogFacts {
  const tracker = new FactsTracker();
  for (const e of events) tracker.after(e);
  return tracker.facts;
}

/**
 * What a streaming load assumes before it has seen the log: no chunk events
 * from format 2 on, a system/message prompt in the newer dialects. A log
 * that breaks the guess is analysed again (`decisionsMatch`).
 */
export function likelyFacts(read: Pick<ReadMeta, 'version'>): LogFacts {
  return { hasChunks: read.version < 2, hasSystemMessage: true, hasHeaderSystem: false };
}

/** rc.8, and mid logs that never logged a system/message, keep the prompt in the header (P3, P5.4). */
function promptInHeader(read: Pick<ReadMeta, 'dialect'>, facts: LogFacts): boolean {
  return read.dialect === 'v0' || (!facts.hasSystemMessage && facts.hasHeaderSystem);
}

/** Whether two sets of facts lead the analysis to the same decisions. */
export function decisionsMatch(read: Pick<ReadMeta, 'dialect' | 'header'>, a: LogFacts, b: LogFacts): boolean {
  return promptInHeader(read, a) === promptInHeader(read, b) && cutModeFor(read.header, a.hasChunks) === cutModeFor(read.header, b.hasChunks);
}

/** The analysis as visitors, so a caller that already walks the surface (the replay index) can carry it. */
export interface PromptAnalysisRun {
  visitors: SurfaceVisitor[];
  /** What the analysis knows of the surface as the walk goes (other riders may read it too). */
  ledger: SurfaceLedger;
  /**
   * Completes the analysis with the surface after the last event;
   * `surfaceBefore` (a replay seek) is where each call's messages are derived from when read.
   */
  finish(finalState: SurfaceState, surfaceBefore: SurfaceBefore, eventAt: (seq: number) => LogEvent | undefined): PromptAnalysis;
  /** The analysis so far, the walk going on (a log still being written): `finish`'s result without ending anything. */
  soFar(state: SurfaceState, surfaceBefore: SurfaceBefore, eventAt: (seq: number) => LogEvent | undefined): PromptAnalysis;
}

export function startPromptAnalysis(read: LogMeta, facts: LogFacts, limits: DiffLimits = {}, sizing: LedgerSizing = {}): PromptAnalysisRun {
  const fromHeader = promptInHeader(read, facts);
  // The ledger walks first: the others read the surface through it.
  const ledger = new SurfaceLedger(sizing);
  // Prompts and tool lists repeat in every header: one copy of each, shared by the timeline and the calls.
  const pool = new TextPool();
  const systemPrompt = new SystemPromptTimeline(fromHeader, ledger, pool);
  const runtimeContext = new RuntimeContextStream(read.dialect === 'v4', ledger, limits);
  const builder = new RequestBuilder(read, cutModeFor(read.header, facts.hasChunks), ledger, pool);
  const failures: PromptFailure[] = [];
  const failureWatch: SurfaceVisitor = { reads: new Set(['turn/end']), run() { /* only turn/end reports failures */ }, after(e) { const f = promptFailureOf(e); if (f) failures.push(f); } };
  const analysis = (requests: RequestList): PromptAnalysis => {
    const failed = failures.map((f) => finding('prompt.failure', `turn ${f.turn} ended on a prompt error (${f.kind}): ${f.message}`, f.seq));
    const findings = [...requests.findings, ...systemPrompt.findings, ...runtimeContext.findings, ...failed]
      .sort((a, b) => (a.seq ?? -1) - (b.seq ?? -1));
    return { systemPromptSource: fromHeader ? 'header' : 'system-message', systemPrompt, runtimeContext, requests, findings, surfaceTotals: ledger.totals };
  };
  return {
    visitors: [ledger, builder, systemPrompt, runtimeContext, failureWatch],
    ledger,
    finish(finalState, surfaceBefore, eventAt) {
      runtimeContext.finish(finalState, eventAt);
      const requests = builder.finish(surfaceBefore, eventAt);
      ledger.release();
      return analysis(requests);
    },
    soFar(state, surfaceBefore, eventAt) {
      // Which snapshots are on the surface now: set again at each snapshot, as the surface changes.
      runtimeContext.finish(state, eventAt);
      return analysis(builder.listSoFar(surfaceBefore, eventAt));
    },
  };
}

/** The analysis of a folded session in a walk of its own, with the replay index its calls' messages are derived from. */
export function analyzePrompts(session: SessionFold, limits: DiffLimits = {}): PromptAnalysis {
  const run = startPromptAnalysis(session.read, factsOf(session.events), limits);
  const index = new ReplayBuilder({ capacity: session.events.length, dialect: session.read.dialect });
  const finalState = walkSurface(session.events, session.read.dialect, [index, ...run.visitors], session.eventAt);
  const replay = new Replay(session, index.finish(session.loggedCount));
  return run.finish(finalState, surfaceBeforeOf(replay), session.eventAt);
}

/** Every model call of a folded session (the request part of analyzePrompts). */
export function buildRequests(session: SessionFold): RequestList {
  return analyzePrompts(session).requests;
}

/** A call's surface from the replay index: the state after the event before its cut. */
export function surfaceBeforeOf(replay: Replay): SurfaceBefore {
  return (cut) => replay.surfaceAt(replay.indexOfSeq(cut) - 1).state;
}

/** The per-call fields `inspect --json` prints: reference fields plus the analysis ones. */
export interface InspectedRequest {
  cut: number;
  turn: number;
  step: number;
  attempt: number;
  messageCount: number;
  /** Left out with `briefCalls` (as is `hash`): on a long session each call's context is most of the document. */
  messages?: ModelRequest['messages'];
  header: ModelRequest['header'];
  config: ModelRequest['config'];
  toolNames: string[];
  toolsScrubbed: boolean;
  hash?: string;
  usage?: ModelRequest['usage'];
  outcome?: string;
  prefix: ModelRequest['prefix'];
}

/**
 * Every call as the inspection reports it. A call's messages and hash are
 * read when the report is (JSON.stringify reads getters), one call at a
 * time and not kept: each walks the call's whole context, so on a long
 * session holding them all was quadratic (the text report reads neither).
 */
export function inspectRequests(list: RequestList, options: { briefCalls?: boolean } = {}): InspectedRequest[] {
  return list.requests.map((r) => {
    const out: InspectedRequest = {
      cut: r.cut, turn: r.turn, step: r.step, attempt: r.attempt,
      messageCount: r.messageCount,
      get messages() { return r.messages; },
      header: r.header, config: r.config, toolNames: r.tools.names, toolsScrubbed: r.tools.scrubbed,
      get hash() { return r.hash; },
      prefix: r.prefix,
    };
    if (options.briefCalls) {
      delete out.messages;
      delete out.hash;
    }
    if (r.usage) out.usage = r.usage;
    if (r.outcome) out.outcome = r.outcome;
    return out;
  });
}
