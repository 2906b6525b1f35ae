import { compareRuns, type CompareReport } from '../core/compare/compare.ts';
import { explainPair } from '../core/compare/explain.ts';
import { compareRunOf, unreadableRun, type CompareRun } from '../core/compare/run.ts';
import { buildTrails, type TrailBuild } from '../core/compare/trail.ts';
import { compareContexts, compareUnits, contentKey, KeyTable, pairedRow, pairKeys, type PairedRows, type UnitAtCursor } from '../core/compare/side-by-side.ts';
import type { LogEvent } from '../core/log/types.ts';
import { deriveEventMessage } from '../core/messages/derive.ts';
import { eventPreview } from '../core/replay/preview.ts';
import { COMPARE_OPERATIONS, type CompareAnswers, type CompareAt, type CompareNodeView, type CompareRequest, type CompareSideAt, type CompareView, type RowExplanation } from './compare-protocol.ts';
import { LoadStopped } from '../core/log/load-stopped.ts';
import { answer, type Post } from './operation-table.ts';
import { Engine } from './engine.ts';
import type { OpenLog } from './open-log/open-log.ts';
import { clampWindow } from './services/window.ts';
import type { ListWindow, LoadProgress, LoadSource, LoadSummary } from './protocol.ts';

/** Paired-surface rows answered when none are asked for (the panel asks for the ones in view). */
const PAIRS_WINDOW: ListWindow = { from: 0, count: 200 };

/** The pairing at two cursors (see `pairedAt`). */
interface PairedAt {
  a: object; ia: number; b: object | null; ib: number;
  sa: SideNodes; sb: SideNodes | null; rows: PairedRows;
}

/** A node's view with its message id and content interned in `keys` (the table they were interned in). */
interface NodeEntry {
  view: CompareNodeView;
  /** Whether `view.preview` is made yet. */
  previewed: boolean;
  keys: KeyTable;
  id: number;
  content: number;
}

/** What a log's side keeps between answers. */
interface LogNodes {
  entries: Map<number, NodeEntry>;
  /** The last side made and the projections it was made with: the next one reuses their common start. */
  last: { side: SideNodes; seqs: readonly number[]; projected: ReadonlyMap<number, unknown>; keys: KeyTable } | null;
}

/** One side's surface at its cursor: every node (the pairing reads them all; an answer sends a window). */
interface SideNodes {
  index: number;
  seq: number;
  nodes: NodeEntry[];
  ids: Int32Array;
  contents: Int32Array;
  messageCount: number;
}

/**
 * The compare slot (docs/compare.md): a second engine holding log B beside the
 * app's engine (log A), and the queries that read both. It never touches
 * the single-log handlers: each side's log is loaded, folded and analysed
 * by an Engine exactly as when it is the only one open.
 */
export class CompareHost implements CompareAnswers {
  private slot: Engine | null = null;
  private failedB: string | null = null;
  private cached: { a: OpenLog['replay']; b: OpenLog['replay'] | null; failedB: string | null; names: { a: string; b: string }; runs: [CompareRun, CompareRun]; report: CompareReport } | null = null;
  private lastPaired: PairedAt | null = null;
  /** Per loaded log: node views by seq (a node's view depends only on its event unless projected), and its last side. */
  private readonly perLog = new WeakMap<object, LogNodes>();
  /** What B shares with A (sharesWithA), for the B it was said of. */
  private sharedB: { replay: OpenLog['replay']; before: number } | null = null;
  /** Each compared log's trails, by its calls (compareRuns reads them; A's are read again at every new B). */
  private readonly trails = new WeakMap<readonly unknown[], TrailBuild>();
  /** The keys both sides' nodes are interned in: new with each B, so it holds only the logs being compared. */
  private keys = new KeyTable();

  constructor(private readonly main: Engine) {}

  handle(req: CompareRequest, post: Post): Promise<void> {
    return answer(COMPARE_OPERATIONS, this as CompareAnswers, req, post, {
      failure: (err) => (err instanceof LoadStopped ? { finding: err.finding } : {}),
      extra: () => this.lost(),
    });
  }

  /** Loads B into a fresh engine: a failed load must not leave the previous B behind. */
  async load(source: LoadSource, onProgress: (p: LoadProgress) => void): Promise<LoadSummary> {
    this.slot?.cancel();
    // B's load folds its projection units on the main engine's helper too: A is loaded by then.
    const slot = new Engine({ projector: this.main.helper() ?? undefined });
    this.slot = slot;
    this.failedB = null;
    this.sharedB = null;
    this.lastPaired = null;
    this.keys = new KeyTable();
    try {
      return await slot.loadForPage(source, undefined, false, onProgress);
    } catch (err) {
      // A load dropped or replaced meanwhile says nothing about the current B.
      if (this.slot === slot) this.failedB = (err instanceof Error ? err.message : String(err)) || 'could not be loaded';
      throw err;
    }
  }

  /** A's open log: the app's (null while none is open). */
  openA(): OpenLog | null {
    return this.main.current();
  }

