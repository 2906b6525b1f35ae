import { z } from 'zod';
import { isAbsolutePath } from '../../log/header.ts';
import type { ProjectionUnit } from '../types.ts';

/**
 * A non-empty absolute directory, or null before one is recorded
 * (dsh-log-rules V4.4). Snapshot fixtures scrub the header cwd to `{{cwd}}` (header.placeholder
 * reports it); the unit shows that stand-in rather than failing on it.
 */
const PLACEHOLDER = /^\{\{[^}]+\}\}/;
const directorySchema = z.string().min(1).refine((p) => isAbsolutePath(p) || PLACEHOLDER.test(p), 'must be an absolute path').nullable();

/**
 * `workingDirectory` (dsh-log-rules V4.4; DSH 0.2.1-alpha.2
 * `packages/session/working-directory`, v1, wire unit): the session's
 * current directory. It starts as the header `cwd` (null without one) and
 * each `working-directory/change` replaces it with `data.cwd`; the header
 * keeps the original project. State = view.
 */
export const workingDirectoryUnit: ProjectionUnit<string | null, string | null> = {
  key: 'workingDirectory',
  stateVersion: 1,
  stateSchema: directorySchema,
  viewSchema: directorySchema,
  reads: ['working-directory/change'],
  init: (header) => (typeof header?.cwd === 'string' ? header.cwd : null),
  apply: (state, event) => {
    if (event.type !== 'working-directory/change') return state;
    // DSH stores data.cwd as logged; a missing one reads as null here (state stays
    // plain JSON) and a bad one fails the view schema, which the panel shows.
    const cwd: unknown = event.data?.cwd;
    return cwd === undefined ? null : (cwd as string | null);
  },
  view: (state) => state,
};
