import type { TimeColumn } from '../../core/replay/time-column.ts';

/**
 * The events list's rows after its family filter and sort, as event indexes.
 * Linear where it can be (a 1M-event log): by type, a counting
 * sort over the type ids ranked once by name; by time, one sort of indexes.
 */
export interface RowColumns {
  family: ArrayLike<number>;
  typeId: ArrayLike<number>;
  time: TimeColumn;
}

/** Events of the shown families, in seq order, by type name (then seq) or by logged time (then seq). */
export function sortedRows(count: number, columns: RowColumns, typeNames: readonly string[], hiddenFamilies: ReadonlySet<number>, sort: 'seq' | 'type' | 'time'): Uint32Array {
  const shown = (i: number) => !hiddenFamilies.has(columns.family[i]);
  if (sort === 'type') return byType(count, columns.typeId, typeNames, shown);
  const out: number[] = [];
  for (let i = 0; i < count; i++) if (shown(i)) out.push(i);
  // Offsets from one base compare as the times do.
  const time = columns.time;
  if (sort === 'time') out.sort((a, b) => time[a] - time[b] || a - b);
  return Uint32Array.from(out);
}

/** A counting sort: each type's events keep their seq order, types follow their names' order. */
function byType(count: number, typeId: ArrayLike<number>, typeNames: readonly string[], shown: (i: number) => boolean): Uint32Array {
  const order = typeNames.map((_, id) => id).sort((a, b) => typeNames[a].localeCompare(typeNames[b]) || a - b);
  const rank = new Uint32Array(typeNames.length);
  order.forEach((id, r) => { rank[id] = r; });
  const starts = new Uint32Array(typeNames.length + 1);
  let total = 0;
  for (let i = 0; i < count; i++) if (shown(i)) { starts[rank[typeId[i]] + 1]++; total++; }
  for (let r = 1; r < starts.length; r++) starts[r] += starts[r - 1];
  const out = new Uint32Array(total);
  for (let i = 0; i < count; i++) if (shown(i)) out[starts[rank[typeId[i]]]++] = i;
  return out;
}

/** Row of each event in `rows` (-1 for an event not shown): the cursor's row in one lookup per step. */
export function rowOfEvents(rows: ArrayLike<number>, count: number): Int32Array {
  const out = new Int32Array(count).fill(-1);
  for (let r = 0; r < rows.length; r++) out[rows[r]] = r;
  return out;
}

/** The highest turn and step among events [from, count), starting from `kept` (a grown log's earlier rows'). */
export function columnMaxima(columns: { turn: ArrayLike<number>; step: ArrayLike<number> }, count: number, from = 0, kept = { turn: 0, step: 0 }): { turn: number; step: number } {
  let { turn, step } = kept;
  for (let i = from; i < count; i++) {
    if (columns.turn[i] > turn) turn = columns.turn[i];
    if (columns.step[i] > step) step = columns.step[i];
  }
  return { turn, step };
}

/**
 * Characters the seq and turn.step columns need for this log: a long session
 * has 5-digit turns and 7-digit seqs, wider than a short log's columns.
 * From the highest turn and step (`columnMaxima`) and the seqs at the log's ends.
 */
export function columnCharsOf({ turn, step }: { turn: number; step: number }, columns: { seq: ArrayLike<number> }, count: number): { seq: number; turnStep: number } {
  let seq = 1;
  // Seqs rise, so the widest is at an end (a corrupt log's negative first seq included).
  if (count > 0) seq = Math.max(String(columns.seq[0]).length, String(columns.seq[count - 1]).length);
  return { seq, turnStep: String(turn).length + 1 + String(step).length };
}