  /** Whether B's loads fold projection units on a helper (which is handed a file). */
  helped(): boolean {
    return this.main.helper() !== null;
  }

  /** B's open log (null while none is loaded). */
  openB(): OpenLog | null {
    return this.slot?.current() ?? null;
  }

  drop(): null {
    this.slot?.cancel();
    this.slot = null;
    this.failedB = null;
    this.sharedB = null;
    this.cached = null;
    this.lastPaired = null;
    return null;
  }

  /** Either side's file lost on disk (its lines can no longer be read back), said as the main log's answers say it. */
  private lost(): { lost?: string } {
    const main = this.main.takeLost();
    return 'lost' in main ? main : this.slot?.takeLost() ?? {};
  }

  private sides(): { a: OpenLog; b: OpenLog | null } {
    const a = this.main.current();
    if (!a) throw new Error('no log open to compare');
    const b = this.slot?.current() ?? null;
    if (!b && this.failedB === null) throw new Error('no second log loaded to compare with');
    return { a, b };
  }

  /** The alignment and its differences, made once per pair of loaded logs. */
  compare(names: { a: string; b: string }): CompareView {
    const { a, b } = this.sides();
    const c = this.cached;
    if (!c || c.a !== a.replay || c.b !== (b?.replay ?? null) || c.failedB !== this.failedB || c.names.a !== names.a || c.names.b !== names.b) {
      const runA = compareRunOf(names.a, a.replay, a.prompts.requests.requests, a.turnOutcomes);
      const runB = b ? compareRunOf(names.b, b.replay, b.prompts.requests.requests, b.turnOutcomes) : unreadableRun(names.b, this.failedB ?? 'not loaded');
      const trailsA = this.trailsOf(runA);
      // A what-if's B holds A's events before its first edit: its first calls' trails are A's.
      const trailsB = buildTrails(runB, b && this.sharedB?.replay === b.replay ? { run: runA, from: trailsA, before: this.sharedB.before } : undefined);
      this.cached = { a: a.replay, b: b?.replay ?? null, failedB: this.failedB, names, runs: [runA, runB], report: compareRuns(runA, runB, { a: trailsA, b: trailsB }) };
    }
    return { report: this.cached!.report, failedB: this.failedB };
  }

  /**
   * B, just loaded, holds A's events before `before` at the same seqs (a
   * what-if's edited log): comparing them reads B's calls from there on.
   */
  sharesWithA(before: number): void {
    const b = this.openB();
    this.sharedB = b ? { replay: b.replay, before } : null;
  }

  /** A run's trails, built once per list of calls (A's stay while B changes: what-if after what-if). */
  private trailsOf(run: CompareRun): TrailBuild {
    const kept = this.trails.get(run.requests);
    if (kept && kept.trails.length === run.requests.length) return kept;
    const built = buildTrails(run);
    this.trails.set(run.requests, built);
    return built;
  }

  /** One aligned pair explained; its messages are derived here (one seek per side), for this pair only. */
  explain(row: number): RowExplanation {
    const c = this.cached;
    if (!c) throw new Error('compare first');
    const r = c.report.rows[row];
    if (!r) throw new Error(`no aligned row ${row}`);
    if (r.status !== 'differs' || r.a === null || r.b === null) return { row, explanation: null };
    return { row, explanation: explainPair(c.runs[0].requests[r.a], c.runs[1].requests[r.b], r.kinds ?? []) };
  }

  /** The side-by-side panels at event `ia` of A and `ib` of B, with the paired-surface rows in `window`. */
  at(ia: number, ib: number, window: ListWindow = PAIRS_WINDOW): CompareAt {
    const { a, b } = this.sides();
    const { sa, sb, rows } = this.pairedAt(a, ia, b, ib);
    const w = clampWindow(window, rows.length);
    const pairs = [];
    for (let r = w.from; r < w.from + w.count; r++) {
      const p = pairedRow(rows, r);
      pairs.push({ ...p, na: p.a === null ? null : shown(a, sa.nodes[p.a]), nb: p.b === null || !b ? null : shown(b, sb!.nodes[p.b]) });
    }
    const units = (log: OpenLog, seq: number): UnitAtCursor[] => log.units.projectionsAt(seq).map((p) => ({ key: p.key, view: p.view, observedSeq: p.observedSeq, failure: p.failure ? { seq: p.failure.seq, message: p.failure.message, kind: p.failure.kind } : null }));
    const context = (log: OpenLog, seq: number) => {
      const at = log.prompts.runtimeContext.effectiveAt(seq);
      const entry = at === null ? undefined : log.prompts.runtimeContext.snapshot(at);
      return entry ? { seq: entry.seq, snapshot: entry } : null;
    };
    const summary = (side: SideNodes): CompareSideAt => ({ index: side.index, seq: side.seq, nodeCount: side.nodes.length, messageCount: side.messageCount });
    return {
      a: summary(sa),
      b: sb && summary(sb),
      surface: { count: rows.length, same: rows.same, from: w.from, pairs },
      projections: compareUnits(units(a, sa.seq), b && sb ? units(b, sb.seq) : []),
      context: compareContexts(context(a, sa.seq), b && sb ? context(b, sb.seq) : null),
    };
  }

