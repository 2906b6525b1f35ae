import type { EventList } from '../log/event-list.ts';
import type { PackedRun } from '../log/packed-rows.ts';
import { isAppendSurfaceEvent } from '../log/event-types.ts';
import type { Dialect, LogEvent } from '../log/types.ts';
import type { SessionFold } from '../session/fold-session.ts';
import { applySurfacePlan } from '../surface/apply.ts';
import { planSurfaceEvent } from '../surface/plan.ts';
import { emptySurface, type SurfaceContext, type SurfacePlan, type SurfaceState } from '../surface/types.ts';
import type { Message } from '../messages/types.ts';
import { NodeChunks, type NodeSnapshot } from './node-chunks.ts';
import { walkSurface, type SurfaceVisitor } from '../surface/walk.ts';
import { SeqTable } from './seq-table.ts';
import { timeColumnFor } from './time-column.ts';
import { closeFit, grownSize, grownTo as grown } from '../util/typed.ts';
import { FAMILIES, familyOf } from './families.ts';
import { navigate, SURFACE_CHANGE, type NavKind } from './navigate.ts';
import { countColumnFor, typeColumnFor, type CountColumn, type ReplayColumns, type SeqColumn, type TypeColumn } from './columns.ts';

export { SURFACE_CHANGE, type NavKind };
export { countColumnFor, type CountColumn, type ReplayColumns, type SeqColumn, type TypeColumn };
import { stepKey } from '../util/step-key.ts';

/**
 * The replay index (built during the load's one walk): typed per-event
 * columns for navigation and the timeline, plus surface checkpoints every K
 * events so `surfaceAt(seq)` is a checkpoint clone and at most K-1 forward
 * steps — the same plan/apply pair as the full fold, never a second copy of
 * a rule.
 */

export interface ReplayIndex {
  columns: ReplayColumns;
  typeNames: string[];
  families: readonly string[];
  /** At most this many events between checkpoints. */
  checkpointEvery: number;
  /** Event index of each checkpoint (the surface before that event), ascending; the first is 0. */
  checkpointAt: Uint32Array;
  /** Indexes of the events logged with `surfaceOp: "append"` (the transcript), ascending. */
  appendIndexes: Uint32Array;
  count: number;
  /** What the time column counts from (the first event's time; 0 before any). */
  timeBase: number;
}

/**
 * A checkpoint also closes once the surface-changing events since the last
 * one add up to this many bytes: a seek re-parses only those (unchanged
 * events are skipped), so this bounds its parse work on logs whose events
 * are large (embedded streams) as K bounds it on logs whose events are many.
 */
export const CHECKPOINT_BYTES = 256 * 1024;


type ColumnArray = ReplayColumns[keyof ReplayColumns];

export interface ReplayBuilderOptions {
  /** At most this many events between checkpoints (2048: the bench prints K = 256…16384). */
  checkpointEvery?: number;
  /** Expected event count (the columns grow past it). */
  capacity?: number;
  /** The size of event i's line, when known: checkpoints also close by changed bytes. */
  bytesOf?: (index: number) => number;
  checkpointBytes?: number;
  /** The final event count extrapolated from n so far (0 unknown): the columns grow once. */
  projected?: (count: number) => number;
  /** The log's dialect: which types are surface types, for the transcript's appends (default format 4's). */
  dialect?: Dialect;
}

/**
 * The surface before a checkpoint's event, kept compactly: the node list as
 * chunks shared with the checkpoints around it, the projections map shared
 * while no projection happened, and the replacements as a count of the
 * final surface's list (it only grows).
 */
export interface SurfaceCheckpoint {
  nodes: NodeSnapshot;
  nextSeq: number;
  replaceGeneration: number;
  contentGeneration: number;
  projected: ReadonlyMap<number, Message>;
  replacementCount: number;
}

/** Collects the columns and checkpoints as a visitor of the load's surface walk. */
export class ReplayBuilder implements SurfaceVisitor {
  /** A builder for a streaming load: line sizes and the projected count come from the store. */
  static forStore(store: { lineBytes(index: number): number; projectedCount(count: number): number }, options: ReplayBuilderOptions = {}): ReplayBuilder {
    return new ReplayBuilder({ bytesOf: (i) => store.lineBytes(i), projected: (n) => store.projectedCount(n), ...options });
  }

