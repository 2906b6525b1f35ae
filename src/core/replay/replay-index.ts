import type { LogEvent } from '../log/types.ts';
import type { SessionFold } from '../session/fold-session.ts';
import { applySurfacePlan } from '../surface/apply.ts';
import { planSurfaceEvent } from '../surface/plan.ts';
import { cloneSurface, emptySurface, type SurfaceContext, type SurfacePlan, type SurfaceState } from '../surface/types.ts';
import { walkSurface, type SurfaceVisitor } from '../surface/walk.ts';
import { indexOfSeq } from './seq-index.ts';
import { FAMILIES, familyOf } from './families.ts';

/**
 * The replay index (built once per load): typed per-event columns for
 * navigation and the timeline, plus surface checkpoints every K events so
 * `surfaceAt(seq)` is a checkpoint clone and at most K-1 forward steps — the
 * same plan/apply pair as the full fold, never a second copy of a rule.
 */
export const SURFACE_CHANGE = { none: 0, append: 1, replace: 2, project: 3, reject: 4 } as const;

export interface ReplayColumns {
  seq: Float64Array;
  typeId: Uint16Array;
  family: Uint8Array;
  turn: Int32Array;
  step: Int32Array;
  time: Float64Array;
  /** SURFACE_CHANGE code per event. */
  surfaceChange: Uint8Array;
  /** 1 where a model call starts (first chunk of a step's attempt, or a V4 assistant message/attempt). */
  requestCut: Uint8Array;
  /** 1 for events the restore appended (not in the file). */
  synthetic: Uint8Array;
}

export interface ReplayIndex {
  columns: ReplayColumns;
  typeNames: string[];
  families: readonly string[];
  checkpointEvery: number;
  count: number;
}

export type NavKind = 'event' | 'surface' | 'replace' | 'request' | 'step' | 'turn' | 'diagnostic';

export class Replay {
  readonly index: ReplayIndex;
  private readonly checkpoints: SurfaceState[] = [];
  private readonly ctx: SurfaceContext;

  /** The surface after the last event. */
  readonly finalState: SurfaceState;

  /**
   * `riders` are other analyses that need a surface walk: they ride along on
   * this one instead of folding the log again.
   */
  constructor(readonly session: SessionFold, checkpointEvery = 2048, riders: readonly SurfaceVisitor[] = []) {
    this.ctx = { dialect: session.read.dialect, eventAt: session.eventAt };
    const events = session.events;
    const n = events.length;
    const typeIds = new Map<string, number>();
    const typeNames: string[] = [];
    const columns: ReplayColumns = {
      seq: new Float64Array(n), typeId: new Uint16Array(n), family: new Uint8Array(n),
      turn: new Int32Array(n), step: new Int32Array(n), time: new Float64Array(n),
      surfaceChange: new Uint8Array(n), requestCut: new Uint8Array(n), synthetic: new Uint8Array(n),
    };
    const firstSynthetic = n - session.synthetic.length;
    let turn = 0;
    let step = 0;
    let retryPending = false;
    const stepsWithCall = new Set<string>();
    let i = 0;
    this.finalState = walkSurface(events, session.read.dialect, [{
      before: (_event, state) => {
        if (i % checkpointEvery === 0) this.checkpoints.push(cloneSurface(state));
      },
      after: (e, _state, plan) => {
        let id = typeIds.get(e.type);
        if (id === undefined) { id = typeNames.length; typeIds.set(e.type, id); typeNames.push(e.type); }
        const d = e.data ?? {};
        if (e.type === 'turn/start') { turn = typeof d.turn === 'number' ? d.turn : turn + 1; step = 0; }
        if (e.type === 'step/start') step = typeof d.step === 'number' ? d.step : step + 1;
        columns.seq[i] = e.seq;
        columns.typeId[i] = id;
        columns.family[i] = FAMILIES.indexOf(familyOf(e.type));
        // The open turn/step as the boundaries say, so every event sorts into one band.
        columns.turn[i] = turn;
        columns.step[i] = step;
        columns.time[i] = e.time;
        columns.synthetic[i] = i >= firstSynthetic ? 1 : 0;
        columns.surfaceChange[i] = SURFACE_CHANGE[plan.kind];
        // Model-call cuts (corpus expected README): the first chunk of a (turn, step),
        // and again after a finish whose reason is error/aborted; V2+ settlements.
        if (e.type === 'assistant/chunk') {
          const key = `${turn}/${step}`;
          if (!stepsWithCall.has(key) || retryPending) { columns.requestCut[i] = 1; stepsWithCall.add(key); retryPending = false; }
          const reason = d.chunk?.type === 'finish' ? d.chunk.reason?.kind : undefined;
          if (reason === 'error' || reason === 'aborted') retryPending = true;
        } else if ((e.type === 'assistant/message' || e.type === 'assistant/attempt') && Array.isArray(d.stream)) {
          columns.requestCut[i] = 1;
        }
        i++;
      },
    }, ...riders]);
    this.index = { columns, typeNames, families: FAMILIES, checkpointEvery, count: n };
  }

  /** Index of the event with this seq (events are in seq order; seqs may have gaps in a corrupt log). */
  indexOfSeq(seq: number): number {
    return indexOfSeq(this.index.columns.seq, seq);
  }

  /**
   * The surface after event index `i` (inclusive), with the plan that event
   * made. A fresh state: callers may keep it.
   */
  surfaceAt(i: number): { state: SurfaceState; plan: SurfacePlan | null } {
    const events = this.session.events;
    if (i < 0 || events.length === 0) return { state: emptySurface(), plan: null };
    i = Math.min(i, events.length - 1);
    const k = Math.floor(i / this.index.checkpointEvery);
    const state = cloneSurface(this.checkpoints[k]);
    let plan: SurfacePlan | null = null;
    for (let j = k * this.index.checkpointEvery; j <= i; j++) {
      plan = planSurfaceEvent(state, events[j], this.ctx);
      applySurfacePlan(state, plan);
    }
    return { state, plan };
  }

  /** Next (dir 1) or previous (dir -1) event index of a kind, from index `from` (exclusive). */
  navigate(kind: NavKind, from: number, dir: 1 | -1, diagnosticIndexes: ReadonlySet<number> = new Set()): number | null {
    const c = this.index.columns;
    const matches = (i: number): boolean => {
      switch (kind) {
        case 'event': return true;
        case 'surface': return c.surfaceChange[i] !== SURFACE_CHANGE.none;
        case 'replace': return c.surfaceChange[i] === SURFACE_CHANGE.replace;
        case 'request': return c.requestCut[i] === 1;
        case 'step': return this.index.typeNames[c.typeId[i]] === 'step/start';
        case 'turn': return this.index.typeNames[c.typeId[i]] === 'turn/start';
        case 'diagnostic': return diagnosticIndexes.has(i);
      }
    };
    for (let i = from + dir; i >= 0 && i < this.index.count; i += dir) if (matches(i)) return i;
    return null;
  }

  /** Event indexes whose type or preview text matches a filter (for search). */
  find(predicate: (event: LogEvent, i: number) => boolean, from: number, dir: 1 | -1): number | null {
    const events = this.session.events;
    for (let i = from + dir; i >= 0 && i < events.length; i += dir) if (predicate(events[i], i)) return i;
    return null;
  }
}