  /**
   * Both sides' nodes and their pairing at two cursors, kept for the last
   * pair of cursors: scrolling the paired list asks other windows at the same
   * cursors, and pairing two long surfaces is the costly part of an answer.
   */
  private pairedAt(a: OpenLog, ia: number, b: OpenLog | null, ib: number): PairedAt {
    const last = this.lastPaired;
    if (last && last.a === a.replay && last.ia === ia && last.b === (b?.replay ?? null) && last.ib === ib) return last;
    const sa = this.sideAt(a, ia);
    const sb = b ? this.sideAt(b, ib) : null;
    const none = { ids: new Int32Array(0), contents: new Int32Array(0) };
    const rows = pairKeys(sa, sb ?? none, this.keys.size);
    this.lastPaired = { a: a.replay, ia, b: b?.replay ?? null, ib, sa, sb, rows };
    return this.lastPaired;
  }

  /**
   * One side at event `index`. A cursor step changes a long surface at its
   * end (or where a replace lands): the nodes the last side shares from the
   * start are taken from it, and only the rest is looked up.
   */
  private sideAt(log: OpenLog, index: number): SideNodes {
    const { replay } = log;
    const { session } = replay;
    const i = Math.max(0, Math.min(index, session.events.length - 1));
    const { state } = replay.surfaceAt(i);
    let cache = this.perLog.get(replay);
    if (!cache) { cache = { entries: new Map(), last: null }; this.perLog.set(replay, cache); }
    const { entries } = cache;
    const keys = this.keys;
    const seqs = state.nodes;
    const n = seqs.length;
    const ids = new Int32Array(n);
    const contents = new Int32Array(n);
    const shared = cache.last?.keys === keys ? sharedStart(cache.last, state) : 0;
    const nodes: NodeEntry[] = shared > 0 ? cache.last!.side.nodes.slice(0, shared) : [];
    let messages = 0;
    if (shared > 0) {
      const prev = cache.last!.side;
      ids.set(prev.ids.subarray(0, shared));
      contents.set(prev.contents.subarray(0, shared));
      // The shared start's messages: the last side's, less those of its own tail.
      messages = prev.messageCount;
      for (let k = shared; k < prev.contents.length; k++) if (prev.contents[k] >= 0) messages--;
    }
    for (let k = shared; k < n; k++) {
      const seq = seqs[k];
      const projected = state.projected.has(seq);
      let entry = projected ? undefined : entries.get(seq);
      if (!entry) {
        const event = session.eventAt(seq) as LogEvent;
        const message = deriveEventMessage(event, state.projected);
        const view: CompareNodeView = {
          // The preview is made when the node's row is sent (see `shown`): the pairing reads every node, an answer shows a screen.
          seq, index: replay.indexOfSeq(seq), type: event.type, role: message?.role ?? null, preview: '',
          messageId: typeof message?.id === 'string' ? message.id : null, content: contentKey(message), projected,
        };
        entry = { view, previewed: false, keys, id: keys.of(view.messageId), content: keys.of(view.content) };
        if (!projected) entries.set(seq, entry);
      } else if (entry.keys !== keys) {
        // Interned for an earlier B: the same strings again in this comparison's table.
        entry.keys = keys;
        entry.id = keys.of(entry.view.messageId);
        entry.content = keys.of(entry.view.content);
      }
      ids[k] = entry.id;
      contents[k] = entry.content;
      if (entry.content >= 0) messages++;
      nodes.push(entry);
    }
    const side = { index: i, seq: session.events.at(i)?.seq ?? -1, nodes, ids, contents, messageCount: messages };
    cache.last = { side, seqs, projected: state.projected, keys };
    return side;
  }
}

/** A node's view as a row sends it, with its preview (made once, from its event). */
function shown(log: OpenLog, entry: NodeEntry): CompareNodeView {
  if (!entry.previewed) {
    const event = log.replay.session.eventAt(entry.view.seq);
    entry.view.preview = event ? eventPreview(event) : '';
    entry.previewed = true;
  }
  return entry.view;
}

/**
 * How many nodes from the start two surfaces share with the same view: the
 * same seq, and the same projected message or none on both (an unchanged
 * projection is the same object; anything else is looked up again).
 */
function sharedStart(last: { seqs: readonly number[]; projected: ReadonlyMap<number, unknown> }, state: { nodes: readonly number[]; projected: ReadonlyMap<number, unknown> }): number {
  const a = last.seqs;
  const b = state.nodes;
  const n = Math.min(a.length, b.length);
  let k = 0;
  // A node projected on either side only (a cursor moved back before its projection) differs too.
  while (k < n && a[k] === b[k] && state.projected.get(b[k]) === last.projected.get(b[k])) k++;
  return k;
}
