// What a mutator returns: the mutated input and the fault the case runner must then see explained.
import type { Rng } from '../generate/prng.ts';
import type { FuzzBase } from './base.ts';

/**
 * Seeded mutators over a log's text and bytes. Each returns the mutated
 * input and what the case runner must then see: where the fault is to be
 * explained, or that the mutation is harmless and the results must match
 * the base's.
 */
export type Fault =
  /** A valid variant: no new error diagnostics. */
  | { kind: 'none' }
  /** Anything may happen (a byte flip inside a string is a different valid log). */
  | { kind: 'maybe' }
  /** A new warning/error diagnostic at this line (exact) or at/after it. */
  | { kind: 'line'; line: number; exact: boolean }
  /** A new warning/error diagnostic naming this seq, or the line of its row. */
  | { kind: 'seq'; seq: number; line: number };

export interface Mutation {
  mutator: string;
  detail: string;
  /** Plain input as text (encoded to UTF-8) or as bytes. */
  text?: string;
  bytes?: Uint8Array;
  encoding: 'plain' | 'zstd' | 'gzip';
  /** Decoded text known to precede the fault (compressed inputs); plain inputs diff against the base. */
  prefixText?: string;
  fault: Fault;
  /**
   * The mutation must not change what the log means: the same events
   * (`sameEvents`), or the same surface after mapping base seqs (`seqShift`:
   * seqs ≥ at move up by one, an inserted opaque event).
   */
  equivalent?: { sameEvents?: true; seqShift?: { at: number } };
  /** The reader's line limit for this case (set low so giant lines stay cheap to build). */
  maxLineChars?: number;
  /** Decoded size of an input built to expand (a bomb), or of a huge line or run of blank lines: the runner checks memory stays bounded while reading it. */
  expands?: number;
}

export interface MutateOptions {
  /** Size range of inserted huge lines, bytes. */
  hugeBytes: [number, number];
  /** Deepest nesting the deep-nesting mutator tries (default 1,000,000). */
  maxDepth?: number;
  /** Decoded size range of expansion-heavy zstd/gzip inputs, bytes (default: hugeBytes). */
  bombBytes?: [number, number];
}

export type Mutator = (base: FuzzBase, rng: Rng, options: MutateOptions) => Mutation | null;
