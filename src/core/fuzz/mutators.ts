/**
 * Seeded mutators over a log's text and bytes, one family a file under
 * mutators/, and the weighted table that picks them. The table's order is the
 * order a seed draws from: a new mutator goes at its end, or old seeds replay
 * as other cases.
 */
import type { Rng } from '../generate/prng.ts';
import type { FuzzBase } from './base.ts';
import type { MutateOptions, Mutation, Mutator } from './mutation.ts';
import { gzip, zstd } from './mutators/encodings.ts';
import { removeField, wrongType } from './mutators/fields.ts';
import { harmless } from './mutators/harmless.ts';
import { breakJson, dropLine, duplicateLine, flipBytes, renumberSeqs, swapLines, truncate, truncateAt } from './mutators/lines.ts';
import { bigNumbers, blankLines, deepNesting, expanding, giantLine, giantString, hugeLine } from './mutators/sizes.ts';
import { packedRows, surfaceRefs } from './mutators/surface.ts';
import { dsh021Vocabulary, insertLogOnlyWithOp, insertUnknown, payloadVersion, sourceKind } from './mutators/vocabulary.ts';

export type { Fault, MutateOptions, Mutation, Mutator } from './mutation.ts';
export { nested } from './mutators/sizes.ts';
export { decodePlain } from './rows.ts';

export const MUTATORS: Readonly<Record<string, { weight: number; mutate: Mutator }>> = {
  truncate: { weight: 10, mutate: truncate },
  'flip-bytes': { weight: 10, mutate: flipBytes },
  'drop-line': { weight: 5, mutate: dropLine },
  'duplicate-line': { weight: 4, mutate: duplicateLine },
  'swap-lines': { weight: 4, mutate: swapLines },
  renumber: { weight: 5, mutate: renumberSeqs },
  'break-json': { weight: 8, mutate: breakJson },
  'remove-field': { weight: 8, mutate: removeField },
  'wrong-type': { weight: 8, mutate: wrongType },
  'insert-unknown': { weight: 6, mutate: insertUnknown },
  'log-only-with-surface': { weight: 2, mutate: insertLogOnlyWithOp },
  'dsh021-vocabulary': { weight: 5, mutate: dsh021Vocabulary },
  'payload-version': { weight: 2, mutate: payloadVersion },
  'source-kind': { weight: 2, mutate: sourceKind },
  'surface-refs': { weight: 10, mutate: surfaceRefs },
  'packed-rows': { weight: 5, mutate: packedRows },
  'huge-line': { weight: 2, mutate: hugeLine },
  'deep-nesting': { weight: 3, mutate: deepNesting },
  zstd: { weight: 5, mutate: zstd },
  gzip: { weight: 2, mutate: gzip },
  harmless: { weight: 4, mutate: harmless },
  'giant-line': { weight: 2, mutate: giantLine },
  'giant-string': { weight: 1, mutate: giantString },
  'blank-lines': { weight: 1, mutate: blankLines },
  'big-numbers': { weight: 2, mutate: bigNumbers },
  expanding: { weight: 1, mutate: expanding },
};

/** Picks a mutator by weight and applies it; retries when it does not apply to this base. */
export function mutate(base: FuzzBase, rng: Rng, options: MutateOptions, only?: string): Mutation {
  const names = only ? [only] : Object.keys(MUTATORS);
  const total = names.reduce((n, k) => n + MUTATORS[k].weight, 0);
  for (let tries = 0; tries < 50; tries++) {
    let roll = rng.float() * total;
    let name = names[names.length - 1];
    for (const k of names) { roll -= MUTATORS[k].weight; if (roll < 0) { name = k; break; } }
    const m = MUTATORS[name].mutate(base, rng, options);
    if (m) return m;
  }
  return truncateAt(base, base.bytes.length); // the identity: always applies
}

