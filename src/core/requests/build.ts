// Section ids (P…) are those of docs/dsh-log-rules.md.
import type { LogEvent, LogMeta } from '../log/types.ts';
import { deriveMessages } from '../messages/derive.ts';
import { runMember, type PackedRun } from '../log/packed-rows.ts';
import type { Message } from '../messages/types.ts';
import type { SurfaceContext, SurfacePlan, SurfaceState } from '../surface/types.ts';
import { latestSystemNode } from '../prompt/system-nodes.ts';
import type { SurfaceLedger } from '../surface/ledger.ts';
import { TextPool } from '../util/text-pool.ts';
import type { CutMode, RequestCut } from './cuts.ts';
import { CutDetector } from './cuts.ts';
import { stepKey } from '../util/step-key.ts';
import { finding, type PromptFinding } from '../diagnostics/prompt-findings.ts';
import { requestHash } from './hash.ts';
import { canonicalHeader, headerEquals, identicalHeaders, isScrubbed, toolNames, type LlmCallConfig, type RequestHeader } from '../prompt/request-header.ts';
import { analyzePrefix, HeadCache, type ChangesSince, type PrefixAnalysis, type PrefixInput } from './prefix.ts';
import { ToolHistoryFold, type ToolHistorySnapshot } from './tool-history.ts';
import { readsOf, SURFACE_CHANGING_TYPES, type SurfaceVisitor } from '../surface/walk.ts';

/**
 * Every model call of a log, rebuilt from the log alone
 * (P7–P8): one entry per attempt with the exact loop
 * request (layer A) and the prefix analysis against the previous call.
 * Built on the load's one walk from what changed since the previous call
 * (the surface ledger); a call's messages are derived from the log only
 * when read, from the surface at its cut.
 */

/** The surface just before the event with seq `cut` (a replay seek): where a call's messages come from. */
export type SurfaceBefore = (cut: number) => Pick<SurfaceState, 'nodes' | 'projected'>;

/** `request/context` in force at the cut (P6.3). */
export interface RouteContext {
  seq: number;
  provider?: string;
  model?: string;
  contextWindow?: number;
  systemPromptUpdate?: string;
}

export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  reasoningTokens?: number;
  [key: string]: unknown;
}

/** The frozen request the loop handed to `llm.stream` (layer A, exact, P8.1 item 7 / P8.2). */
export interface LoopRequest {
  provider?: string;
  model?: string;
  [key: string]: unknown;
  messages: readonly Message[];
  system?: string;
  tools?: unknown;
  toolHistory?: { tools: unknown[]; updates: { messageId: string; additions: unknown[] }[] };
  sessionId: string | undefined;
}

export interface RequestSystemPrompt {
  /** The prompt text; '' none; undefined opaque; null nothing sent yet. */
  text: string | undefined | null;
  /** rc.8: in the header's `system`; newest: system messages inside `messages`. */
  where: 'header' | 'messages';
  /** The event that carried it (header seq or system node seq). */
  seq: number | null;
  /** A fixture scrub token such as `{{system}}`, not prompt text (P3.2). */
  scrubbed: boolean;
  /** Non-empty system messages in `messages` (newest). */
  activeSystemMessages: number;
}

export interface ModelRequest {
  index: number;
  /** rc.8: seq of the attempt's first chunk; V2+: seq of the settlement (P8). */
  cut: number;
  turn: number;
  step: number;
  attempt: number;
  cutKind: RequestCut['kind'];
  messageCount: number;
  messages: readonly Message[];
  /** foldRequestHeader over the events before the cut; null when none. */
  header: RequestHeader | null;
  headerSeq: number | null;
  config: LlmCallConfig | null;
  system: RequestSystemPrompt;
  /** Header tools; `scrubbed` when a fixture replaced them by `{{tools}}`. */
  tools: { names: string[]; scrubbed: boolean };
  toolHistory?: ToolHistorySnapshot;
  route: RouteContext | null;
  /** Exact: determined by the log (P8 layer A). */
  loopRequest: LoopRequest;
  exactness: 'exact';
  /** requestHash(loopRequest): identity of the exact request. */
  hash: string;
  usage?: Usage;
  /** The attempt's finish reason kind, when logged (stop, error, aborted, max-tokens, …). */
  outcome?: string;
  replaceGeneration: number;
  contentGeneration: number;
  prefix: PrefixAnalysis;
}

