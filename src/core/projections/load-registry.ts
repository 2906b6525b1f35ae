import type { LogEvent, LogMeta } from '../log/types.ts';
import { ProjectionRegistry } from './registry.ts';
import { generationOf, unitsFor } from './units/index.ts';

/**
 * The registry a load drives (one rule for the load's walk and for a helper
 * worker that folds the units on another core): every unit of the dialect,
 * history kept compactly (a state every HISTORY_EVERY changes, the ones
 * between folded again from `eventAt`), no kept events, no change frames.
 * The purity audit (deep freeze, equal-state checks on every event) is for
 * tests and the CLI; the load's states only leave the worker as clones.
 * Without `eventAt` every state is kept. A helper that only records the
 * history for another registry passes one that finds no event (it never
 * folds again itself), so it keeps the same states the load would.
 */
export function loadRegistry(meta: LogMeta, eventAt: ((seq: number) => LogEvent | undefined) | undefined): ProjectionRegistry {
  return new ProjectionRegistry(meta.header, unitsFor(meta.dialect), {
    generation: generationOf(meta.dialect), history: true, keepEvents: false, purity: false, frames: false, eventAt,
  });
}