  private n = 0;
  private columns: ReplayColumns;
  private readonly typeIds = new Map<string, number>();
  private readonly typeNames: string[] = [];
  private readonly checkpoints: SurfaceCheckpoint[] = [];
  /** The walk's node list, mirrored plan by plan into chunks checkpoints share. */
  private readonly nodes = new NodeChunks();
  /** The projections map of the last checkpoint, shared by the next ones until a projection. */
  private checkpointProjections: { generation: number; map: ReadonlyMap<number, Message> } | null = null;
  private readonly checkpointAt: number[] = [];
  private lastCheckpoint = -Infinity;
  private changedBytes = 0;
  private turn = 0;
  private step = 0;
  private retryPending = false;
  private readonly stepsWithCall = new Set<string>();
  /** The (turn, step) of the last chunk: its next chunk cuts nothing unless a retry is pending. */
  private streamingTurn = NaN;
  private streamingStep = NaN;
  private appends = new Uint32Array(1024);
  private appendCount = 0;
  /** The first event's time, set when it is put: the time column holds each time after it. */
  private timeBase: number | null = null;

  readonly checkpointEvery: number;
  private readonly bytesOf: ((index: number) => number) | undefined;
  private readonly checkpointBytes: number;
  private readonly projected: ((count: number) => number) | undefined;
  private readonly dialect: Dialect;

  constructor(options: ReplayBuilderOptions = {}) {
    this.checkpointEvery = options.checkpointEvery ?? 2048;
    this.bytesOf = options.bytesOf;
    this.checkpointBytes = options.checkpointBytes ?? CHECKPOINT_BYTES;
    this.projected = options.projected;
    this.dialect = options.dialect ?? 'v4';
    const capacity = options.capacity ?? 1024;
    const c = Math.max(16, Math.ceil(capacity));
    this.columns = {
      seq: new Uint32Array(c), typeId: new Uint8Array(c), family: new Uint8Array(c),
      turn: new Uint16Array(c), step: new Uint16Array(c), time: new Int32Array(c),
      surfaceChange: new Uint8Array(c), requestCut: new Uint8Array(c), synthetic: new Uint8Array(c),
    };
  }

  before(_event: LogEvent, state: SurfaceState): void {
    if (this.due()) this.checkpoint(state, state.nextSeq);
  }

  /** K events since the last checkpoint, or enough changed bytes (but never closer than K/32: each one clones the surface). */
  private due(): boolean {
    const gap = this.n - this.lastCheckpoint;
    return gap >= this.checkpointEvery || (this.changedBytes >= this.checkpointBytes && gap >= Math.max(1, this.checkpointEvery >> 5));
  }

  private checkpoint(state: SurfaceState, nextSeq: number): void {
    if (this.checkpointProjections?.generation !== state.contentGeneration || this.checkpointProjections.map.size !== state.projected.size) {
      this.checkpointProjections = { generation: state.contentGeneration, map: new Map(state.projected) };
    }
    this.checkpoints.push({
      nodes: this.nodes.snapshot(),
      nextSeq,
      replaceGeneration: state.replaceGeneration,
      contentGeneration: state.contentGeneration,
      projected: this.checkpointProjections.map,
      replacementCount: state.replacements.length,
    });
    this.checkpointAt.push(this.n);
    this.lastCheckpoint = this.n;
    this.changedBytes = 0;
  }

  /** Family index per type id, made with the id. */
  private readonly familyOfType: number[] = [];
  private typeIdOf(type: string): number {
    let id = this.typeIds.get(type);
    if (id === undefined) {
      id = this.typeNames.length;
      this.typeIds.set(type, id);
      this.columns.typeId = typeColumnFor(this.columns.typeId, id);
      this.typeNames.push(type);
      this.familyOfType.push(FAMILIES.indexOf(familyOf(type)));
    }
    return id;
  }