export interface RequestList {
  mode: CutMode;
  requests: ModelRequest[];
  findings: PromptFinding[];
  /**
   * A list so far (a log still being written): the calls before this index
   * are the ones the previous list so far gave, unchanged; each later one is
   * new or has changed since (a usage or finish chunk arrived for it).
   */
  sameBefore?: number;
}

/** A call with a window of its messages: no `hash`, which identifies the whole request. */
export type RequestWindow = Omit<ModelRequest, 'hash'>;

/**
 * The same with the messages the caller has (a window of a long context):
 * `messages` and the loop request's hold those. Without the request's hash:
 * hashing derives every message of the call, tens of thousands at the end of
 * a long session (1.3-1.6 s for a panel that shows 50).
 */
export function plainRequestWith(request: ModelRequest, messages: readonly Message[]): RequestWindow {
  if (request instanceof ModelCall) return request.plain(messages);
  const { hash: _whole, ...rest } = request;
  return { ...rest, messages, loopRequest: { ...request.loopRequest, messages } };
}

/** Where the calls of one list derive their messages (one object for all of them). */
interface CallSource {
  surfaceBefore: SurfaceBefore;
  eventAt: SurfaceContext['eventAt'];
  sessionId: string | undefined;
}

/** What a call keeps at the cut; the rest (messages, loop request, hash) is derived when read. */
interface CallFacts {
  index: number;
  cut: number;
  turn: number;
  step: number;
  attempt: number;
  cutKind: RequestCut['kind'];
  messageCount: number;
  header: RequestHeader | null;
  headerSeq: number | null;
  system: RequestSystemPrompt;
  tools: { names: string[]; scrubbed: boolean };
  toolHistory: ToolHistorySnapshot | undefined;
  route: RouteContext | null;
  replaceGeneration: number;
  contentGeneration: number;
  prefix: PrefixAnalysis;
}

/**
 * One model call. A class with its derived fields as getters: thousands of
 * calls cost one small record each at load, and `toJSON` gives the plain
 * request (field order as the loop request and the reference have it).
 */
class ModelCall implements ModelRequest {
  readonly index: number;
  readonly cut: number;
  readonly turn: number;
  readonly step: number;
  readonly attempt: number;
  readonly cutKind: RequestCut['kind'];
  readonly messageCount: number;
  readonly header: RequestHeader | null;
  readonly headerSeq: number | null;
  readonly system: RequestSystemPrompt;
  readonly tools: { names: string[]; scrubbed: boolean };
  readonly toolHistory: ToolHistorySnapshot | undefined;
  readonly route: RouteContext | null;
  /** Exact: determined by the log (P8 layer A) — for every call, so not stored on each. */
  get exactness(): 'exact' {
    return 'exact';
  }
  usage: Usage | undefined = undefined;
  outcome: string | undefined = undefined;
  readonly replaceGeneration: number;
  readonly contentGeneration: number;
  readonly prefix: PrefixAnalysis;
  /** Set when the list is finished: where the messages at the cut are derived from. */
  source: CallSource | null = null;
  private hashMemo: string | undefined = undefined;

  constructor(f: CallFacts) {
    this.index = f.index;
    this.cut = f.cut;
    this.turn = f.turn;
    this.step = f.step;
    this.attempt = f.attempt;
    this.cutKind = f.cutKind;
    this.messageCount = f.messageCount;
    this.header = f.header;
    this.headerSeq = f.headerSeq;
    this.system = f.system;
    this.tools = f.tools;
    this.toolHistory = f.toolHistory;
    this.route = f.route;
    this.replaceGeneration = f.replaceGeneration;
    this.contentGeneration = f.contentGeneration;
    this.prefix = f.prefix;
  }

  get config(): LlmCallConfig | null {
    return this.header?.config ?? null;
  }

