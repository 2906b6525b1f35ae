import { MAX_POINTS, seriesValueAt, type CallTokens, type SurfaceSeries } from './series.ts';
import { firstWhere } from '../util/sorted.ts';

/**
 * The charts' series on one x axis each, as a chart library wants them
 * (one x array, one y array per series, null where a series has no point).
 */

/** Context usage over time: x = event index. */
export interface UsageColumns {
  x: number[];
  /** The surface's estimated tokens (a step line: the value after the last change at or before x). */
  estimated: number[];
  /** Prompt tokens a call reported (fresh + cache read + cache write) at its cut; null elsewhere. */
  logged: (number | null)[];
  /** The context window in force (from the last call at or before x that logged one); null before any. */
  window: (number | null)[];
  /** More calls than points: each bin of calls is drawn as its highest and lowest prompt. */
  loggedBinned: boolean;
}

/**
 * Which calls a per-call chart draws (indexes into `calls`, ascending): every
 * one when they fit, else consecutive calls in at most `maxPoints` bins, each
 * drawn as its biggest call (and its smallest too with `keepLow`), so peaks
 * and drops survive. A long session has tens of thousands of calls: drawn
 * whole, the charts took 1.4 s to appear on a 1M-event log.
 */
export function drawnCalls(count: number, valueOf: (i: number) => number | undefined, maxPoints = MAX_POINTS, keepLow = false): number[] {
  const out: number[] = [];
  if (count <= maxPoints) {
    for (let i = 0; i < count; i++) out.push(i);
    return out;
  }
  const bins = Math.max(1, Math.floor(keepLow ? maxPoints / 2 : maxPoints));
  const per = count / bins;
  for (let b = 0; b < bins; b++) {
    const from = Math.floor(b * per);
    const to = Math.min(count, Math.floor((b + 1) * per));
    let high = -1;
    let low = -1;
    let highest = -Infinity;
    let lowest = Infinity;
    for (let i = from; i < to; i++) {
      const v = valueOf(i);
      if (v === undefined) continue;
      if (v > highest) { highest = v; high = i; }
      if (v < lowest) { lowest = v; low = i; }
    }
    // A bin with no value is drawn by its first call (a gap where the chart shows nothing).
    if (high < 0) { out.push(from); continue; }
    if (keepLow && low !== high) out.push(Math.min(low, high), Math.max(low, high));
    else out.push(high);
  }
  return out;
}

export function usageColumns(surface: SurfaceSeries, calls: readonly CallTokens[], maxPoints = MAX_POINTS): UsageColumns {
  const loggedAt = new Map<number, number>();
  const xs = new Set<number>(surface.x);
  // The logged prompts as dots: a bin's highest and lowest when there are more calls than points.
  const drawn = drawnCalls(calls.length, (i) => calls[i].prompt, maxPoints, true);
  for (const k of drawn) {
    const c = calls[k];
    xs.add(c.index);
    if (c.prompt !== undefined) loggedAt.set(c.index, Math.max(loggedAt.get(c.index) ?? 0, c.prompt));
  }
  const x = [...xs].sort((a, b) => a - b);
  const windows = calls.filter((c) => c.contextWindow !== undefined).sort((a, b) => a.index - b.index);
  const estimated: number[] = [];
  const logged: (number | null)[] = [];
  const window: (number | null)[] = [];
  let w = 0;
  let current: number | null = null;
  // The window in force comes from every call, drawn or not.
  for (const at of x) {
    estimated.push(seriesValueAt(surface.x, surface.tokens, at));
    logged.push(loggedAt.get(at) ?? null);
    while (w < windows.length && windows[w].index <= at) current = windows[w++].contextWindow!;
    window.push(current);
  }
  return { x, estimated, logged, window, loggedBinned: drawn.length < calls.length };
}

/** Tokens per model call: x = call number (1-based); each bucket and the stacked tops. */
export interface CallColumns {
  x: number[];
  /** The call each point draws (an index into the calls): every call, or each bin's biggest (see `drawnCalls`). */
  call: number[];
  /** Fewer points than calls. */
  binned: boolean;
  fresh: (number | null)[];
  cacheRead: (number | null)[];
  cacheWrite: (number | null)[];
  output: (number | null)[];
  /** Running sums for a stacked drawing: fresh, + cache read, + cache write, + output. */
  stacked: [number[], number[], number[], number[]];
}

export function callColumns(calls: readonly CallTokens[], maxPoints = MAX_POINTS): CallColumns {
  const total = (c: CallTokens) => (c.fresh ?? 0) + (c.cacheRead ?? 0) + (c.cacheWrite ?? 0) + (c.output ?? 0);
  const drawn = drawnCalls(calls.length, (i) => total(calls[i]), maxPoints);
  const out: CallColumns = { x: [], call: drawn, binned: drawn.length < calls.length, fresh: [], cacheRead: [], cacheWrite: [], output: [], stacked: [[], [], [], []] };
  for (const k of drawn) {
    const c = calls[k];
    out.x.push(c.call + 1);
    out.fresh.push(c.fresh ?? null);
    out.cacheRead.push(c.cacheRead ?? null);
    out.cacheWrite.push(c.cacheWrite ?? null);
    out.output.push(c.output ?? null);
    let sum = 0;
    [c.fresh, c.cacheRead, c.cacheWrite, c.output].forEach((v, k) => { sum += v ?? 0; out.stacked[k].push(sum); });
  }
  return out;
}

/** The last call at or before event index `at` (-1 before the first): the call the cursor is in. */
export function callAtIndex(calls: readonly CallTokens[], at: number): number {
  return firstWhere(calls.length, (m) => !(calls[m].index <= at)) - 1;
}
