/**
 * A followed log's summary lists that only grow at their end between two
 * refreshes, save an entry near it that changes (a finding or a snapshot
 * row the next events settle): a refresh sends each from its first entry
 * that differs from the one sent before, and the page keeps the rest
 * (every refresh of a 1M-event log used to send 6.5k findings and 8.5k
 * snapshot rows again, and the page's thread read them back).
 */
export interface ListsFrom {
  /** The Requests rows: the engine knows which calls a refresh changed (request-rows.ts). */
  requests: number;
  diagnostics: number;
  contextSnapshots: number;
}

export const WHOLE_LISTS: Readonly<ListsFrom> = Object.freeze({ requests: 0, diagnostics: 0, contextSnapshots: 0 });

/** The plain lists a refresh sends from where they first differ. */
export type TailedList = 'diagnostics' | 'contextSnapshots';

/** Two rows of primitives and arrays of primitives, field by field (no key list made: 15k rows per refresh). */
export function sameFlatRow(a: object, b: object): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let fields = 0;
  for (const k in x) {
    fields++;
    const u = x[k];
    const v = y[k];
    if (u === v && (u !== undefined || k in y)) continue;
    if (!Array.isArray(u) || !Array.isArray(v) || u.length !== v.length) return false;
    for (let i = 0; i < u.length; i++) if (u[i] !== v[i]) return false;
  }
  for (const _ in y) fields--;
  return fields === 0;
}

/** The first position where `now` differs from `sent` (its length when it only adds entries). */
export function firstDifference(sent: readonly object[], now: readonly object[]): number {
  const n = Math.min(sent.length, now.length);
  let i = 0;
  while (i < n && sameFlatRow(sent[i], now[i])) i++;
  return i;
}