  get messages(): readonly Message[] {
    const source = this.source;
    return source ? deriveMessages(source.surfaceBefore(this.cut), source.eventAt) : [];
  }

  /** The frozen request the loop handed to `llm.stream` (P8 layer A), built when read. */
  get loopRequest(): LoopRequest {
    return this.loopRequestWith(this.messages);
  }

  loopRequestWith(messages: readonly Message[]): LoopRequest {
    const header = this.header;
    const out: LoopRequest = { ...(header?.config ?? {}), messages, sessionId: this.source?.sessionId };
    if (header?.system !== undefined) out.system = header.system;
    if (this.toolHistory) out.toolHistory = { tools: this.toolHistory.tools, updates: this.toolHistory.updates };
    if (header?.tools !== undefined) out.tools = header.tools;
    return out;
  }

  /** requestHash(loopRequest), computed when first read: it walks the whole request. */
  get hash(): string {
    return (this.hashMemo ??= requestHash(this.loopRequest));
  }

  /** What JSON.stringify writes: the plain request (it passes a key as the argument, so no options here). */
  toJSON(): ModelRequest {
    return this.plain();
  }

  /** The plain request with its messages derived once; with the ones given (a window), without the whole request's hash. */
  plain(): ModelRequest;
  plain(given: readonly Message[]): RequestWindow;
  plain(given?: readonly Message[]): ModelRequest | RequestWindow {
    const messages = given ?? this.messages;
    const out: Record<string, unknown> = {
      index: this.index, cut: this.cut, turn: this.turn, step: this.step, attempt: this.attempt, cutKind: this.cutKind,
      messageCount: this.messageCount, messages, header: this.header, headerSeq: this.headerSeq, config: this.config,
      system: this.system, tools: this.tools, route: this.route, loopRequest: this.loopRequestWith(messages),
      exactness: this.exactness, ...(given ? {} : { hash: this.hash }), replaceGeneration: this.replaceGeneration,
      contentGeneration: this.contentGeneration, prefix: this.prefix,
    };
    if (this.toolHistory) out.toolHistory = this.toolHistory;
    if (this.usage) out.usage = this.usage;
    if (this.outcome) out.outcome = this.outcome;
    return out as unknown as ModelRequest;
  }
}

const COMPACTION_SOURCES = new Set(['compact-checkpoint', 'compact-basic']);
const COMPACTION_PLUGINS = new Set(['compact', 'dsh-compaction-basic']);

function isCompactionMessage(message: any): boolean {
  const s = message?.source;
  return COMPACTION_SOURCES.has(s?.kind) || (s?.kind === 'plugin' && COMPACTION_PLUGINS.has(s?.plugin));
}

export function usageOfStream(stream: unknown): Usage | undefined {
  let usage: Usage | undefined;
  if (Array.isArray(stream)) for (const r of stream) if (r?.type === 'chunk' && r.chunk?.type === 'usage') usage = r.chunk.usage;
  return usage;
}

function finishOfStream(stream: unknown): string | undefined {
  let kind: string | undefined;
  if (Array.isArray(stream)) for (const r of stream) if (r?.type === 'chunk' && r.chunk?.type === 'finish') kind = r.chunk.reason?.kind;
  return kind;
}

const NO_NAMES: string[] = [];

const noChanges = (): ChangesSince => ({ compactionReplace: false, otherReplace: false, projection: false, series: false, systemMessage: false });

