import type { EventStore } from '../../core/log/event-store.ts';
import type { LogEvent } from '../../core/log/types.ts';
import { estimateMessage } from '../../core/messages/estimate.ts';
import { deriveEventMessage } from '../../core/messages/derive.ts';
import type { Message } from '../../core/messages/types.ts';
import { eventPreview } from '../../core/replay/preview.ts';
import type { NavKind, Replay } from '../../core/replay/replay-index.ts';
import type { PromptAnalysis } from '../../core/requests/analyze.ts';
import type { Replacement, SurfaceState } from '../../core/surface/types.ts';
import { countAtOrBelow } from '../../core/util/sorted.ts';
import type { CursorQuery, CursorState, ListWindow, MessagesAtCursor, SurfaceNodeView, SurfaceSpan } from '../protocol.ts';
import { clampWindow } from './window.ts';

/** Silent nodes (no message) a messages window looks up one by one; past this many it walks the surface. */
export const SILENT_LOOKUPS = 16;
/** Surface node views kept for the cursor (a few screens' worth many times over). */
const NODE_VIEWS_MAX = 20_000;
const NO_EVENTS: ReadonlySet<number> = new Set();

/** Where a transcript entry stands on the surface at the cursor. */
export interface TranscriptEntryAt {
  seq: number;
  status: 'on-surface' | 'shadowed' | 'not-a-node';
  shadowedBy: number | null;
}

/**
 * The surface at the cursor, as much of it as a panel shows: a seek from
 * the nearest checkpoint, then views of the window's nodes only (kept per
 * seq, so a step parses just the nodes that came into view). Counts come
 * from the load's per-change totals, never from a walk of the nodes.
 */
export class CursorService {
  /** One-line previews by seq: a node's text does not change (projections are marked separately). */
  private readonly previews = new Map<number, string>();
  /** Surface node views by seq (not projected ones), filled as cursors visit them. */
  private readonly nodeViews = new Map<number, SurfaceNodeView>();
  /**
   * The last cursor's surface, read-only: the panels in view ask for the same cursor one after
   * another (state, messages), and a seek at the end of a long surface lists every node again.
   */
  private last: { index: number; at: ReturnType<Replay['surfaceAt']> } | null = null;
  /** Every replace of the log by its replacing node's seq (a span is drawn where that node is). */
  private readonly replacementBySeq: ReadonlyMap<number, Replacement>;
  /** Event indexes of append-origin surface events (the transcript), in log order. */
  private readonly appendIndexes: Uint32Array;
  private withFindings: ReadonlySet<number> | null = null;

  constructor(private readonly replay: Replay<EventStore>, private readonly prompts: PromptAnalysis) {
    this.replacementBySeq = new Map(replay.session.surface.replacements.map((r) => [r.seq, r]));
    this.appendIndexes = replay.index.appendIndexes;
  }

  /** The surface at event `index` for answers that only read it. */
  surfaceAt(index: number): ReturnType<Replay['surfaceAt']> {
    if (this.last?.index === index) return this.last.at;
    const at = this.replay.surfaceAt(index);
    this.last = { index, at };
    return at;
  }

  state(query: CursorQuery): CursorState {
    const { session } = this.replay;
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
    const totals = this.prompts.surfaceTotals.at(seq) ?? this.countNodes(state);
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
      ...this.transcriptAt(index, state, query.transcript ?? null),
    };
  }

  /** The shadowed nodes of the replace at `seq`, as the cursor at `index` sees them (a big span, opened). */
  span(index: number, seq: number): SurfaceNodeView[] {
    const r = this.replacementBySeq.get(seq);
    if (!r) throw new Error(`no replace at seq ${seq}`);
    const { state } = this.surfaceAt(index);
    return r.shadowedSeqs.map((s) => this.nodeView(s, state));
  }

  /** A window of the model context at event `index`: the messages DSH would send, derived from the log. */
  messages(index: number, window: ListWindow): MessagesAtCursor {
    const { session } = this.replay;
    const { state } = this.surfaceAt(index);
    const seq = session.events.at(index)?.seq ?? -1;
    // The messages are the nodes that carry one (nearly all: the load noted the few that do not).
    const silent = this.prompts.surfaceTotals.silent;
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

  navigate(kind: NavKind, from: number, dir: 1 | -1): number | null {
    return this.replay.navigate(kind, from, dir, kind === 'diagnostic' ? this.findingEvents() : NO_EVENTS);
  }

  /** The events a finding points at by seq, found the first time a step by finding asks (not at every key press). */
  private findingEvents(): ReadonlySet<number> {
    if (this.withFindings) return this.withFindings;
    const at = new Set<number>();
    for (const d of this.replay.session.diagnostics) if (d.seq !== undefined) at.add(this.replay.indexOfSeq(d.seq));
    this.withFindings = at;
    return at;
  }

  /** How many transcript entries the log has up to event `index`. */
  transcriptCount(index: number): number {
    return countAtOrBelow(this.appendIndexes, index);
  }

  /** Transcript entries `from`…`from + n - 1`: each one's seq (from the seq table, no event parsed) and where it stands on `state`. */
  transcriptEntries(state: SurfaceState, from: number, n: number): TranscriptEntryAt[] {
    const replay = this.replay;
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

  /** The transcript's length at the cursor, and the window asked for (only when the panel shows it). */
  private transcriptAt(index: number, state: SurfaceState, window: ListWindow | null): Pick<CursorState, 'transcriptCount' | 'transcriptFrom' | 'transcript'> {
    const count = this.transcriptCount(index);
    if (!window) return { transcriptCount: count, transcriptFrom: 0, transcript: [] };
    const { from, count: n } = clampWindow(window, count);
    const transcript = this.transcriptEntries(state, from, n).map((t) => ({ ...this.nodeView(t.seq, state), status: t.status, shadowedBy: t.shadowedBy }));
    return { transcriptCount: count, transcriptFrom: from, transcript };
  }

  /** A node's view: it depends only on its event (unless a V4 projection rewrote it), so it is kept per seq. */
  private nodeView(seq: number, state: SurfaceState): SurfaceNodeView {
    const projected = state.projected.has(seq);
    let view = projected ? undefined : this.nodeViews.get(seq);
    if (!view) {
      const event = this.replay.session.eventAt(seq) as LogEvent;
      const message = deriveEventMessage(event, state.projected);
      view = { seq, index: this.replay.indexOfSeq(seq), type: event.type, role: message?.role ?? null, preview: this.preview(event), messageId: message?.id ?? null, hasMessage: message !== null, tokens: message ? safeEstimate(message) : 0, projected };
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

  private preview(event: LogEvent): string {
    let p = this.previews.get(event.seq);
    if (p === undefined) { p = eventPreview(event); this.previews.set(event.seq, p); }
    return p;
  }
}

/** Token estimate that never throws on a malformed message (the fold reports those). */
function safeEstimate(message: Message): number {
  try { return estimateMessage(message); } catch { return 0; }
}

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
