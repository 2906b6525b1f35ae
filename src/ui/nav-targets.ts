import { navigationTargets, type NavKind } from '../core/replay/navigate.ts';
import type { LoadSummary } from '../worker/protocol.ts';
import { grownTo } from '../core/util/typed.ts';
import { countAtOrBelow } from '../core/util/sorted.ts';
import { GrownRowsCache } from './grown-rows-cache.ts';

type RowKind = Exclude<NavKind, 'event' | 'diagnostic'>;

/** The lists read from the rows alone, per rows (a longer log of the same rows extends them). */
const byRows = new GrownRowsCache<Map<RowKind, Int32Array>>(
  (summary, lists, from) => {
    const longer = new Map<RowKind, Int32Array>();
    if (!lists) return longer;
    for (const [kind, list] of lists) {
      const added = navigationTargets(summary.columns, summary.typeNames, summary.count, kind, undefined, from);
      const joined = grownTo(list, list.length + added.length);
      joined.set(added, list.length);
      longer.set(kind, joined);
    }
    return longer;
  },
);
/** The findings' lists, per summary (a refresh brings new findings with its rows). */
const findingTargets = new WeakMap<LoadSummary, Int32Array>();

/**
 * Where each kind of step can land, as a sorted list of event indexes per
 * log: found once with the core's `navigate` rule (one pass per kind, the
 * first time a kind is asked), then every step and every "is there a next
 * one?" is a binary search — a cursor move never scans the log. A loading
 * or followed log's lists are extended with its new rows (grown-rows-cache.ts).
 */
export function targetsOf(summary: LoadSummary, kind: Exclude<NavKind, 'event'>): Int32Array {
  if (kind === 'diagnostic') {
    let list = findingTargets.get(summary);
    if (!list) { list = navigationTargets(summary.columns, summary.typeNames, summary.count, kind, findingIndexes(summary)); findingTargets.set(summary, list); }
    return list;
  }
  const lists = byRows.get(summary);
  let list = lists.get(kind);
  if (!list) { list = navigationTargets(summary.columns, summary.typeNames, summary.count, kind); lists.set(kind, list); }
  return list;
}

/** The next (dir 1) or previous (dir -1) index of a kind from `from` (exclusive), or null. */
export function nextTarget(summary: LoadSummary, kind: NavKind, from: number, dir: 1 | -1): number | null {
  if (kind === 'event') {
    const i = from + dir;
    return i >= 0 && i < summary.count ? i : null;
  }
  return stepInSorted(targetsOf(summary, kind), from, dir);
}

/** In a sorted list of event indexes: the first entry after `from` (dir 1), or the last before it (dir -1); null when none. */
export function stepInSorted(list: ArrayLike<number>, from: number, dir: 1 | -1): number | null {
  // First entry > from.
  const lo = countAtOrBelow(list, from);
  if (dir === 1) return lo < list.length ? list[lo] : null;
  // Last entry < from.
  let k = lo - 1;
  if (k >= 0 && list[k] === from) k--;
  return k >= 0 ? list[k] : null;
}

/** Event indexes a finding points at (a finding on a line that became no event has none). */
export function findingIndexes(summary: LoadSummary): ReadonlySet<number> {
  return new Set(summary.diagnostics.flatMap((d) => (d.index !== undefined ? [d.index] : [])));
}

/** Findings with no event to go to (the header line, a line before any event). */
export function findingsWithoutEvent(summary: LoadSummary): number {
  return summary.diagnostics.filter((d) => d.index === undefined).length;
}
