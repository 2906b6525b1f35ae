import { z } from 'zod';
import type { ProjectionUnit } from '../types.ts';

const createdAt = z.number().int().nonnegative();
const knownVersion = z.union([z.literal(0), z.literal(1)]);

// Each mode's fact, strict as DSH's: another key, a version the mode does not have, a continuable child without a label all fail.
const oneShotFact = z.object({ version: knownVersion, childId: z.string(), childCreatedAt: createdAt, mode: z.literal('one-shot'), label: z.string().optional() }).strict();
const continuableFact = z.object({ version: knownVersion, childId: z.string(), childCreatedAt: createdAt, mode: z.literal('continuable'), label: z.string() }).strict();
const unknownFact = z.object({ version: z.literal(1), childId: z.string(), childCreatedAt: createdAt, mode: z.literal('unknown'), label: z.string().optional() }).strict();
const externalFact = z.object({ version: z.literal(2), childId: z.string(), childCreatedAt: createdAt, mode: z.literal('external'), label: z.string().optional() }).strict();
const factSchema = z.union([oneShotFact, externalFact, continuableFact, unknownFact]);

/** One `subagent/catalog` fact as DSH 0.2 accepts it (its payload, keys in the schema's order). */
export type CatalogFact = z.infer<typeof factSchema>;
/** A row of the catalog's view: the fact without its version, its child as `id` and `createdAt`. */
export type CatalogRow = { id: string; createdAt: number; mode: CatalogFact['mode']; label?: string };

export interface CatalogState {
  /** Facts before this seq came with a fork's seed (the parent's, not this session's): not read. */
  inheritedEventCount: number;
  /** The facts read, in log order (DSH keeps them in a chunked list; the order is the same). */
  facts: CatalogFact[];
}

const row = (mode: z.ZodType<CatalogFact['mode']>, label: z.ZodType<string | undefined>) => z.object({ mode, label, id: z.string(), createdAt }).strict();
const rowSchema = z.union([
  row(z.literal('one-shot'), z.string().optional()),
  row(z.literal('external'), z.string().optional()),
  row(z.literal('continuable'), z.string()),
  row(z.literal('unknown'), z.string().optional()),
]);

/** The fact as a view row: `{id, createdAt, mode, label?}`, the order DSH builds it in. */
function rowOf(fact: CatalogFact): CatalogRow {
  const out: CatalogRow = { id: fact.childId, createdAt: fact.childCreatedAt, mode: fact.mode };
  if (fact.label !== undefined) out.label = fact.label;
  return out;
}

/**
 * `subagentCatalog` (DSH 0.2.1-alpha.2, `subagent/catalog.ts`; not a
 * Part J unit, see dsh-log-rules V4.2): a parent's direct children, one row per
 * `subagent/catalog` fact in log order (a child listed twice is two rows, as
 * in DSH). Facts a fork inherited (seq below `inheritedEventCount`) are not
 * the session's own and are skipped. A fact DSH's strict schema refuses (an
 * unknown version, a mode its version does not have, a continuable child
 * without a label, an extra key) makes the fold throw, as DSH's does: the
 * unit then stops at that seq with the schema's words. Client-visible.
 */
export const subagentCatalogUnit: ProjectionUnit<CatalogState, CatalogRow[]> = {
  key: 'subagentCatalog',
  stateVersion: 6,
  stateSchema: z.object({ inheritedEventCount: z.number().int().nonnegative(), facts: z.array(factSchema) }).strict(),
  viewSchema: z.array(rowSchema),
  reads: ['subagent/catalog'],
  init: (_header, inheritedEventCount) => ({ inheritedEventCount, facts: [] }),
  apply: (state, event) => {
    if (event.type !== 'subagent/catalog' || event.seq < state.inheritedEventCount) return state;
    return { inheritedEventCount: state.inheritedEventCount, facts: [...state.facts, factSchema.parse(event.data)] };
  },
  view: (state) => state.facts.map(rowOf),
};