/** The request builder as a surface visitor, so other analyses can share the walk. */
export class RequestBuilder implements SurfaceVisitor {
  /** Cuts (step starts, settlements, chunks), header/route/tool events, compaction bounds and every surface change. */
  readonly reads = readsOf(SURFACE_CHANGING_TYPES, [
    'step/start', 'assistant/chunk', 'assistant/attempt', 'assistant/message', 'request/header', 'request/context',
    'developer/message', 'request/tool-update', 'compaction/start', 'compaction/end',
  ]);
  readonly mode: CutMode;
  private readonly detector: CutDetector;
  private readonly requests: ModelCall[] = [];
  private readonly findings: PromptFinding[] = [];
  private readonly tools = new ToolHistoryFold();
  private readonly sessionId: string | undefined;
  private readonly newest: boolean;
  private header: RequestHeader | null = null;
  private headerSeq: number | null = null;
  private route: RouteContext | null = null;
  private changes = noChanges();
  /**
   * Surface positions [0, seen) hold the nodes the last call was made from (in
   * today's positions: a replace among them since moves the end). A replace at
   * or past it only rewrites nodes that call never saw, so it is no reason for
   * the next call to break that call's prefix.
   */
  private seen = 0;
  private inCompaction = false;
  private prevInput: PrefixInput | null = null;
  /** rc.8: (turn:step) → index of the attempt whose chunks are streaming. */
  private readonly streaming = new Map<string, number>();
  /** The lowest call changed since the last list so far (calls made since count as changed). */
  private changedFrom = 0;
  /** Where the calls' messages are derived from, once a list is made. */
  private source: CallSource | null = null;
  /** V4: the last header logged with changed tool names, awaiting its developer/message. */
  private pendingToolUpdate: { seq: number } | null = null;

  /** `ledger` must walk before this builder: a cut reads the surface as it was before the cutting event. */
  constructor(private readonly read: LogMeta, mode: CutMode, private readonly ledger: SurfaceLedger, private readonly pool = new TextPool()) {
    this.mode = mode;
    this.detector = new CutDetector(this.mode);
    this.sessionId = read.header?.id;
    this.newest = read.dialect !== 'v0';
  }

  before(event: LogEvent, state: SurfaceState, ctx: SurfaceContext): void {
    const cut = this.detector.next(event);
    if (cut) this.snapshot(cut, event, state, ctx);
  }

  /**
   * A packed run of chunk deltas: only its first member can start a model
   * call (a delta is never a finish, so later members cut nothing), and
   * deltas carry no usage or finish for the attempt.
   */
  run(run: PackedRun, state: SurfaceState, ctx: SurfaceContext): void {
    const first = runMember(run, 0);
    this.before(first, state, ctx);
  }

  after(event: LogEvent, _state: unknown, plan: SurfacePlan): void {
    const d = event.data;
    switch (event.type) {
      case 'request/header': this.onHeader(event); break;
      case 'request/context':
        this.route = { seq: event.seq, ...pickRoute(d) };
        break;
      case 'developer/message':
        if (plan.kind === 'append') this.onDeveloper(event);
        break;
      case 'request/tool-update':
        this.findings.push(finding('request.bake-tool-update', `Bake request/tool-update at seq ${event.seq} (not DSH's developer/message form)`, event.seq));
        break;
      case 'compaction/start': this.inCompaction = true; break;
      case 'compaction/end': this.inCompaction = false; break;
      case 'assistant/chunk': this.onChunk(event); break;
    }
    if (plan.kind === 'replace') {
      const touched = plan.startIndex < this.seen;
      // The run [startIndex, endIndex] became one node.
      if (plan.endIndex < this.seen) this.seen -= plan.endIndex - plan.startIndex;
      else if (touched) this.seen = plan.startIndex + 1;
      if (touched) {
        if (event.type === 'system/message') this.changes.systemMessage = true;
        else if (this.inCompaction || isCompactionMessage(event.type === 'user/message' ? d : d?.message)) this.changes.compactionReplace = true;
        else this.changes.otherReplace = true;
      }
    } else if (plan.kind === 'project') {
      this.changes.projection = true;
    } else if (plan.kind === 'append' && event.type === 'system/message') {
      this.changes.systemMessage = true;
    }
  }

  /**
   * The list, once the walk is over. `surfaceBefore` gives the surface at a
   * cut (a replay seek): each call's messages are derived from it when read.
   */
  finish(surfaceBefore: SurfaceBefore, eventAt: SurfaceContext['eventAt']): RequestList {
    this.prevInput = null;
    this.readFrom(surfaceBefore, eventAt);
    this.checkPendingToolUpdate();
    for (const s of this.detector.unsettled()) {
      this.findings.push(finding('request.step-unsettled', `step ${String(s.turn)}.${String(s.step)} (step/start at seq ${s.seq}) has no later assistant settlement: its model call was interrupted or never made, so no request is rebuilt for it`, s.seq));
    }
    for (const p of this.tools.problems) this.findings.push(finding('request.tool-update-stale', p.message, p.seq));
    return { mode: this.mode, requests: this.requests, findings: this.findings };
  }