  after(e: LogEvent, _state: SurfaceState, plan: SurfacePlan): void {
    if (plan.kind === 'append') this.nodes.append(plan.seq);
    else if (plan.kind === 'replace') this.nodes.replace(plan.startIndex, plan.endIndex, plan.seq);
    const d = e.data ?? {};
    if (e.type === 'turn/start') {
      this.turn = typeof d.turn === 'number' ? d.turn : this.turn + 1;
      this.step = 0;
      this.columns.turn = countColumnFor(this.columns.turn, this.turn);
    }
    if (e.type === 'step/start') {
      this.step = typeof d.step === 'number' ? d.step : this.step + 1;
      this.columns.step = countColumnFor(this.columns.step, this.step);
    }
    // Model-call cuts (corpus expected README): the first chunk of a (turn, step),
    // and again after a finish whose reason is error/aborted; V2+ settlements.
    let cut = false;
    if (e.type === 'assistant/chunk') {
      cut = this.chunkStartsCall();
      const reason = d.chunk?.type === 'finish' ? d.chunk.reason?.kind : undefined;
      if (reason === 'error' || reason === 'aborted') this.retryPending = true;
    } else if ((e.type === 'assistant/message' || e.type === 'assistant/attempt') && Array.isArray(d.stream)) {
      cut = true;
    }
    const typeId = this.typeIdOf(e.type);
    const i = this.put(e.seq, typeId, this.familyOfType[typeId], e.time, SURFACE_CHANGE[plan.kind], cut);
    // Appended by intent, whatever the fold made of it: a rejected append is still in the transcript.
    if (isAppendSurfaceEvent(e, this.dialect)) {
      if (this.appendCount === this.appends.length) this.appends = grown(this.appends, this.appendCount * 2);
      this.appends[this.appendCount++] = i;
    }
    if (this.bytesOf && plan.kind !== 'none' && plan.kind !== 'reject') this.changedBytes += this.bytesOf(i);
  }

  /** A packed run of chunk deltas: the same columns as `after` per member, in one loop. */
  run(run: PackedRun, state: SurfaceState): void {
    const id = this.typeIdOf('assistant/chunk');
    const family = this.familyOfType[id];
    // Only the first member can start a call: a delta is never a finish.
    const cut = this.chunkStartsCall();
    const count = run.pieces.length;
    for (let k = 0; k < count;) {
      if (this.due()) this.checkpoint(state, run.seq0 + k);
      const end = Math.min(count, k + this.untilDue());
      this.putMembers(run, k, end, id, family);
      k = end;
    }
    if (cut && count > 0) this.columns.requestCut[this.n - count] = 1;
  }

  /** Events that can be put before a checkpoint falls due, at least one (deltas change nothing, so `changedBytes` stays). */
  private untilDue(): number {
    const gap = this.n - this.lastCheckpoint;
    const limit = this.changedBytes >= this.checkpointBytes ? Math.max(1, this.checkpointEvery >> 5) : this.checkpointEvery;
    return Math.max(1, limit - gap);
  }

  /** `put` for members [from, to) of a run, in one pass per column: they share type, turn and step, and change nothing. */
  private putMembers(run: PackedRun, from: number, to: number, typeId: number, family: number): void {
    const count = to - from;
    while (this.n + count > this.columns.seq.length) this.grow();
    const lastSeq = run.seq0 + to - 1;
    if (lastSeq > 0xffffffff && this.columns.seq instanceof Uint32Array) this.columns.seq = Float64Array.from(this.columns.seq);
    const c = this.columns;
    const i0 = this.n;
    const i1 = i0 + count;
    c.typeId.fill(typeId, i0, i1);
    c.family.fill(family, i0, i1);
    c.turn.fill(this.turn, i0, i1);
    c.step.fill(this.step, i0, i1);
    c.surfaceChange.fill(SURFACE_CHANGE.none, i0, i1);
    c.requestCut.fill(0, i0, i1);
    const times = run.times;
    for (let k = from; k < to; k++) this.fitTime(times[k]);
    const { seq, time } = this.columns;
    const base = this.timeBase!;
    for (let k = from, i = i0; k < to; k++, i++) {
      seq[i] = run.seq0 + k;
      time[i] = times[k] - base;
    }
    this.n = i1;
  }

  /** Whether a chunk in the open (turn, step) starts a model call: the step's first, or the first after a failed attempt. */
  private chunkStartsCall(): boolean {
    // The step still streaming: compared as numbers, so a run of chunks makes no key string each.
    if (this.turn === this.streamingTurn && this.step === this.streamingStep && !this.retryPending) return false;
    this.streamingTurn = this.turn;
    this.streamingStep = this.step;
    const key = stepKey(this.turn, this.step);
    if (this.stepsWithCall.has(key) && !this.retryPending) return false;
    this.stepsWithCall.add(key);
    this.retryPending = false;
    return true;
  }

