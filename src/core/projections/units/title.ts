import { z } from 'zod';
import type { ProjectionUnit } from '../types.ts';

/**
 * `title` (dsh-log-rules J4.5): last-wins over `session/title`; state = view =
 * string | null; v1 in rc.8 and seed. The title may come from a fork's
 * inherited prefix.
 */
export const titleUnit: ProjectionUnit<string | null, string | null> = {
  key: 'title',
  stateVersion: 1,
  stateSchema: z.union([z.string(), z.null()]),
  viewSchema: z.union([z.string().min(1), z.null()]),
  reads: ['session/title'],
  init: () => null,
  apply: (state, event) => (event.type === 'session/title' ? event.data?.title : state),
  view: (state) => state,
};
