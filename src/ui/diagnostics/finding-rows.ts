import type { Diagnostic, Severity } from '../../core/diagnostics/diagnostic.ts';

/** Most severe first, as the list shows its groups. */
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

const RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

/** A group's heading, or one finding under it. */
export type FindingRow<D extends Diagnostic = Diagnostic> =
  | { kind: 'group'; severity: Severity; count: number; open: boolean }
  | { kind: 'finding'; finding: D };

/**
 * A group shows its findings until the user says otherwise, except a long
 * info group: a log can hold thousands of notes, and they would bury the
 * warnings below the fold.
 */
export function openByDefault(severity: Severity, count: number): boolean {
  return severity !== 'info' || count < 50;
}

/**
 * The findings at or above `minSeverity` as one flat list of rows, a
 * heading per non-empty severity followed by its findings when the group is
 * open (`opened` holds the user's choices; others follow `openByDefault`).
 * Flat, so the list can be drawn a screen at a time.
 */
export function findingRows<D extends Diagnostic>(findings: readonly D[], minSeverity: Severity, opened: Partial<Record<Severity, boolean>>): FindingRow<D>[] {
  const rows: FindingRow<D>[] = [];
  for (const severity of SEVERITIES) {
    if (RANK[severity] < RANK[minSeverity]) continue;
    const group = findings.filter((d) => d.severity === severity);
    if (group.length === 0) continue;
    const open = opened[severity] ?? openByDefault(severity, group.length);
    rows.push({ kind: 'group', severity, count: group.length, open });
    if (open) for (const finding of group) rows.push({ kind: 'finding', finding });
  }
  return rows;
}