  /**
   * The list so far, while the walk goes on (a log still being written): the
   * calls made up to now, read from `surfaceBefore`. Nothing the walk needs
   * is ended, and a step still running or a tool update yet to come is not
   * a finding: only the end of the log makes them one.
   */
  listSoFar(surfaceBefore: SurfaceBefore, eventAt: SurfaceContext['eventAt']): RequestList {
    this.readFrom(surfaceBefore, eventAt);
    const problems = this.tools.problems.map((p) => finding('request.tool-update-stale', p.message, p.seq));
    const sameBefore = this.changedFrom;
    this.changedFrom = this.requests.length;
    return { mode: this.mode, requests: this.requests.slice(), findings: [...this.findings, ...problems], sameBefore };
  }

  /**
   * Where each call's messages are derived from when read (one object all
   * calls share, pointed at the newest replay each time); the cached-token
   * counts of the calls new or changed since the last list beside the prefix
   * analysis they explain.
   */
  private readFrom(surfaceBefore: SurfaceBefore, eventAt: SurfaceContext['eventAt']): void {
    const source = this.source ??= { surfaceBefore, eventAt, sessionId: this.sessionId };
    source.surfaceBefore = surfaceBefore;
    source.eventAt = eventAt;
    for (let i = this.changedFrom; i < this.requests.length; i++) {
      const r = this.requests[i];
      r.source = source;
      if (typeof r.usage?.cacheReadTokens === 'number') r.prefix.cacheReadTokens = r.usage.cacheReadTokens;
      if (typeof r.usage?.inputTokens === 'number') r.prefix.inputTokens = r.usage.inputTokens;
    }
  }

  private onHeader(event: LogEvent): void {
    const raw = event.data?.header ?? {};
    const canonical = canonicalHeader(raw);
    // One copy of each distinct prompt and tool list, however many headers repeat them.
    if (canonical.system !== undefined) canonical.system = this.pool.text(canonical.system);
    if (canonical.tools !== undefined) canonical.tools = this.pool.value(canonical.tools);
    const reason = event.data?.reason;
    const seq = event.seq;
    if (this.newest && raw.system !== undefined) this.findings.push(finding('request.header-system', `request/header at seq ${seq} carries system in a format-${this.read.version} log`, seq));
    if ((Array.isArray(raw.tools) && raw.tools.length === 0) || (raw.adapterDefaults !== undefined && canonical.adapterDefaults === undefined)) {
      this.findings.push(finding('request.header-noncanonical', `request/header at seq ${seq} is not canonical (empty tools or adapterDefaults without a true flag)`, seq));
    }
    if (reason === 'initial' && this.header) this.findings.push(finding('request.header-reason', `request/header at seq ${seq} is "initial" after an earlier header (seq ${this.headerSeq})`, seq));
    if (reason === 'resume' && !this.header) this.findings.push(finding('request.header-reason', `request/header at seq ${seq} is "resume" with no earlier header`, seq));
    // Scrubbed fixtures hide the real difference behind equal tokens (P3.2, P10).
    const scrubbed = isScrubbed(canonical.system) || isScrubbed(canonical.tools);
    if (reason === 'change' && this.header && !scrubbed && headerEquals(this.header, canonical)) {
      this.findings.push(finding('request.header-reason', `request/header at seq ${seq} is "change" but equals the previous header (seq ${this.headerSeq})`, seq));
    }
    // A series header repeats the header logged before it (P6.2: a changed one is "change", with startsSeries).
    if (reason === 'series' && !this.header) this.findings.push(finding('request.header-reason', `request/header at seq ${seq} is "series" with no earlier header`, seq));
    if (reason === 'series' && this.header && !scrubbed && !headerEquals(this.header, canonical)) {
      this.findings.push(finding('request.header-reason', `request/header at seq ${seq} is "series" but differs from the previous header (seq ${this.headerSeq}); a changed header is logged as "change"`, seq));
    }
    if (reason === 'series' || event.data?.startsSeries === true) this.changes.series = true;
    if (this.read.dialect === 'v4' && this.header && reason !== 'series') {
      const before = toolNames(this.header.tools);
      const after = toolNames(canonical.tools);
      // The name sets, as DSH compares them: a header may list a name twice (P1.5).
      const changed = before && after && !sameNames(before, after);
      this.checkPendingToolUpdate();
      if (changed) this.pendingToolUpdate = { seq };
    }
    // The tool history is format 4's (developer/message tool updates); before it, it would only keep every header's tools.
    if (this.read.dialect === 'v4') this.tools.apply(event);
    // Headers logged at every step repeat the same one: calls under it share one object.
    this.header = this.header && identicalHeaders(this.header, canonical) ? this.header : canonical;
    this.headerSeq = seq;
  }

