// Section ids (J…) are those of docs/dsh-log-rules.md.
import type { LogEvent } from '../log/types.ts';
import { jsonEqual } from '../util/json.ts';
import { grownTo } from '../util/typed.ts';
import { countAtOrBelow } from '../util/sorted.ts';
import type { ProjectionFailure } from './types.ts';

/**
 * One unit's runtime record for a session (J2.1, seed shape):
 * `observedSeq` is the seq of the last event passed through `apply` whether
 * or not the state changed (-1 = none); `views` is [previous, current] for the
 * seed's view-identity gate (J2.4).
 */
export interface Cell {
  state: unknown;
  observedSeq: number;
  views: [unknown, unknown];
  /** Set once: a thrown fold freezes the cell; a domain failure is informational. */
  failure: ProjectionFailure | null;
  /** The seqs where the state changed, for time travel (J5.4); only with `history`. */
  history: ChangeLog | null;
}

/**
 * A unit's changes, kept compact enough for a 1M-event log: the seq of every change in a
 * typed array, and the state itself only every `every`-th change. A state in
 * between is folded again from the one before it over the events *at the
 * change seqs* — every other event left the state as it was (`apply` is pure
 * and returned the same reference), so those are the only ones that matter.
 */
export class ChangeLog {
  /** 4 bytes a change while seqs fit (they always do in practice); 8 past 2^32. */
  private seqs: Uint32Array | Float64Array = new Uint32Array(16);
  /** 1 where change i left a value deep-equal to the one before it (a write of the same value). */
  private same: Uint8Array = new Uint8Array(16);
  private n = 0;
  /** State after change i, for i a multiple of `every`. */
  private readonly kept: unknown[] = [];
  /** The state after the last change (or the initial one), to compare the next change with. */
  private last: unknown;

  /** The log as plain data (typed arrays trimmed to its length): what a helper worker sends back. */
  toData(): ChangeLogData {
    return { every: this.every, seqs: this.seqs.slice(0, this.n), same: this.same.slice(0, this.n), kept: this.kept, last: this.last };
  }

  /** A log made by another registry's `toData` (the arrays are taken, not copied). */
  static fromData(data: ChangeLogData): ChangeLog {
    const log = new ChangeLog(data.every, data.last);
    if (data.same.length !== data.seqs.length || data.kept.length !== Math.ceil(data.seqs.length / data.every)) {
      throw new Error(`projection history: ${data.seqs.length} changes, ${data.same.length} flags and ${data.kept.length} kept states do not fit together`);
    }
    log.n = data.seqs.length;
    // A little room to grow (the load still records the restore's few synthetic events), not a doubling.
    log.seqs = grownTo(data.seqs, log.n + 16);
    log.same = grownTo(data.same, log.n + 16);
    for (const state of data.kept) log.kept.push(state);
    return log;
  }

  /**
   * `every` = 1 keeps every state (no re-fold ever needed). `initial` is the
   * state before the first change. Equality is decided once, here, when a
   * change is recorded (a comparison that stops at the first difference and
   * at shared references, so it costs no more than the unit's own update).
   */
  constructor(readonly every: number, initial?: unknown) {
    this.last = initial;
  }

  get length(): number {
    return this.n;
  }

  push(seq: number, state: unknown): void {
    if (seq > 0xffffffff && this.seqs instanceof Uint32Array) this.seqs = Float64Array.from(this.seqs);
    if (this.n === this.seqs.length) {
      this.seqs = grownTo(this.seqs, Math.max(16, this.n * 2));
      this.same = grownTo(this.same, Math.max(16, this.n * 2));
    }
    if (this.n % this.every === 0) this.kept.push(state);
    this.same[this.n] = jsonEqual(this.last, state) ? 1 : 0;
    this.last = state;
    this.seqs[this.n++] = seq;
  }

  /** Whether change `i` changed the value (false: it wrote a value equal to the one before). */
  valueChanged(i: number): boolean {
    return this.same[i] === 0;
  }

  /** The seqs of the changes that changed the value (`same` false) or only rewrote it (`same` true), ascending. */
  seqsWhere(same: boolean): Uint32Array | Float64Array {
    let count = 0;
    for (let i = 0; i < this.n; i++) if ((this.same[i] === 1) === same) count++;
    // The same kind as the log's own seqs: 4 bytes a change while they fit.
    const out = new (this.seqs.constructor as new (n: number) => Uint32Array | Float64Array)(count);
    for (let i = 0, k = 0; i < this.n; i++) if ((this.same[i] === 1) === same) out[k++] = this.seqs[i];
    return out;
  }

  /** The change seqs, ascending (a view: valid until the next push). */
  changeSeqs(): Uint32Array | Float64Array {
    return this.seqs.subarray(0, this.n);
  }

  /** How many changes happened at or before `seq`. */
  countThrough(seq: number): number {
    return countAtOrBelow(this.seqs, seq, this.n);
  }

  /** The seq of change `i`. */
  seqOf(i: number): number {
    return this.seqs[i];
  }

  /**
   * The state after change `i`: the kept state at or before it, then `apply`
   * over the events of the changes after that one. `from` may be a state the
   * caller already has for an earlier change of the same block (stepping forward).
   */
  stateAfter(i: number, apply: (state: unknown, event: LogEvent) => unknown, eventAt: (seq: number) => LogEvent | undefined, from?: { index: number; state: unknown }): unknown {
    const base = i - (i % this.every);
    let state: unknown;
    let j: number;
    if (from && from.index >= base && from.index <= i) {
      state = from.state;
      j = from.index + 1;
    } else {
      state = this.kept[base / this.every];
      j = base + 1;
    }
    for (; j <= i; j++) {
      const event = eventAt(this.seqs[j]);
      if (!event) throw new Error(`projection history: no event at seq ${this.seqs[j]} to fold again`);
      state = apply(state, event);
    }
    return state;
  }
}

/** A ChangeLog as plain, structured-cloneable data. */
export interface ChangeLogData {
  every: number;
  seqs: Uint32Array | Float64Array;
  same: Uint8Array;
  kept: unknown[];
  last: unknown;
}

/** The state a cell had after driving `seq` (the last change at or before it). */
export function stateAt(
  cell: Cell,
  initial: unknown,
  seq: number,
  apply: (state: unknown, event: LogEvent) => unknown,
  eventAt: (seq: number) => LogEvent | undefined,
): unknown {
  const h = cell.history;
  if (!h) throw new Error('projection history was not recorded (enable the history option)');
  const k = h.countThrough(seq);
  return k === 0 ? initial : h.stateAfter(k - 1, apply, eventAt);
}
