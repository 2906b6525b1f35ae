import type { LoadSummary } from '../worker/protocol.ts';

/**
 * Values derived from a log's replay columns, kept per rows and extended
 * when a later summary holds more of them. A loading or followed log's
 * columns grow in place: its summaries are views of the same arrays, rows
 * only added after those held (growing-columns.ts), so a value made from the
 * first n rows of these arrays is still right for them, and a summary with
 * more rows costs the new ones (each refresh of a followed 1M-event
 * log scanned every row again for the scrubber's step lists and the timeline's axis).
 * The rows are told apart by the seq column's buffer: another log, or the
 * same one grown past its arrays' room, has another.
 */
export class GrownRowsCache<T> {
  private readonly byRows = new WeakMap<ArrayBufferLike, { count: number; value: T }>();

  /**
   * `grow`: the value for `summary`, from `kept`, the value made for its first
   * `from` rows (undefined, and `from` 0, when made afresh).
   */
  constructor(private readonly grow: (summary: LoadSummary, kept: T | undefined, from: number) => T) {}

  get(summary: LoadSummary): T {
    const rows = summary.columns.seq.buffer;
    const kept = this.byRows.get(rows);
    if (kept?.count === summary.count) return kept.value;
    // An earlier summary of the same rows (fewer of them) is made afresh, leaving the longer one's value kept.
    if (kept && kept.count > summary.count) return this.grow(summary, undefined, 0);
    const value = kept ? this.grow(summary, kept.value, kept.count) : this.grow(summary, undefined, 0);
    this.byRows.set(rows, { count: summary.count, value });
    return value;
  }
}
