/**
 * A followed log's summary lists that only grow at their end between two
 * refreshes, save an entry near it that changes (a finding or a snapshot
 * row the next events settle): a refresh sends each from its first entry
 * that differs from the one sent before, and the page keeps the rest
 * (issue #15: every refresh of a 1M-event log sent 6.5k findings and 8.5k
 * snapshot rows again, and the page's thread read them back).
 */
export interface ListsFrom {
  /** The Requests rows: the engine knows which calls a refresh changed (request-rows.ts). */
  requests: number;
  diagnostics: number;
  contextSnapshots: number;
}

export const WHOLE_LISTS: ListsFrom = { requests: 0, diagnostics: 0, contextSnapshots: 0 };

/** The plain lists a refresh sends from where they first differ. */
export type TailedList = 'diagnostics' | 'contextSnapshots';
export const TAILED_LISTS: readonly TailedList[] = ['diagnostics', 'contextSnapshots'];

/** Two rows of primitives and arrays of primitives, field by field. */
export function sameFlatRow(a: object, b: object): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    const x = (a as Record<string, unknown>)[k];
    const y = (b as Record<string, unknown>)[k];
    if (x === y) continue;
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length || x.some((v, i) => v !== y[i])) return false;
  }
  return true;
}

/** The first position where `now` differs from `sent` (its length when it only adds entries). */
export function firstDifference(sent: readonly object[], now: readonly object[]): number {
  const n = Math.min(sent.length, now.length);
  let i = 0;
  while (i < n && sameFlatRow(sent[i], now[i])) i++;
  return i;
}
