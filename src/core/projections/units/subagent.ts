import { z } from 'zod';
import type { ProjectionUnit } from '../types.ts';
import { parseDescriptor, type DescriptorVersion } from './subagent-descriptor.ts';

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
function identityOf(data: unknown, seq: number, known: DescriptorVersion): SubagentIdentity | undefined {
  let descriptor;
  try {
    descriptor = parseDescriptor(data, known);
  } catch {
    return undefined;
  }
  if (!descriptor) return undefined;
  if (descriptor.mode === 'continuable') return { mode: 'continuable', label: descriptor.label as string, seq };
  return descriptor.label !== undefined ? { mode: 'one-shot', label: descriptor.label, seq } : { mode: 'one-shot', seq };
}

/**
 * `subagent` (dsh-log-rules J4.10, v2): last-wins identity from
 * `subagent/descriptor`, so a child's own descriptor overrides one inherited
 * from its fork seed; an unparseable or other-version descriptor resets to
 * `{}` (view null). `known`: the descriptor version the log's DSH writes
 * (3 in format 4, as 0.2.x's child logs in the corpus do; 2 before).
 */
export function subagentUnitOf(known: DescriptorVersion): ProjectionUnit<SubagentState, SubagentIdentity | null> {
  return {
    key: 'subagent',
    stateVersion: 2,
    stateSchema: z.object({ identity: identitySchema.optional() }).strict(),
    viewSchema: identitySchema.nullable(),
    reads: ['subagent/descriptor'],
    init: () => ({}),
    apply: (state, event) => {
      if (event.type !== 'subagent/descriptor') return state;
      const identity = identityOf(event.data, event.seq, known);
      return identity === undefined ? {} : { identity };
    },
    view: (state) => state.identity ?? null,
  };
}

/** The unit before format 4 (descriptor version 2). */
export const subagentUnit = subagentUnitOf(2);
