import type { SurfaceTotals } from '../surface/surface-totals.ts';
import { countAtOrBelow } from '../util/sorted.ts';
import type { Replacement } from '../surface/types.ts';
import type { Usage } from '../requests/build.ts';

/**
 * The data behind the charts (docs/open-and-navigate.md, "Charts"), derived from what the load already
 * keeps: the surface totals after every surface change (the token meter the
 * Surface panel reads), each model call's logged usage, and the replaces.
 * Plain typed arrays, so a long session's series crosses to the page without
 * a copy; the page only draws them.
 */

/** The surface's estimated size over the log: one point per surface change, by event index. */
export interface SurfaceSeries {
  /** Event index of each point, ascending. */
  x: Float64Array;
  /** Estimated tokens of the whole surface after that event (DSH's token meter). */
  tokens: Float64Array;
  /** Surface changes in the log (the points before binning). */
  changes: number;
  /** Points were binned: each bin keeps its highest point and its last one, so peaks and levels survive. */
  binned: boolean;
}

/** A chart gets at most about this many points; a long session has hundreds of thousands of changes. */
export const MAX_POINTS = 4000;

/**
 * The surface token series. `indexOfSeq` maps a change's seq to its event
 * index (the charts' x, the cursor's unit).
 */
export function surfaceSeries(totals: SurfaceTotals, indexOfSeq: (seq: number) => number, maxPoints = MAX_POINTS): SurfaceSeries {
  const n = totals.length;
  if (n <= maxPoints) {
    const x = new Float64Array(n);
    const tokens = new Float64Array(n);
    for (let i = 0; i < n; i++) { x[i] = indexOfSeq(totals.seqAt(i)); tokens[i] = totals.tokensAt(i); }
    return { x, tokens, changes: n, binned: false };
  }
  const bins = Math.max(1, Math.floor(maxPoints / 2));
  const per = n / bins;
  const xs: number[] = [];
  const ts: number[] = [];
  for (let b = 0; b < bins; b++) {
    const from = Math.floor(b * per);
    const to = Math.min(n, Math.floor((b + 1) * per));
    if (from >= to) continue;
    let peak = from;
    for (let i = from + 1; i < to; i++) if (totals.tokensAt(i) > totals.tokensAt(peak)) peak = i;
    const last = to - 1;
    for (const i of peak === last ? [last] : [peak, last]) { xs.push(indexOfSeq(totals.seqAt(i))); ts.push(totals.tokensAt(i)); }
  }
  return { x: Float64Array.from(xs), tokens: Float64Array.from(ts), changes: n, binned: true };
}

/** One model call's tokens as its provider reported them (absent fields: not reported). */
export interface CallTokens {
  /** 0-based call number (the Requests table's row). */
  call: number;
  /** Event index of the call's cut (where its request was made). */
  index: number;
  /** Input tokens not served from a cache (DSH's `inputTokens`). */
  fresh?: number;
  cacheRead?: number;
  cacheWrite?: number;
  output?: number;
  /** What the prompt cost the context: fresh + cache read + cache write (contextPressure's figure), when input is known. */
  prompt?: number;
  /** The context window in force for the call (`request/context`), when logged. */
  contextWindow?: number;
  /** Why the call's prefix broke with the previous call (empty: it extended it). */
  breakReasons: string[];
  /** The provider and model the call went to (its request header), for its price. */
  provider?: string;
  model?: string;
}

const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);

/** A call's token figures from its logged usage (dsh-log-rules J4.9's buckets). */
export function callTokens(call: number, index: number, usage: Usage | undefined, contextWindow: number | undefined, breakReasons: readonly string[], route: { provider?: string; model?: string } = {}): CallTokens {
  const fresh = count(usage?.inputTokens);
  const cacheRead = count(usage?.cacheReadTokens);
  const cacheWrite = count(usage?.cacheWriteTokens);
  const output = count(usage?.outputTokens);
  const out: CallTokens = { call, index, breakReasons: [...breakReasons] };
  if (fresh !== undefined) { out.fresh = fresh; out.prompt = fresh + (cacheRead ?? 0) + (cacheWrite ?? 0); }
  if (cacheRead !== undefined) out.cacheRead = cacheRead;
  if (cacheWrite !== undefined) out.cacheWrite = cacheWrite;
  if (output !== undefined) out.output = output;
  const window = count(contextWindow);
  if (window !== undefined && window > 0) out.contextWindow = window;
  if (typeof route.provider === 'string') out.provider = route.provider;
  if (typeof route.model === 'string') out.model = route.model;
  return out;
}

/** Whether the call's provider reported usage (input or output): a call without it has nothing to count or price. */
export const hasUsage = (c: CallTokens): boolean => c.fresh !== undefined || c.output !== undefined;

/** Where the surface was replaced, by event index: a compaction's replace, or another rewrite. */
export interface ReplaceMark {
  index: number;
  seq: number;
  compaction: boolean;
  shadowed: number;
}

/**
 * The replaces to mark on the usage chart. A replace is a compaction's when
 * a compaction event (`compaction/summary` or `compaction/prune`) comes
 * after the previous replace and at or before it (dsh-log-rules L6:
 * the summary or prune event arms the replace that follows it).
 */
export function replaceMarks(replacements: readonly Replacement[], indexOfSeq: (seq: number) => number, compactionIndexes: readonly number[]): ReplaceMark[] {
  const marks: ReplaceMark[] = [];
  let k = 0;
  let previous = -1;
  for (const r of replacements) {
    const index = indexOfSeq(r.seq);
    while (k < compactionIndexes.length && compactionIndexes[k] <= previous) k++;
    const compaction = k < compactionIndexes.length && compactionIndexes[k] <= index;
    marks.push({ index, seq: r.seq, compaction, shadowed: r.shadowedSeqs.length });
    previous = index;
  }
  return marks;
}

/** What the charts show, in one answer. */
export interface ChartData {
  surface: SurfaceSeries;
  calls: CallTokens[];
  marks: ReplaceMark[];
}

/** The value of a step series at event index `at`: the last point at or before it (0 before the first). */
export function seriesValueAt(x: ArrayLike<number>, y: ArrayLike<number>, at: number): number {
  const k = countAtOrBelow(x, at);
  return k === 0 ? 0 : y[k - 1];
}
