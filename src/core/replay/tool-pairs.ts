import type { LogEvent } from '../log/types.ts';
import type { SurfaceVisitor } from '../surface/walk.ts';
import { positionOf } from '../util/sorted.ts';

/**
 * Tool calls paired with their results (docs/open-and-navigate.md), as a network panel pairs
 * a request with its response: a `tool/result` names the `tool/call` it
 * answers among its `sourceEventSeqs` (dsh-log-rules L4). Only those two
 * types are read.
 */
export interface ToolPair {
  call: number;
  /** -1 while no result answers the call. */
  result: number;
  name: string;
  isError: boolean;
  /** Result time − call time, ms (null while pending). */
  ms: number | null;
}

/**
 * The pairs of a log, kept as columns (about 30 bytes a call, where a pair
 * object in two maps took some 140; memory must stay within 2× the file),
 * each pair made when a row asks.
 */
export class ToolPairs {
  constructor(
    /** Event index of each call, ascending. */
    private readonly calls: Int32Array,
    /** Event index of each call's result, -1 while pending. */
    private readonly results: Int32Array,
    /** Result time − call time, ms; NaN when pending or a time is not a number. */
    private readonly ms: Float64Array,
    private readonly errors: Uint8Array,
    private readonly nameIds: Uint32Array,
    private readonly names: readonly string[],
    /** The answered calls' result indexes, ascending, and each one's position in the columns above. */
    private readonly resultsSorted: Int32Array,
    private readonly resultPositions: Int32Array,
  ) {}

  static readonly none = new ToolPairs(new Int32Array(0), new Int32Array(0), new Float64Array(0), new Uint8Array(0), new Uint32Array(0), [], new Int32Array(0), new Int32Array(0));

  /** How many calls there are (answered or not). */
  get callCount(): number {
    return this.calls.length;
  }

  /** How many calls a result answers. */
  get answeredCount(): number {
    return this.resultsSorted.length;
  }

  /** The pair whose call is event `index`. */
  ofCall(index: number): ToolPair | undefined {
    const k = positionOf(this.calls, index);
    return k >= 0 ? this.pairAt(k) : undefined;
  }

  /** The pair whose result is event `index`. */
  ofResult(index: number): ToolPair | undefined {
    const j = positionOf(this.resultsSorted, index);
    return j >= 0 ? this.pairAt(this.resultPositions[j]) : undefined;
  }

  /** The `k`th pair in call order (0 ≤ k < callCount). */
  at(k: number): ToolPair {
    return this.pairAt(k);
  }

  private pairAt(k: number): ToolPair {
    const ms = this.ms[k];
    return { call: this.calls[k], result: this.results[k], name: this.names[this.nameIds[k]], isError: this.errors[k] === 1, ms: Number.isNaN(ms) ? null : ms };
  }
}

/** A call seen so far, by seq (the walk does not know event indexes); `result` is the answering event's seq. */
interface OpenCall {
  seq: number;
  time: number;
  name: string;
  result: number | null;
  resultTime: number;
  isError: boolean;
}

const PAIRED_TYPES: ReadonlySet<string> = new Set(['tool/call', 'tool/result']);

/**
 * Pairs calls and results as events pass in log order: a result answers the
 * first seq among its `sourceEventSeqs` that is a call not answered yet.
 * It rides on the load's walk: the events are parsed there
 * already, where pairing after the load parsed every call and result again
 * before the events list could fill (150 ms in Node on a 1M-event log, about
 * half a second in a browser's worker).
 */
export class ToolPairer implements SurfaceVisitor {
  readonly reads = PAIRED_TYPES;
  /** Open and answered calls by seq, in log order (a Map keeps insertion order). */
  private readonly calls = new Map<number, OpenCall>();

  after(e: LogEvent): void {
    if (e.type === 'tool/call') {
      // Committed seqs only rise (the reader sets a repeat aside): a seq names one call.
      if (this.calls.has(e.seq)) return;
      const call: OpenCall = { seq: e.seq, time: e.time, name: typeof e.data?.name === 'string' ? e.data.name : '', result: null, resultTime: NaN, isError: false };
      this.calls.set(e.seq, call);
      return;
    }
    if (e.type !== 'tool/result' || !Array.isArray(e.sourceEventSeqs)) return;
    for (const seq of e.sourceEventSeqs) {
      const call = this.calls.get(seq);
      if (!call || call.result !== null) continue;
      call.result = e.seq;
      call.resultTime = e.time;
      call.isError = e.data?.message?.isError === true;
      return;
    }
  }

  /**
   * The pairs by event index. Only the first `count` events (the logged ones)
   * take part: a call or result past them (the restore's synthetic events)
   * is left out, and a call it answered stays pending.
   */
  finish(count: number, indexOfSeq: (seq: number) => number): ToolPairs {
    const n = this.calls.size;
    const calls = new Int32Array(n);
    const results = new Int32Array(n);
    const ms = new Float64Array(n);
    const errors = new Uint8Array(n);
    const nameIds = new Uint32Array(n);
    const names: string[] = [];
    const nameId = new Map<string, number>();
    const answered: number[] = [];
    let k = 0;
    for (const c of this.calls.values()) {
      const call = indexOfSeq(c.seq);
      if (call < 0 || call >= count) continue;
      const result = c.result === null ? -1 : indexOfSeq(c.result);
      const isAnswered = result >= 0 && result < count;
      calls[k] = call;
      results[k] = isAnswered ? result : -1;
      ms[k] = isAnswered && Number.isFinite(c.resultTime) && Number.isFinite(c.time) ? Math.max(0, c.resultTime - c.time) : NaN;
      errors[k] = isAnswered && c.isError ? 1 : 0;
      let id = nameId.get(c.name);
      if (id === undefined) nameId.set(c.name, (id = names.push(c.name) - 1));
      nameIds[k] = id;
      if (isAnswered) answered.push(k);
      k++;
    }
    answered.sort((a, b) => results[a] - results[b]);
    const resultsSorted = Int32Array.from(answered, (p) => results[p]);
    return new ToolPairs(calls.slice(0, k), results.slice(0, k), ms.slice(0, k), errors.slice(0, k), nameIds.slice(0, k), names, resultsSorted, Int32Array.from(answered));
  }
}

/** The pairs of a log's first `count` events read by index, through the same pairer (a log at hand as events, not walked). */
export function pairToolCalls(count: number, typeId: ArrayLike<number>, typeNames: readonly string[], eventAt: (i: number) => LogEvent | undefined, indexOfSeq: (seq: number) => number): ToolPairs {
  const pairer = new ToolPairer();
  const callType = typeNames.indexOf('tool/call');
  const resultType = typeNames.indexOf('tool/result');
  if (callType >= 0) {
    for (let i = 0; i < count; i++) {
      if (typeId[i] !== callType && typeId[i] !== resultType) continue;
      const e = eventAt(i);
      if (e) pairer.after(e);
    }
  }
  return pairer.finish(count, indexOfSeq);
}
