import type { Dialect, LogEvent, SessionHeader } from '../log/types.ts';
import { ProjectionRegistry, type RegistryOptions } from './registry.ts';
import type { AnyUnit } from './types.ts';
import { generationOf, unitsFor } from './units/index.ts';

export interface FoldProjectionsOptions extends RegistryOptions {
  /** The log's dialect (`read.dialect`); picks rc.8 or seed rules. Default v0. */
  dialect?: Dialect;
  /** Units to drive; default `unitsFor(dialect)`. */
  units?: readonly AnyUnit[];
  /** Drive only events with seq ≤ this (a replay cursor). */
  upTo?: number;
}

/**
 * Folds a session's events (logged + synthetic, as `foldSession` gives them)
 * through DSH's domain units and returns the registry, ready for
 * `snapshot()`, `cell(key)`, `checkpoint()` and, with `history`, time travel.
 */
export function foldProjections(
  header: SessionHeader | null,
  events: Iterable<LogEvent>,
  options: FoldProjectionsOptions = {},
): ProjectionRegistry {
  const dialect = options.dialect ?? 'v0';
  const registry = new ProjectionRegistry(header, options.units ?? unitsFor(dialect), {
    generation: generationOf(dialect),
    ...options,
  });
  for (const event of events) {
    if (options.upTo !== undefined && event.seq > options.upTo) break;
    registry.apply(event);
  }
  return registry;
}
