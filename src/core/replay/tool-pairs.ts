import type { LogEvent } from '../log/types.ts';
import type { SurfaceVisitor } from '../surface/walk.ts';

/**
 * Tool calls paired with their results (issue #19), as a network panel pairs
 * a request with its response: a `tool/result` names the `tool/call` it
 * answers among its `sourceEventSeqs` (log-and-surface §4). Only those two
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

export interface ToolPairs {
  byCall: Map<number, ToolPair>;
  byResult: Map<number, ToolPair>;
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
 * It rides on the load's walk (issue #15): the events are parsed there
 * already, where pairing after the load parsed every call and result again
 * before the events list could fill (150 ms in Node on a 1M-event log, about
 * half a second in a browser's worker).
 */
export class ToolPairer implements SurfaceVisitor {
  readonly reads = PAIRED_TYPES;
  private readonly calls = new Map<number, OpenCall>();
  private readonly inOrder: OpenCall[] = [];

  after(e: LogEvent): void {
    if (e.type === 'tool/call') {
      // Committed seqs only rise (the reader sets a repeat aside): a seq names one call.
      if (this.calls.has(e.seq)) return;
      const call: OpenCall = { seq: e.seq, time: e.time, name: typeof e.data?.name === 'string' ? e.data.name : '', result: null, resultTime: NaN, isError: false };
      this.calls.set(e.seq, call);
      this.inOrder.push(call);
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
    const byCall = new Map<number, ToolPair>();
    const byResult = new Map<number, ToolPair>();
    for (const c of this.inOrder) {
      const call = indexOfSeq(c.seq);
      if (call < 0 || call >= count) continue;
      const result = c.result === null ? -1 : indexOfSeq(c.result);
      const answered = result >= 0 && result < count;
      const pair: ToolPair = {
        call,
        result: answered ? result : -1,
        name: c.name,
        isError: answered && c.isError,
        ms: answered && Number.isFinite(c.resultTime) && Number.isFinite(c.time) ? Math.max(0, c.resultTime - c.time) : null,
      };
      byCall.set(call, pair);
      if (answered) byResult.set(result, pair);
    }
    return { byCall, byResult };
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
