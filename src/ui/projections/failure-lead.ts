import type { ProjectionFailure } from '../../core/projections/types.ts';

/** The words before a unit's failure seq: its fold threw there, recorded a failure there, or its view has failed its schema since. */
export function failureLead(failure: Pick<ProjectionFailure, 'kind'>): string {
  if (failure.kind === 'threw') return 'fold failed at';
  if (failure.kind === 'domain') return 'fold recorded a failure at';
  return 'failing since';
}
