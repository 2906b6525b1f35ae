import type { LogEvent, ReadMeta } from '../log/types.ts';
import { jsonEqual } from '../util/json.ts';
import { foldProjections, type FoldProjectionsOptions } from './fold.ts';
import type { ProjectionRegistry } from './registry.ts';
import type { ProjectionFailure, ProjectionSnapshot } from './types.ts';

/**
 * Glue for the CLI and the conformance runner, so `inspect.ts` and
 * `conformance-lib.ts` need only a call each.
 */

/** The projections of a folded session (`foldSession(read)`), optionally up to a cursor. */
export function projectionsOf(session: { read: ReadMeta; events: Iterable<LogEvent> }, options: FoldProjectionsOptions = {}): ProjectionRegistry {
  return foldProjections(session.read.header, session.events, { dialect: session.read.dialect, ...options });
}

export interface ProjectionReportEntry {
  observedSeq: number;
  value: unknown;
  hostOnly?: true;
  failure?: ProjectionFailure;
}

/** `inspect --json` → `projections: {key: {observedSeq, value, failure?}}` (host-only units flagged). */
export function projectionsReport(registry: ProjectionRegistry): Record<string, ProjectionReportEntry> {
  const snap = registry.snapshot();
  const out: Record<string, ProjectionReportEntry> = {};
  for (const unit of registry.units) {
    const cell = registry.cell(unit.key)!;
    const failure = snap.failures?.[unit.key];
    out[unit.key] = {
      observedSeq: cell.observedSeq,
      value: cell.view,
      ...(unit.hostOnly ? { hostOnly: true as const } : {}),
      ...(failure ? { failure } : {}),
    };
  }
  return out;
}

/**
 * Reference comparison (corpus expected `projections`): per key, value by
 * deep equality and `asOfSeq` (which counts the appended end-seed). A null
 * reference (DSH refused the log) compares nothing.
 */
export function projectionMismatches(
  expected: Record<string, { asOfSeq: number; value: unknown }> | null | undefined,
  snapshot: ProjectionSnapshot,
): { path: string; expected: unknown; actual: unknown }[] {
  const out: { path: string; expected: unknown; actual: unknown }[] = [];
  for (const [key, ref] of Object.entries(expected ?? {})) {
    const actual = snapshot.values[key];
    if (!jsonEqual(ref.value, actual)) out.push({ path: `projections.${key}.value`, expected: ref.value, actual });
    if (ref.asOfSeq !== snapshot.asOfSeq) out.push({ path: `projections.${key}.asOfSeq`, expected: ref.asOfSeq, actual: snapshot.asOfSeq });
  }
  return out;
}