  /** Writes one event's row; the open turn/step as the boundaries say, so every event sorts into one band. */
  private put(seq: number, typeId: number, family: number, time: number, change: number, cut: boolean): number {
    if (this.n === this.columns.seq.length) this.grow();
    if (seq > 0xffffffff && this.columns.seq instanceof Uint32Array) this.columns.seq = Float64Array.from(this.columns.seq);
    const i = this.n++;
    const c = this.columns;
    c.seq[i] = seq;
    c.typeId[i] = typeId;
    c.family[i] = family;
    c.turn[i] = this.turn;
    c.step[i] = this.step;
    this.fitTime(time);
    c.time[i] = time - this.timeBase!;
    c.surfaceChange[i] = change;
    c.requestCut[i] = cut ? 1 : 0;
    return i;
  }

  /** Sets the base at the first time, and widens the time column for a time it cannot hold as 4 bytes after the base. */
  private fitTime(time: number): void {
    this.timeBase ??= time;
    this.columns.time = timeColumnFor(this.columns.time, time - this.timeBase);
  }

  private grow(): void {
    const size = grownSize(this.columns.seq.length, this.projected?.(this.n) ?? 0);
    const c = this.columns;
    this.columns = {
      seq: grown(c.seq, size), typeId: grown(c.typeId, size), family: grown(c.family, size),
      turn: grown(c.turn, size), step: grown(c.step, size), time: grown(c.time, size),
      surfaceChange: grown(c.surfaceChange, size), requestCut: grown(c.requestCut, size), synthetic: grown(c.synthetic, size),
    };
  }

  /** Events walked so far. */
  get length(): number {
    return this.n;
  }

  /** Copies of the column rows from `from` on (the part of a log read so far, shown while it loads). */
  rowsSince(from: number): { columns: ReplayColumns; typeNames: string[]; timeBase: number } {
    return {
      columns: rowsOf(this.columns, from, this.n),
      typeNames: this.typeNames.slice(),
      timeBase: this.timeBase ?? 0,
    };
  }

  /**
   * The index, trimmed to the events walked; events from `loggedCount` on
   * are synthetic. `live`: the walk goes on (a log still being written), so
   * the columns are views of the arrays the next events are written to:
   * rows already put are never written again, and the page is handed only
   * copies of the new ones (`columnsSince`), never these arrays.
   */
  finish(loggedCount: number, live = false): { index: ReplayIndex; checkpoints: SurfaceCheckpoint[] } {
    const n = this.n;
    const c = this.columns;
    // A close fit is kept as a view; a loose one is copied to its size. Synthetic rows are marked in a copy.
    const fit = live ? loggedCount >= n : closeFit(c.seq.length, n);
    const trim = <T extends ColumnArray>(a: T): T => (fit ? a.subarray(0, n) : a.slice(0, n)) as T;
    const columns: ReplayColumns = {
      seq: trim(c.seq), typeId: trim(c.typeId), family: trim(c.family),
      turn: trim(c.turn), step: trim(c.step), time: trim(c.time),
      surfaceChange: trim(c.surfaceChange), requestCut: trim(c.requestCut), synthetic: trim(c.synthetic),
    };
    columns.synthetic.fill(1, Math.min(loggedCount, n));
    return {
      index: {
        columns, typeNames: this.typeNames, families: FAMILIES, checkpointEvery: this.checkpointEvery,
        checkpointAt: Uint32Array.from(this.checkpointAt), appendIndexes: this.appends.slice(0, this.appendCount), count: n,
        timeBase: this.timeBase ?? 0,
      },
      checkpoints: this.checkpoints,
    };
  }
}

/** Copies of rows [from, to) of every column. */
function rowsOf(c: ReplayColumns, from: number, to: number): ReplayColumns {
  const cut = <T extends ColumnArray>(a: T): T => a.slice(from, to) as T;
  return {
    seq: cut(c.seq), typeId: cut(c.typeId), family: cut(c.family), turn: cut(c.turn), step: cut(c.step),
    time: cut(c.time), surfaceChange: cut(c.surfaceChange), requestCut: cut(c.requestCut), synthetic: cut(c.synthetic),
  };
}

/**
 * The columns navigation and seeks read, kept by the worker after the hand-over; the others (family,
 * turn, step, time, synthetic) are for display. Seqs are kept as a SeqTable (runs, not 4 bytes an event).
 */
