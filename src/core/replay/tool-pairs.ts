import type { LogEvent } from '../log/types.ts';

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

export function pairToolCalls(count: number, typeId: ArrayLike<number>, typeNames: readonly string[], eventAt: (i: number) => LogEvent | undefined, indexOfSeq: (seq: number) => number): ToolPairs {
  const callType = typeNames.indexOf('tool/call');
  const resultType = typeNames.indexOf('tool/result');
  const byCall = new Map<number, ToolPair>();
  const byResult = new Map<number, ToolPair>();
  if (callType < 0) return { byCall, byResult };
  const times = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    if (typeId[i] === callType) {
      const e = eventAt(i);
      if (!e) continue;
      times.set(i, e.time);
      byCall.set(i, { call: i, result: -1, name: typeof e.data?.name === 'string' ? e.data.name : '', isError: false, ms: null });
    } else if (typeId[i] === resultType) {
      const e = eventAt(i);
      for (const seq of e?.sourceEventSeqs ?? []) {
        const c = indexOfSeq(seq);
        const pair = byCall.get(c);
        if (!pair || pair.result >= 0) continue;
        pair.result = i;
        pair.isError = e!.data?.message?.isError === true;
        pair.ms = Number.isFinite(e!.time) && Number.isFinite(times.get(c)) ? Math.max(0, e!.time - times.get(c)!) : null;
        byResult.set(i, pair);
        break;
      }
    }
  }
  return { byCall, byResult };
}