  private onDeveloper(event: LogEvent): void {
    this.tools.apply(event);
    const headerSeq = event.data?.headerSeq;
    if (headerSeq !== undefined && headerSeq !== this.headerSeq) {
      this.findings.push(finding('request.tool-update-stale', `developer/message at seq ${event.seq} names header ${headerSeq}, not the latest (${this.headerSeq})`, event.seq));
    }
    this.pendingToolUpdate = null;
  }

  private checkPendingToolUpdate(): void {
    if (!this.pendingToolUpdate) return;
    const seq = this.pendingToolUpdate.seq;
    this.findings.push(finding('request.tool-update-missing', `request/header at seq ${seq} changed tool names but no developer/message followed`, seq));
    this.pendingToolUpdate = null;
  }

  private onChunk(event: LogEvent): void {
    const d = event.data;
    const type = d?.chunk?.type;
    // Only a usage or a finish chunk tells the attempt anything.
    if (type !== 'usage' && type !== 'finish') return;
    const index = this.streaming.get(stepKey(d?.turn, d?.step));
    if (index === undefined) return;
    const request = this.requests[index];
    // The only change to a call already made: a list so far must send it again.
    this.changedFrom = Math.min(this.changedFrom, index);
    if (type === 'usage') request.usage = d.chunk.usage;
    else request.outcome = d.chunk.reason?.kind;
  }

  private snapshot(cut: RequestCut, event: LogEvent, state: SurfaceState, ctx: SurfaceContext): void {
    this.checkPendingToolUpdate();
    const ledger = this.ledger;
    const header = this.header;
    // A gap in what the log lets the app show, not a broken log: a warning (docs/diagnostics.md).
    if (!header) this.findings.push(finding('request.no-header', `the model call at seq ${cut.seq} has no earlier request/header: its provider, model, tools and config cannot be shown`, cut.seq));
    const system = this.systemAt(header);
    if (system.where === 'messages' && system.activeSystemMessages > 1 && this.route?.systemPromptUpdate !== 'in-history') {
      this.findings.push(finding('request.system-multiple', `the model call at seq ${cut.seq} has ${system.activeSystemMessages} non-empty system messages on a route that is not in-history`, cut.seq));
    }
    const toolHistory = this.read.dialect === 'v4' ? this.tools.snapshot() : undefined;
    if (toolHistory?.fallback) this.findings.push(finding('request.tool-history-fallback', `the model call at seq ${cut.seq} falls back to current tools only`, cut.seq));
    const input: PrefixInput = {
      config: header?.config ?? null,
      system: system.where === 'header' ? system.text : null,
      head: this.heads.of(header?.system, header?.tools),
      messageCount: ledger.messageCount,
      messageBytes: ledger.totalMessageBytes,
    };
    const index = this.requests.length;
    const prev = this.prevInput;
    const kept = prev ? ledger.keptSinceMark(ctx.eventAt, prev.messageCount) : { keptMessages: 0, keptMessageBytes: 0, firstDifference: null };
    const prefix = analyzePrefix(index > 0 ? index - 1 : null, prev, input, this.changes, kept);
    ledger.mark();
    const names = this.toolNamesOf(header);
    const request = new ModelCall({
      index, cut: cut.seq, turn: cut.turn, step: cut.step, attempt: cut.attempt, cutKind: cut.kind,
      messageCount: input.messageCount, header, headerSeq: this.headerSeq, system,
      tools: this.toolsOf(names), toolHistory, route: this.route,
      replaceGeneration: state.replaceGeneration, contentGeneration: state.contentGeneration, prefix,
    });
    if (cut.kind !== 'chunk') {
      const usage = event.data?.usage ?? usageOfStream(event.data?.stream);
      if (usage) request.usage = usage;
      const outcome = finishOfStream(event.data?.stream) ?? (event.data?.interrupted ? 'interrupted' : undefined);
      if (outcome) request.outcome = outcome;
    } else {
      this.streaming.set(stepKey(cut.turn, cut.step), index);
    }
    this.requests.push(request);
    this.prevInput = input;
    this.changes = noChanges();
    this.seen = state.nodes.length;
  }