const NAVIGATION: readonly (keyof ReplayColumns)[] = ['typeId', 'surfaceChange', 'requestCut'];

export class Replay<E extends EventList = EventList> {
  index: ReplayIndex;
  private readonly checkpoints: SurfaceCheckpoint[];
  private readonly ctx: SurfaceContext;
  /** Every event's seq: what the index's seq column holds, kept when the column goes to the page. */
  private readonly seqs: SeqTable;

  /** The surface after the last event. */
  readonly finalState: SurfaceState;

  constructor(readonly session: SessionFold<E>, built: { index: ReplayIndex; checkpoints: SurfaceCheckpoint[] }) {
    this.ctx = { dialect: session.read.dialect, eventAt: session.eventAt };
    this.index = built.index;
    this.seqs = SeqTable.of(built.index.columns.seq, built.index.count);
    this.checkpoints = built.checkpoints;
    this.finalState = session.surface;
  }

  /**
   * Builds the index with a walk of its own over the session's events
   * (tests, small logs); `riders` are other analyses carried on that walk.
   */
  static walk<E extends EventList>(session: SessionFold<E>, checkpointEvery = 2048, riders: readonly SurfaceVisitor[] = []): Replay<E> {
    const builder = new ReplayBuilder({ checkpointEvery, capacity: session.events.length, dialect: session.read.dialect });
    walkSurface(session.events, session.read.dialect, [builder, ...riders], session.eventAt);
    return new Replay(session, builder.finish(session.loggedCount));
  }

  /**
   * Hands the full columns over (to the page, which draws them) and keeps
   * copies of the navigation columns only (3 bytes an event; the seqs are in
   * the SeqTable): the others would cost the worker 14 bytes an event it
   * never reads again.
   */
  handOverColumns(): ReplayColumns {
    const full = this.index.columns;
    // Copies: the handed-over buffers leave this worker (a view would keep them alive).
    this.keepNavigationColumns((column) => column.slice() as typeof column);
    return full;
  }

  /**
   * `handOverColumns` for a page that holds the first `from` rows already (a
   * loading log's progress reports brought them): copies of the rows from
   * `from` on go to the page, and this index keeps only the columns it
   * navigates with (its own arrays: nothing of them was handed over).
   */
  handOverColumnsSince(from: number): ReplayColumns {
    const rest = this.columnsSince(from);
    // A view with room to spare behind it (a loose fit of the builder's arrays) is copied to its rows.
    this.keepNavigationColumns((column) => (column.byteLength === column.buffer.byteLength ? column : column.slice() as typeof column));
    return rest;
  }

  /** This index keeps the columns it navigates with (as `own` makes them) and an empty array of each other kind. */
  private keepNavigationColumns(own: <T extends ColumnArray>(column: T) => T): void {
    const full = this.index.columns;
    const kept = {} as Record<keyof ReplayColumns, ColumnArray>;
    for (const key of Object.keys(full) as (keyof ReplayColumns)[]) {
      const column = full[key];
      kept[key] = NAVIGATION.includes(key) ? own(column) : new (column.constructor as new (n: number) => ColumnArray)(0);
    }
    this.index = { ...this.index, columns: kept as unknown as ReplayColumns };
  }

  /** Copies of every column's rows from `from` on: the part of a followed log the page does not hold yet. */
  columnsSince(from: number): ReplayColumns {
    return rowsOf(this.index.columns, from, this.index.count);
  }

  /** Index of the event with this seq, else of the nearest one after it (events are in seq order; seqs may have gaps in a corrupt log). */
  indexOfSeq(seq: number): number {
    return this.seqs.indexOf(seq);
  }

  /** The seq of event index `i`, without parsing it (undefined out of range). */
  seqAt(i: number): number | undefined {
    return this.seqs.at(i);
  }

