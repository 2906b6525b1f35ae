import { diffLines } from 'diff';
import type { ContextSnapshotSection } from './render.ts';

/**
 * Section-level diff of two runtime-context snapshots (dsh-log-rules P4.4),
 * keyed by section name, with a bounded line diff inside changed
 * sections so a huge section cannot hang the page.
 */

export type SectionStatus = 'added' | 'removed' | 'changed' | 'unchanged';

export interface LinePart {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

export interface SectionDiff {
  name: string;
  status: SectionStatus;
  before?: string;
  after?: string;
  /** Line diff for `changed` sections; null when the edit limit was hit (show both texts whole). */
  lines?: LinePart[] | null;
}

export interface SnapshotDiff {
  /** B's sections in order, then sections only A had, in A's order. */
  sections: SectionDiff[];
  /** Same set of names, different order. */
  reordered: boolean;
  /** B is the CLEARED marker: every section of A is removed. */
  cleared: boolean;
  /** Nothing differs at section level. */
  identical: boolean;
}

export interface DiffLimits {
  /** Passed to `diff` as maxEditLength (default 2000 edits). */
  maxEditLength?: number;
  /** Passed to `diff` as timeout in ms (default 200). */
  timeoutMs?: number;
}

export interface SnapshotLike {
  sections: readonly ContextSnapshotSection[];
  form?: 'snapshot' | 'cleared' | 'legacy';
}

/** Line diff bounded by edit length and time; null when a limit stops it. */
export function boundedLineDiff(before: string, after: string, limits: DiffLimits = {}): LinePart[] | null {
  const result = diffLines(before, after, { maxEditLength: limits.maxEditLength ?? 2000, timeout: limits.timeoutMs ?? 200 });
  if (!result) return null;
  return result.map((c) => ({ kind: c.added ? 'added' : c.removed ? 'removed' : 'same', text: c.value }));
}

/** Diff A → B. A missing A (first snapshot) makes every section of B added. */
export function diffSnapshots(a: SnapshotLike | undefined, b: SnapshotLike, limits: DiffLimits = {}): SnapshotDiff {
  const before = new Map((a?.sections ?? []).map((s) => [s.name, s.text] as const));
  const afterNames = new Set(b.sections.map((s) => s.name));
  const sections: SectionDiff[] = [];
  for (const s of b.sections) {
    if (!before.has(s.name)) {
      sections.push({ name: s.name, status: 'added', after: s.text });
      continue;
    }
    const old = before.get(s.name)!;
    if (old === s.text) sections.push({ name: s.name, status: 'unchanged', before: old, after: s.text });
    else sections.push({ name: s.name, status: 'changed', before: old, after: s.text, lines: boundedLineDiff(old, s.text, limits) });
  }
  for (const s of a?.sections ?? []) {
    if (!afterNames.has(s.name)) sections.push({ name: s.name, status: 'removed', before: s.text });
  }
  const common = (names: string[]) => names.filter((n) => before.has(n) && afterNames.has(n));
  const aOrder = common((a?.sections ?? []).map((s) => s.name));
  const bOrder = common(b.sections.map((s) => s.name));
  const reordered = aOrder.some((n, i) => n !== bOrder[i]);
  return {
    sections,
    reordered,
    cleared: b.form === 'cleared',
    identical: !reordered && sections.every((s) => s.status === 'unchanged'),
  };
}
