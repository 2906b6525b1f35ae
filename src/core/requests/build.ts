import type { LogEvent, LogMeta } from '../log/types.ts';
import { deriveMessages } from '../messages/derive.ts';
import { runMember, type PackedRun } from '../log/packed-rows.ts';
import type { Message } from '../messages/types.ts';
import type { SurfaceState } from '../surface/types.ts';
import { systemNodes } from '../prompt/system-nodes.ts';
import type { SessionFold } from '../session/fold-session.ts';
import { CutDetector, cutModeOf, type CutMode, type RequestCut } from './cuts.ts';
import { finding, type PromptFinding } from './findings.ts';
import { requestHash } from './hash.ts';
import { canonicalHeader, headerEquals, isScrubbed, toolNames, type LlmCallConfig, type RequestHeader } from './header.ts';
import { PrefixAnalyzer, serializeHead, type ChangesSince, type PrefixAnalysis, type PrefixInput } from './prefix.ts';
import { ToolHistoryFold, type ToolHistorySnapshot } from './tool-history.ts';
import { walkSurface, type SurfaceVisitor } from '../surface/walk.ts';

/**
 * Every model call of a log, rebuilt from the log alone
 * (prompt-and-requests.md §7–8): one entry per attempt with the exact loop
 * request (layer A) and the prefix analysis against the previous call.
 * One fold of the surface; each cut snapshots its derived messages.
 */

/** `request/context` in force at the cut (§6.3). */
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

/** The frozen request the loop handed to `llm.stream` (layer A, exact, §8.1 step 7 / §8.2 step 5). */
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
  /** A fixture scrub token such as `{{system}}`, not prompt text (§3.2). */
  scrubbed: boolean;
  /** Non-empty system messages in `messages` (newest). */
  activeSystemMessages: number;
}

export interface ModelRequest {
  index: number;
  /** rc.8: seq of the attempt's first chunk; V2+: seq of the settlement (§8). */
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
  /** Exact: determined by the log (§8 layer A). */
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
}

const COMPACTION_SOURCES = new Set(['compact-checkpoint', 'compact-basic']);
const COMPACTION_PLUGINS = new Set(['compact', 'dsh-compaction-basic']);

function isCompactionMessage(message: any): boolean {
  const s = message?.source;
  return COMPACTION_SOURCES.has(s?.kind) || (s?.kind === 'plugin' && COMPACTION_PLUGINS.has(s?.plugin));
}

