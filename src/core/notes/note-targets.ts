import { countAtOrBelow } from '../util/sorted.ts';
import type { Note } from './note.ts';

/**
 * Where each note lands in a log: the event index of its seq, or of the first
 * event after it when the log has no event there (a note made on a longer
 * or different copy); -1 past the log's end. In note order.
 */
export function noteIndexes(notes: readonly Note[], seqs: ArrayLike<number>, count: number): Int32Array {
  const out = new Int32Array(notes.length);
  notes.forEach((n, k) => {
    const i = firstAtOrAfter(seqs, count, n.seq);
    out[k] = i < count ? i : -1;
  });
  return out;
}

/** Whether the log holds an event at the note's own seq. */
export function noteIsOnLog(note: Note, seqs: ArrayLike<number>, count: number): boolean {
  const i = firstAtOrAfter(seqs, count, note.seq);
  return i < count && seqs[i] === note.seq;
}

/** The first of the log's `count` events whose seq is at or after `seq` (seqs ascend, whole numbers). */
export function firstAtOrAfter(seqs: ArrayLike<number>, count: number, seq: number): number {
  return countAtOrBelow(seqs, seq - 1, count);
}

/** The distinct note indexes, ascending: the stops of the next/previous note step. */
export function noteStops(indexes: Int32Array): Int32Array {
  return Int32Array.from(new Set(Array.from(indexes).filter((i) => i >= 0))).sort();
}
