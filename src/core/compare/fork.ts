import type { CompareRun } from './run.ts';

/**
 * The fork relation between two runs (dsh-log-rules L1.7): a child's log
 * starts with a copy of its parent's events 0..N−1 (same seqs), so the
 * calls cut before N are the parent's own, inherited.
 */
export interface ForkRelation {
  /** Which side is the child. */
  child: 'a' | 'b';
  /** The inherited event count N (0: a child with no inherited prefix, such as a fresh subagent). */
  cutSeq: number;
  /** The child's calls cut before N. */
  inheritedCalls: number;
}

/**
 * The inherited event count of a run, or 0 when it has no inherited
 * prefix (L1.7): rc.8/V0–V1 give it as header `seedLength`; V2+ mark a
 * seeded log `isSeeded` and N is the seq of the last
 * `session/end-seed {inherited:true}`.
 */
export function inheritedCount(run: CompareRun): number {
  const header = run.header;
  if (!header) return 0;
  if ((header.version ?? 0) < 2) return typeof header.seedLength === 'number' && header.seedLength > 0 ? header.seedLength : 0;
  if (header.isSeeded !== true) return 0;
  const marker = run.typeNames.indexOf('session/end-seed');
  if (marker < 0) return 0;
  const { typeId } = run.columns;
  for (let i = run.count - 1; i >= 0; i--) {
    if (typeId[i] !== marker) continue;
    const seq = run.seqAt(i)!;
    if (run.eventAt(seq)?.data?.inherited === true) return seq;
  }
  return 0;
}

/** The relation when one run's header names the other as its parent, else null. */
export function forkRelation(a: CompareRun, b: CompareRun): ForkRelation | null {
  const child = b.header?.parentSession !== undefined && b.header.parentSession === a.header?.id ? 'b'
    : a.header?.parentSession !== undefined && a.header.parentSession === b.header?.id ? 'a' : null;
  if (!child) return null;
  const run = child === 'a' ? a : b;
  const cutSeq = inheritedCount(run);
  let inheritedCalls = 0;
  while (inheritedCalls < run.requests.length && run.requests[inheritedCalls].cut < cutSeq) inheritedCalls++;
  return { child, cutSeq, inheritedCalls };
}
