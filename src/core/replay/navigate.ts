import type { ReplayColumns } from './columns.ts';

/** What an event did to the surface, as the replay columns code it. */
export const SURFACE_CHANGE = { none: 0, append: 1, replace: 2, project: 3, reject: 4 } as const;

export type NavKind = 'event' | 'surface' | 'replace' | 'request' | 'step' | 'turn' | 'diagnostic';

/** The columns navigation reads (the worker keeps these; the page has all of them). */
export type NavigationColumns = Pick<ReplayColumns, 'surfaceChange' | 'requestCut' | 'typeId'>;

/**
 * The next (dir 1) or previous (dir -1) event index of a kind, from index
 * `from` (exclusive), or null: a scan of the columns, so the page steps the
 * cursor without a round trip to the worker (a held key must not wait on
 * the cursor states it is asking for).
 */
export function navigate(
  columns: NavigationColumns,
  typeNames: readonly string[],
  count: number,
  kind: NavKind,
  from: number,
  dir: 1 | -1,
  diagnosticIndexes: ReadonlySet<number> = new Set(),
): number | null {
  if (kind === 'event') {
    const i = from + dir;
    return i >= 0 && i < count ? i : null;
  }
  const matches = targetRule(columns, typeNames, kind, diagnosticIndexes);
  for (let i = from + dir; i >= 0 && i < count; i += dir) if (matches(i)) return i;
  return null;
}

/**
 * Every index `navigate` can land on for a kind, ascending: one pass with the
 * same rule (the page's step lists are built from it once per log). `from`:
 * only events from there on (a rule reads its own event's row, so the list
 * for a longer log is the shorter one's plus these).
 */
export function navigationTargets(
  columns: NavigationColumns,
  typeNames: readonly string[],
  count: number,
  kind: Exclude<NavKind, 'event'>,
  diagnosticIndexes: ReadonlySet<number> = new Set(),
  from = 0,
): Int32Array {
  // The findings are few: their own indexes, sorted, rather than a set lookup per event.
  if (kind === 'diagnostic') return Int32Array.from([...diagnosticIndexes].filter((i) => Number.isInteger(i) && i >= from && i < count)).sort();
  const matches = targetRule(columns, typeNames, kind, diagnosticIndexes);
  const out: number[] = [];
  for (let i = from; i < count; i++) if (matches(i)) out.push(i);
  return new Int32Array(out);
}

/** Whether event `i` is a target of `kind`: chosen once per scan, so the scan's loop is one small call per event. */
function targetRule(columns: NavigationColumns, typeNames: readonly string[], kind: Exclude<NavKind, 'event'>, diagnosticIndexes: ReadonlySet<number>): (i: number) => boolean {
  const { surfaceChange, requestCut, typeId } = columns;
  switch (kind) {
    case 'surface': return (i) => surfaceChange[i] !== SURFACE_CHANGE.none;
    case 'replace': return (i) => surfaceChange[i] === SURFACE_CHANGE.replace;
    case 'request': return (i) => requestCut[i] === 1;
    case 'step': { const stepType = typeNames.indexOf('step/start'); return (i) => typeId[i] === stepType; }
    case 'turn': { const turnType = typeNames.indexOf('turn/start'); return (i) => typeId[i] === turnType; }
    case 'diagnostic': return (i) => diagnosticIndexes.has(i);
  }
}
