import type { ReplayColumns } from './replay-index.ts';

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
  const { surfaceChange, requestCut, typeId } = columns;
  const stepType = typeNames.indexOf('step/start');
  const turnType = typeNames.indexOf('turn/start');
  const matches = (i: number): boolean => {
    switch (kind) {
      case 'surface': return surfaceChange[i] !== SURFACE_CHANGE.none;
      case 'replace': return surfaceChange[i] === SURFACE_CHANGE.replace;
      case 'request': return requestCut[i] === 1;
      case 'step': return typeId[i] === stepType;
      case 'turn': return typeId[i] === turnType;
      case 'diagnostic': return diagnosticIndexes.has(i);
    }
  };
  for (let i = from + dir; i >= 0 && i < count; i += dir) if (matches(i)) return i;
  return null;
}
