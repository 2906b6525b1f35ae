import { seriesValueAt, type CallTokens, type SurfaceSeries } from './series.ts';

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
}

export function usageColumns(surface: SurfaceSeries, calls: readonly CallTokens[]): UsageColumns {
  const loggedAt = new Map<number, number>();
  for (const c of calls) if (c.prompt !== undefined) loggedAt.set(c.index, Math.max(loggedAt.get(c.index) ?? 0, c.prompt));
  const xs = new Set<number>(surface.x);
  for (const c of calls) xs.add(c.index);
  const x = [...xs].sort((a, b) => a - b);
  const windows = calls.filter((c) => c.contextWindow !== undefined).sort((a, b) => a.index - b.index);
  const estimated: number[] = [];
  const logged: (number | null)[] = [];
  const window: (number | null)[] = [];
  let w = 0;
  let current: number | null = null;
  for (const at of x) {
    estimated.push(seriesValueAt(surface.x, surface.tokens, at));
    logged.push(loggedAt.get(at) ?? null);
    while (w < windows.length && windows[w].index <= at) current = windows[w++].contextWindow!;
    window.push(current);
  }
  return { x, estimated, logged, window };
}

/** Tokens per model call: x = call number (1-based); each bucket and the stacked tops. */
export interface CallColumns {
  x: number[];
  fresh: (number | null)[];
  cacheRead: (number | null)[];
  cacheWrite: (number | null)[];
  output: (number | null)[];
  /** Running sums for a stacked drawing: fresh, + cache read, + cache write, + output. */
  stacked: [number[], number[], number[], number[]];
}

export function callColumns(calls: readonly CallTokens[]): CallColumns {
  const out: CallColumns = { x: [], fresh: [], cacheRead: [], cacheWrite: [], output: [], stacked: [[], [], [], []] };
  for (const c of calls) {
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
  let lo = 0;
  let hi = calls.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (calls[mid].index <= at) lo = mid + 1; else hi = mid;
  }
  return lo - 1;
}
