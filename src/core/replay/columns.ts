/**
 * The replay index's per-event columns and their widths: each column takes
 * the fewest bytes its values need, widened the first time one does not fit.
 */
import type { TimeColumn } from './time-column.ts';

/** Seqs, 4 bytes each while they fit (they always do in practice), 8 past 2^32 - 1. */
export type SeqColumn = Uint32Array | Float64Array;
/**
 * Turn and step numbers, 2 bytes each while they fit (they do in practice), 4 once one does not
 * (past 65535, negative or fractional: stored as an Int32Array stores it, as every value was before).
 */
export type CountColumn = Uint16Array | Int32Array;

/** Type ids, 1 byte each while a log has at most 256 types (the catalog has 60), wider past that. */
export type TypeColumn = Uint8Array | Uint16Array | Uint32Array;

/** A type column that can hold `id` (widened when it cannot). */
export function typeColumnFor(column: TypeColumn, id: number): TypeColumn {
  const bytes = id <= 0xff ? 1 : id <= 0xffff ? 2 : 4;
  if (bytes <= column.BYTES_PER_ELEMENT) return column;
  return bytes === 2 ? Uint16Array.from(column) : Uint32Array.from(column);
}

/** A turn or step column that can hold `value` as an Int32Array would (widened when a 2-byte one cannot). */
export function countColumnFor(column: CountColumn, value: number): CountColumn {
  return column instanceof Uint16Array && (value & 0xffff) !== value ? Int32Array.from(column) : column;
}

export interface ReplayColumns {
  seq: SeqColumn;
  typeId: TypeColumn;
  family: Uint8Array;
  turn: CountColumn;
  step: CountColumn;
  /** Milliseconds after the index's `timeBase` (time-column.ts). */
  time: TimeColumn;
  /** SURFACE_CHANGE code per event. */
  surfaceChange: Uint8Array;
  /** 1 where a model call starts (first chunk of a step's attempt, or a V4 assistant message/attempt). */
  requestCut: Uint8Array;
  /** 1 for events the restore appended (not in the file). */
  synthetic: Uint8Array;
}
