import { indexOfSeq } from './seq-index.ts';
import { countAtOrBelow } from '../util/sorted.ts';

/** At most one run per this many events, or the table keeps a copy of the column instead. */
const EVENTS_PER_RUN = 16;

/**
 * Every event's seq, as the worker keeps it once the page has the seq column
 * (docs/long-sessions.md). A log's seqs count up one an event with rare gaps (a rejected
 * line, a restore's closer), so the table keeps the runs: where each starts
 * and its seq minus its index. A log whose seqs jump often, or go back (a
 * corrupt one), keeps a copy of the column. Both answer as the column does.
 */
export class SeqTable {
  private constructor(
    readonly length: number,
    /** Runs: the event index each starts at (ascending) and its seq − index. */
    private readonly starts: Uint32Array,
    private readonly offsets: Float64Array,
    /** The column itself, when runs would not be fewer. */
    private readonly dense: ArrayLike<number> | null,
  ) {}

  /** The table of the first `count` seqs of a column. */
  static of(seqs: ArrayLike<number>, count = seqs.length): SeqTable {
    const n = Math.min(count, seqs.length);
    const limit = Math.max(4, Math.ceil(n / EVENTS_PER_RUN));
    const starts: number[] = [];
    const offsets: number[] = [];
    for (let i = 0; i < n; i++) {
      const s = seqs[i];
      // A seq that does not go up keeps the column: the binary searches must meet what the column holds.
      if (i > 0 && !(s > seqs[i - 1])) return SeqTable.copy(seqs, n);
      if (starts.length === 0 || s - i !== offsets[offsets.length - 1]) {
        if (starts.length === limit) return SeqTable.copy(seqs, n);
        starts.push(i);
        offsets.push(s - i);
      }
    }
    return new SeqTable(n, Uint32Array.from(starts), Float64Array.from(offsets), null);
  }

  private static copy(seqs: ArrayLike<number>, n: number): SeqTable {
    const column = seqs instanceof Uint32Array || seqs instanceof Float64Array ? seqs.slice(0, n) : Float64Array.from({ length: n }, (_, i) => seqs[i]);
    return new SeqTable(n, new Uint32Array(0), new Float64Array(0), column);
  }

  /** Whether the table keeps runs (not a copy of the column). */
  get compact(): boolean {
    return this.dense === null;
  }

  /** The seq of event `i` (undefined past the end, as the column's). */
  at(i: number): number | undefined {
    if (!(i >= 0 && i < this.length) || !Number.isInteger(i)) return undefined;
    if (this.dense) return this.dense[i];
    return i + this.offsets[this.runAt(i)];
  }

  /** The index of the event with this seq, else of the nearest one after it (clamped): `indexOfSeq` on the column. */
  indexOf(seq: number): number {
    if (this.dense) return indexOfSeq(this.dense, seq);
    const n = this.length;
    if (n === 0) return 0;
    // NaN is neither above nor below any seq: the column's search stops at its first middle.
    if (Number.isNaN(seq)) return (n - 1) >> 1;
    // The last run whose first seq is at or below it (runs' first seqs go up, as the seqs do).
    // Kept inline: measured 15% slower through the helper (firstWhere) on a per-event path.
    let lo = 0;
    let hi = this.starts.length - 1;
    if (seq < this.starts[0] + this.offsets[0]) return 0;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] + this.offsets[mid] <= seq) lo = mid; else hi = mid - 1;
    }
    const end = lo + 1 < this.starts.length ? this.starts[lo + 1] : n;
    const i = seq - this.offsets[lo];
    // In the run's gap after it (or past the end): the next run's first event.
    if (i >= end) return Math.min(end, n - 1);
    // A fractional seq between two of the run's: the one after it.
    return Number.isInteger(i) ? i : Math.min(Math.ceil(i), n - 1);
  }

  /** The run event `i` is in: the last that starts at or before it. */
  private runAt(i: number): number {
    return countAtOrBelow(this.starts, i) - 1;
  }
}
