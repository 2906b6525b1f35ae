import { z } from 'zod';
import type { ProjectionUnit } from '../types.ts';
import { parseDescriptor } from './subagent-descriptor.ts';

export type SubagentIdentity =
  | { mode: 'one-shot'; label?: string; seq: number }
  | { mode: 'continuable'; label: string; seq: number };
export interface SubagentState {
  identity?: SubagentIdentity;
}

const identitySchema = z.union([
  z.object({ mode: z.literal('one-shot'), label: z.string().optional(), seq: z.number().int().nonnegative() }).strict(),
  z.object({ mode: z.literal('continuable'), label: z.string(), seq: z.number().int().nonnegative() }).strict(),
]);

/** The identity a descriptor establishes, or undefined when it cannot be trusted (never throws). */
function identityOf(data: unknown, seq: number): SubagentIdentity | undefined {
  let descriptor;
  try {
    descriptor = parseDescriptor(data);
  } catch {
    return undefined;
  }
  if (!descriptor) return undefined;
  if (descriptor.mode === 'continuable') return { mode: 'continuable', label: descriptor.label as string, seq };
  return descriptor.label !== undefined ? { mode: 'one-shot', label: descriptor.label, seq } : { mode: 'one-shot', seq };
}

/**
 * `subagent` (spec §4.10, v2): last-wins identity from
 * `subagent/descriptor`, so a child's own descriptor overrides one inherited
 * from its fork seed; an unparseable or other-version descriptor resets to
 * `{}` (view null).
 */
export const subagentUnit: ProjectionUnit<SubagentState, SubagentIdentity | null> = {
  key: 'subagent',
  stateVersion: 2,
  stateSchema: z.object({ identity: identitySchema.optional() }).strict(),
  viewSchema: identitySchema.nullable(),
  reads: ['subagent/descriptor'],
  init: () => ({}),
  apply: (state, event) => {
    if (event.type !== 'subagent/descriptor') return state;
    const identity = identityOf(event.data, event.seq);
    return identity === undefined ? {} : { identity };
  },
  view: (state) => state.identity ?? null,
};
