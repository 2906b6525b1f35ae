/**
 * Event times as milliseconds after the index's `timeBase` (its first event's
 * time): 4 bytes each while they are within ±24 days of it, as a session's
 * are; 8 once one is not. The time of event i is `timeBase + time[i]` in both
 * forms. A module of its own: the page reads times without the replay index.
 */
export type TimeColumn = Int32Array | Float64Array;

/** Event `i`'s time (epoch ms) from the columns and their base. */
export function timeAt(columns: { time: TimeColumn }, timeBase: number, i: number): number {
  return timeBase + columns.time[i];
}

/** A time column that can hold `offset` (a copy as 8-byte values when a 4-byte one cannot). */
export function timeColumnFor(column: TimeColumn, offset: number): TimeColumn {
  return column instanceof Int32Array && (offset | 0) !== offset ? Float64Array.from(column) : column;
}
