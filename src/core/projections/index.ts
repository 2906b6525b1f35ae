/** The projection registry, watermarks, persisted-cache semantics and DSH's domain units (docs/dsh-log-rules.md Part J). */
export * from './types.ts';
export { ProjectionRegistry, type CellInfo, type RegistryOptions } from './registry.ts';
export { foldProjections, type FoldProjectionsOptions } from './fold.ts';
export { coldRead, detachedCopy, restore, restoreFloor, viewCheckpoint, type ColdRead, type RestoreResult } from './cache.ts';
export { NOT_DERIVABLE, generationOf, unitsFor } from './units/index.ts';
export { projectionMismatches, projectionsOf, projectionsReport, type ProjectionReportEntry } from './report.ts';