  /** Tool names of a header, once per header (every call under it shares the list). */
  private namesCache: { header: RequestHeader | null; names: string[] | null } | null = null;
  private toolNamesOf(header: RequestHeader | null): string[] | null {
    if (this.namesCache?.header !== header) {
      const names = toolNames(header?.tools);
      // Headers logged at every step repeat the same tools: keep one list while the names do not change.
      const last = this.namesCache?.names;
      const same = names && last && names.length === last.length && names.every((n, i) => n === last[i]);
      this.namesCache = { header, names: same ? last : names };
    }
    return this.namesCache.names;
  }

  /** The serialized system + tools, once per distinct pair (it changes rarely; calls are many). */
  private readonly heads = new HeadCache();

  private systemAt(header: RequestHeader | null): RequestSystemPrompt {
    const active = this.ledger.systemRoleCount;
    if (!this.newest || header?.system !== undefined) {
      const text = header ? header.system ?? '' : null;
      return this.sameSystem(text, 'header', this.headerSeq, active);
    }
    const latest = latestSystemNode(this.ledger.systemNodes());
    return this.sameSystem(latest ? latest.text : null, 'messages', latest?.seq ?? null, active);
  }

  /** The previous call's prompt object when nothing about it changed (calls are many, prompts few). */
  private lastSystem: RequestSystemPrompt | null = null;
  private sameSystem(text: RequestSystemPrompt['text'], where: RequestSystemPrompt['where'], seq: number | null, active: number): RequestSystemPrompt {
    const last = this.lastSystem;
    if (last && last.text === text && last.where === where && last.seq === seq && last.activeSystemMessages === active) return last;
    return (this.lastSystem = { text, where, seq, scrubbed: isScrubbed(text), activeSystemMessages: active });
  }

  /** The previous call's tools object while its names are the same list (toolNamesOf keeps one per run of equal names). */
  private lastTools: ModelRequest['tools'] | null = null;
  private toolsOf(names: string[] | null): ModelRequest['tools'] {
    const list = names ?? NO_NAMES;
    if (this.lastTools?.names === list && this.lastTools.scrubbed === (names === null)) return this.lastTools;
    return (this.lastTools = { names: list, scrubbed: names === null });
  }
}

function pickRoute(d: any): Omit<RouteContext, 'seq'> {
  const out: Omit<RouteContext, 'seq'> = {};
  if (typeof d?.provider === 'string') out.provider = d.provider;
  if (typeof d?.model === 'string') out.model = d.model;
  if (typeof d?.contextWindow === 'number') out.contextWindow = d.contextWindow;
  if (typeof d?.systemPromptUpdate === 'string') out.systemPromptUpdate = d.systemPromptUpdate;
  return out;
}

/** Whether two tool name lists hold the same names, repeats aside. */
function sameNames(a: readonly string[], b: readonly string[]): boolean {
  const inA = new Set(a);
  const inB = new Set(b);
  return inA.size === inB.size && [...inA].every((n) => inB.has(n));
}