function usageOfStream(stream: unknown): Usage | undefined {
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

/** Builds the request list of a folded session in one pass. */
export function buildRequests(session: SessionFold): RequestList {
  const builder = new RequestBuilder(session.read, cutModeOf(session.read.header, session.events));
  walkSurface(session.events, session.read.dialect, [builder], session.eventAt);
  return builder.finish();
}

/** The request builder as a surface visitor, so other analyses can share the walk. */
export class RequestBuilder implements SurfaceVisitor {
  readonly mode: CutMode;
  private readonly detector: CutDetector;
  private readonly requests: ModelRequest[] = [];
  private readonly findings: PromptFinding[] = [];
  private readonly tools = new ToolHistoryFold();
  private readonly sessionId: string | undefined;
  private readonly newest: boolean;
  private header: RequestHeader | null = null;
  private headerSeq: number | null = null;
  private route: RouteContext | null = null;
  private changes = noChanges();
  private inCompaction = false;
  private prevInput: PrefixInput | null = null;
  /** Serialized messages, cached for the walk only: dropped when the list is finished. */
  private prefixes = new PrefixAnalyzer();
  /** rc.8: (turn:step) → index of the attempt whose chunks are streaming. */
  private readonly streaming = new Map<string, number>();
  /** V4: the last header logged with changed tool names, awaiting its developer/message. */
  private pendingToolUpdate: { seq: number } | null = null;

  constructor(private readonly read: LogMeta, mode: CutMode) {
    this.mode = mode;
    this.detector = new CutDetector(this.mode);
    this.sessionId = read.header?.id;
    this.newest = read.dialect !== 'v0';
  }

  before(event: LogEvent, state: import('../surface/types.ts').SurfaceState, ctx: import('../surface/types.ts').SurfaceContext): void {
    const cut = this.detector.next(event);
    if (cut) this.snapshot(cut, event, state, ctx);
  }

  /**
   * A packed run of chunk deltas: only its first member can start a model
   * call (a delta is never a finish, so later members cut nothing), and
   * deltas carry no usage or finish for the attempt.
   */
  run(run: PackedRun, state: import('../surface/types.ts').SurfaceState, ctx: import('../surface/types.ts').SurfaceContext): void {
    const first = runMember(run, 0);
    this.before(first, state, ctx);
  }

  after(event: LogEvent, _state: unknown, plan: import('../surface/types.ts').SurfacePlan): void {
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
      if (event.type === 'system/message') this.changes.systemMessage = true;
      else if (this.inCompaction || isCompactionMessage(event.type === 'user/message' ? d : d?.message)) this.changes.compactionReplace = true;
      else this.changes.otherReplace = true;
    } else if (plan.kind === 'project') {
      this.changes.projection = true;
    } else if (plan.kind === 'append' && event.type === 'system/message') {
      this.changes.systemMessage = true;
    }
  }

  finish(): RequestList {
    this.prefixes = new PrefixAnalyzer();
    this.prevInput = null;
    this.checkPendingToolUpdate();
    for (const s of this.detector.unsettled()) {
      this.findings.push(finding('request.step-unsettled', `step ${String(s.turn)}.${String(s.step)} (step/start at seq ${s.seq}) has no later assistant settlement: its model call was interrupted or never made, so no request is rebuilt for it`, s.seq));
    }
    // Cached-token counts sit beside the prefix analysis they explain.
    for (const r of this.requests) {
      if (typeof r.usage?.cacheReadTokens === 'number') r.prefix.cacheReadTokens = r.usage.cacheReadTokens;
      if (typeof r.usage?.inputTokens === 'number') r.prefix.inputTokens = r.usage.inputTokens;
    }
    for (const p of this.tools.problems) this.findings.push(finding('request.tool-update-stale', p.message, p.seq));
    return { mode: this.mode, requests: this.requests, findings: this.findings };
  }

  private onHeader(event: LogEvent): void {
    const raw = event.data?.header ?? {};
    const canonical = canonicalHeader(raw);
    const reason = event.data?.reason;
    const seq = event.seq;
    if (this.newest && raw.system !== undefined) this.findings.push(finding('request.header-system', `request/header at seq ${seq} carries system in a format-${this.read.version} log`, seq));
    if ((Array.isArray(raw.tools) && raw.tools.length === 0) || (raw.adapterDefaults !== undefined && canonical.adapterDefaults === undefined)) {
      this.findings.push(finding('request.header-noncanonical', `request/header at seq ${seq} is not canonical (empty tools or adapterDefaults without a true flag)`, seq));
    }
    if (reason === 'initial' && this.header) this.findings.push(finding('request.header-reason', `request/header at seq ${seq} is "initial" after an earlier header (seq ${this.headerSeq})`, seq));
    if (reason === 'resume' && !this.header) this.findings.push(finding('request.header-reason', `request/header at seq ${seq} is "resume" with no earlier header`, seq));
    // Scrubbed fixtures hide the real difference behind equal tokens (§3.2, §10).
    const scrubbed = isScrubbed(canonical.system) || isScrubbed(canonical.tools);
    if (reason === 'change' && this.header && !scrubbed && headerEquals(this.header, canonical)) {
      this.findings.push(finding('request.header-reason', `request/header at seq ${seq} is "change" but equals the previous header (seq ${this.headerSeq})`, seq));
    }
    if (reason === 'series' || event.data?.startsSeries === true) this.changes.series = true;
    if (this.read.dialect === 'v4' && this.header && reason !== 'series') {
      const before = toolNames(this.header.tools);
      const after = toolNames(canonical.tools);
      const changed = before && after && (before.length !== after.length || before.some((n) => !after.includes(n)) || after.some((n) => !before.includes(n)));
      this.checkPendingToolUpdate();
      if (changed) this.pendingToolUpdate = { seq };
    }
    this.tools.apply(event);
    this.header = canonical;
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
    const index = this.streaming.get(`${d?.turn}:${d?.step}`);
    if (index === undefined) return;
    const request = this.requests[index];
    if (d?.chunk?.type === 'usage') request.usage = d.chunk.usage;
    if (d?.chunk?.type === 'finish') request.outcome = d.chunk.reason?.kind;
  }

  private snapshot(cut: RequestCut, event: LogEvent, state: import('../surface/types.ts').SurfaceState, ctx: import('../surface/types.ts').SurfaceContext): void {
    this.checkPendingToolUpdate();
    const messages = deriveMessages(state, ctx.eventAt);
    const header = this.header;
    // A gap in what the log lets the app show, not a broken log: a warning (issue #16).
    if (!header) this.findings.push(finding('request.no-header', `the model call at seq ${cut.seq} has no earlier request/header: its provider, model, tools and config cannot be shown`, cut.seq));
    const system = this.systemAt(header, messages, state, ctx);
    if (system.where === 'messages' && system.activeSystemMessages > 1 && this.route?.systemPromptUpdate !== 'in-history') {
      this.findings.push(finding('request.system-multiple', `the model call at seq ${cut.seq} has ${system.activeSystemMessages} non-empty system messages on a route that is not in-history`, cut.seq));
    }
    const toolHistory = this.read.dialect === 'v4' ? this.tools.snapshot() : undefined;
    if (toolHistory?.fallback) this.findings.push(finding('request.tool-history-fallback', `the model call at seq ${cut.seq} falls back to current tools only`, cut.seq));
    const loopRequest: LoopRequest = { ...(header?.config ?? {}), messages, sessionId: this.sessionId };
    if (header?.system !== undefined) loopRequest.system = header.system;
    if (toolHistory) loopRequest.toolHistory = { tools: toolHistory.tools, updates: toolHistory.updates };
    if (header?.tools !== undefined) loopRequest.tools = header.tools;
    const input: PrefixInput = {
      config: header?.config ?? null,
      system: system.where === 'header' ? system.text : null,
      tools: header?.tools ?? null,
      messages,
      head: this.headOf(header),
    };
    const index = this.requests.length;
    const prefix = this.prefixes.analyze(index > 0 ? index - 1 : null, this.prevInput, input, this.changes);
    const names = this.toolNamesOf(header);
    const request: ModelRequest = {
      index,
      cut: cut.seq,
      turn: cut.turn,
      step: cut.step,
      attempt: cut.attempt,
      cutKind: cut.kind,
      messageCount: messages.length,
      messages,
      header,
      headerSeq: this.headerSeq,
      config: header?.config ?? null,
      system,
      tools: { names: names ?? NO_NAMES, scrubbed: names === null },
      route: this.route,
      loopRequest,
      exactness: 'exact',
      hash: '',
      replaceGeneration: state.replaceGeneration,
      contentGeneration: state.contentGeneration,
      prefix,
    };
    if (toolHistory) request.toolHistory = toolHistory;
    // The hash walks the whole request (tools included): computed when first read, not for every call at load.
    let hash: string | undefined;
    Object.defineProperty(request, 'hash', { enumerable: true, configurable: true, get: () => (hash ??= requestHash(loopRequest)) });
    // The messages are the surface's at the cut: kept as node seqs (and projections) and derived
    // again from the log when read, so the list of calls does not hold every message ever sent.
    const view = this.surfaceView(state);
    const eventAt = ctx.eventAt;
    const derive = () => deriveMessages(view, eventAt);
    Object.defineProperty(request, 'messages', { enumerable: true, configurable: true, get: derive });
    Object.defineProperty(loopRequest, 'messages', { enumerable: true, configurable: true, get: derive });
    if (cut.kind !== 'chunk') {
      const usage = event.data?.usage ?? usageOfStream(event.data?.stream);
      if (usage) request.usage = usage;
      const outcome = finishOfStream(event.data?.stream) ?? (event.data?.interrupted ? 'interrupted' : undefined);
      if (outcome) request.outcome = outcome;
    } else {
      this.streaming.set(`${cut.turn}:${cut.step}`, index);
    }
    this.requests.push(request);
    this.prevInput = input;
    this.changes = noChanges();
  }

  /** The nodes at a cut, and the projections then (shared while no projection or replace happened). */
  private projectedAt: { generation: number; size: number; map: ReadonlyMap<number, Message> } | null = null;
  private surfaceView(state: SurfaceState): { nodes: Float64Array; projected: SurfaceState['projected'] } {
    const p = this.projectedAt;
    if (!p || p.generation !== state.contentGeneration || p.size !== state.projected.size) {
      this.projectedAt = { generation: state.contentGeneration, size: state.projected.size, map: state.projected.size ? new Map(state.projected) : new Map() };
    }
    return { nodes: this.nodesAt(state.nodes), projected: this.projectedAt!.map as Map<number, Message> };
  }

  /**
   * The node seqs at a call, as a view of one buffer shared by every call
   * whose surface only grew since the previous one (the common case between
   * compactions): thousands of calls cost one list per series, not one each.
   */
  private nodeBuffer = new Float64Array(0);
  private nodeCount = 0;
  private nodesAt(nodes: readonly number[]): Float64Array {
    let same = this.nodeCount <= nodes.length;
    for (let i = 0; same && i < this.nodeCount; i++) same = this.nodeBuffer[i] === nodes[i];
    if (!same) this.nodeCount = 0;
    if (!same || nodes.length > this.nodeBuffer.length) {
      // A new buffer: earlier calls keep their views of the old one.
      const next = new Float64Array(Math.max(16, nodes.length * 2));
      next.set(this.nodeBuffer.subarray(0, this.nodeCount));
      this.nodeBuffer = next;
    }
    for (let i = this.nodeCount; i < nodes.length; i++) this.nodeBuffer[i] = nodes[i];
    this.nodeCount = nodes.length;
    return this.nodeBuffer.subarray(0, nodes.length);
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

  /** The serialized system + tools, once per header (it changes rarely; calls are many). */
  private headCache: { header: RequestHeader | null; head: string } | null = null;
  private headOf(header: RequestHeader | null): string {
    if (this.headCache?.header !== header) this.headCache = { header, head: serializeHead(header?.system, header?.tools) };
    return this.headCache.head;
  }

  private systemAt(header: RequestHeader | null, messages: readonly Message[], state: import('../surface/types.ts').SurfaceState, ctx: import('../surface/types.ts').SurfaceContext): RequestSystemPrompt {
    const active = messages.filter((m) => m.role === 'system').length;
    if (!this.newest || header?.system !== undefined) {
      const text = header ? header.system ?? '' : null;
      return { text, where: 'header', seq: this.headerSeq, scrubbed: isScrubbed(text), activeSystemMessages: active };
    }
    const nodes = systemNodes(state, ctx);
    const latest = nodes.latest;
    const text = latest ? latest.text : null;
    return { text, where: 'messages', seq: latest?.seq ?? null, scrubbed: isScrubbed(text), activeSystemMessages: active };
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