  /**
   * The surface after event index `i` (inclusive), with the plan that event
   * made. A fresh state: callers may keep it. Events between the checkpoint
   * and `i` that changed nothing are skipped (their only effect is the
   * expected next seq, set from the seq column), so a seek parses only the
   * events that changed the surface.
   */
  surfaceAt(i: number): { state: SurfaceState; plan: SurfacePlan | null } {
    const events = this.session.events;
    const { surfaceChange } = this.index.columns;
    const seqs = this.seqs;
    if (i < 0 || events.length === 0) return { state: emptySurface(), plan: null };
    i = Math.min(i, events.length - 1);
    const k = this.checkpointBefore(i);
    // Room for the nodes the events up to `i` can append: a long surface's list is not copied to grow.
    const state = this.stateOf(this.checkpoints[k], i - this.index.checkpointAt[k] + 1);
    for (let j = this.index.checkpointAt[k]; j < i; j++) {
      const change = surfaceChange[j];
      if (change === SURFACE_CHANGE.none || change === SURFACE_CHANGE.reject) continue;
      if (j > 0) state.nextSeq = seqs.at(j - 1)! + 1;
      applySurfacePlan(state, planSurfaceEvent(state, events.at(j)!, this.ctx));
    }
    if (i > 0) state.nextSeq = seqs.at(i - 1)! + 1;
    const plan = planSurfaceEvent(state, events.at(i)!, this.ctx);
    applySurfacePlan(state, plan);
    return { state, plan };
  }

  /**
   * A forward walk of the surface: `to(i)` gives the surface after event
   * index `i`, folding only the events since the index asked before, so a
   * pass over every model call of a long session costs one fold rather than
   * a seek (a copy of the whole surface) per call. The walk owns the state
   * it returns and changes it on the next step; asking for an earlier index
   * starts again from a seek.
   */
  surfaceWalk(): (i: number) => SurfaceState {
    const events = this.session.events;
    const { surfaceChange } = this.index.columns;
    const seqs = this.seqs;
    let state: SurfaceState | null = null;
    let at = -1;
    return (i) => {
      i = Math.min(i, events.length - 1);
      if (state === null || i < at || i < 0) {
        state = this.surfaceAt(i).state;
        at = i;
        return state;
      }
      for (let j = at + 1; j <= i; j++) {
        const change = surfaceChange[j];
        if (j < i && (change === SURFACE_CHANGE.none || change === SURFACE_CHANGE.reject)) continue;
        if (j > 0) state.nextSeq = seqs.at(j - 1)! + 1;
        applySurfacePlan(state, planSurfaceEvent(state, events.at(j)!, this.ctx));
      }
      at = i;
      return state;
    };
  }

  /** A checkpoint as a fresh surface state the seek may change. */
  private stateOf(cp: SurfaceCheckpoint, room = 0): SurfaceState {
    return {
      nodes: NodeChunks.toArray(cp.nodes, room),
      nextSeq: cp.nextSeq,
      replaceGeneration: cp.replaceGeneration,
      contentGeneration: cp.contentGeneration,
      projected: new Map(cp.projected),
      replacements: this.finalState.replacements.slice(0, cp.replacementCount),
    };
  }

  /** Which checkpoint a seek to event `i` starts from: the last one at or before it. */
  checkpointBefore(i: number): number {
    // Kept inline: measured 30% slower through the helper (countAtOrBelow) on the seek path.
    const at = this.index.checkpointAt;
    let lo = 0;
    let hi = at.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (at[mid] <= i) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  /** Events a seek to `i` walks from its checkpoint (the changed ones among them are re-folded). */
  refoldDistance(i: number): number {
    return i - this.index.checkpointAt[this.checkpointBefore(i)] + 1;
  }

  /** Next (dir 1) or previous (dir -1) event index of a kind, from index `from` (exclusive). */
  navigate(kind: NavKind, from: number, dir: 1 | -1, diagnosticIndexes: ReadonlySet<number> = new Set()): number | null {
    return navigate(this.index.columns, this.index.typeNames, this.index.count, kind, from, dir, diagnosticIndexes);
  }

  /**
   * The next event index (from `from`, exclusive) whose type matches
   * `typeMatches`, or else whose event matches `predicate` (for search).
   * The type is read from the columns, so only the other events are parsed.
   */
  find(typeMatches: (type: string) => boolean, predicate: (event: LogEvent, i: number) => boolean, from: number, dir: 1 | -1): number | null {
    const events = this.session.events;
    const { typeId } = this.index.columns;
    const names = this.index.typeNames;
    const typeHit = names.map(typeMatches);
    const read = events.peek ? (i: number) => events.peek!(i) : (i: number) => events.at(i);
    for (let i = from + dir; i >= 0 && i < events.length; i += dir) {
      if (typeHit[typeId[i]] || predicate(read(i)!, i)) return i;
    }
    return null;
  }
}
