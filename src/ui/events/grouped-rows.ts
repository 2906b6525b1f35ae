import { runsRedo } from '../../core/replay/stream-runs.ts';
import type { LoadSummary } from '../../worker/protocol.ts';
import { firstWhere } from '../../core/util/sorted.ts';

/**
 * The Events list's rows in seq order with each stream folded into one row:
 * `-(start + 1)` stands for a stream's own row, followed by its events when
 * it is open. Hidden families drop their events (a hidden chunk family drops
 * the streams). Rows ascend by the event they start at.
 */
export function groupedRows(count: number, runs: Uint32Array, open: ReadonlySet<number>, hidden: (i: number) => boolean): Float64Array {
  const { out, n } = freshRows(count, runs, open, hidden);
  return out.subarray(0, n);
}

/** The rows made afresh: at most every event and a row per stream, filled in place (no boxed number per row: 1M rows at a log's end). */
function freshRows(count: number, runs: Uint32Array, open: ReadonlySet<number>, hidden: (i: number) => boolean): { out: Float64Array; n: number } {
  const out = new Float64Array(count + runs.length / 2);
  return { out, n: fill(out, 0, 0, count, runs, open, hidden) };
}

/** Writes the rows of events [from, count) into `out` from position `n` (`from` not inside a run); gives the rows' end. */
function fill(out: Float64Array, n: number, from: number, count: number, runs: Uint32Array, open: ReadonlySet<number>, hidden: (i: number) => boolean): number {
  let r = firstRunEndingAfter(runs, from);
  for (let i = from; i < count;) {
    while (r < runs.length && runs[r + 1] <= i) r += 2;
    if (r < runs.length && runs[r] === i && !hidden(i)) {
      out[n++] = -(i + 1);
      const end = runs[r + 1];
      if (open.has(i)) for (let k = i; k < end; k++) out[n++] = k;
      i = end;
      continue;
    }
    if (!hidden(i)) out[n++] = i;
    i++;
  }
  return n;
}

/** The pair position of the first run that ends after event `i`. */
function firstRunEndingAfter(runs: Uint32Array, i: number): number {
  return 2 * firstWhere(runs.length / 2, (m) => !(runs[2 * m + 1] <= i));
}

/** The first row position whose event is `i` or later. */
function firstRowFrom(rows: Float64Array, n: number, i: number): number {
  return firstWhere(n, (m) => { const v = rows[m]; return !((v < 0 ? -v - 1 : v) < i); });
}

interface Made {
  /** The rows' log, told apart as GrownRowsCache does: by its seq column's buffer. */
  rowsKey: ArrayBufferLike;
  count: number;
  runs: Uint32Array;
  open: ReadonlySet<number>;
  hiddenBits: number;
  /** The rows, with room after `n` for more. */
  out: Float64Array;
  n: number;
}

/**
 * Grouped rows kept and extended as a loading or followed log grows (its
 * rows only added after those held, growing-columns.ts): the rows before
 * the first event whose stream may change (`runsRedo`) stay, so a refresh
 * of a followed 1M-event log costs its new events, not a walk of every one
 * (docs/long-sessions.md). The rows given are a view that a later call may write past;
 * use the newest. Opening a stream or hiding a family makes them afresh.
 */
export class GroupedRowsCache {
  private made: Made | null = null;

  rows(summary: LoadSummary, runs: Uint32Array, open: ReadonlySet<number>, hiddenBits: number): Float64Array {
    const { count } = summary;
    const family = summary.columns.family;
    const hidden = (i: number) => ((hiddenBits >> family[i]) & 1) === 1;
    const m = this.made;
    if (m && m.rowsKey === summary.columns.seq.buffer && m.open === open && m.hiddenBits === hiddenBits && m.count <= count) {
      if (m.count === count && m.runs === runs) return m.out.subarray(0, m.n);
      const { from } = runsRedo(m.runs, m.count);
      const keep = firstRowFrom(m.out, m.n, from);
      const need = keep + (count - from) + runs.length / 2;
      let out = m.out;
      if (need > out.length) {
        // Room for a quarter more: a followed log grows by a few rows per refresh.
        out = new Float64Array(Math.ceil(need * 1.25));
        out.set(m.out.subarray(0, keep));
      }
      const n = fill(out, keep, from, count, runs, open, hidden);
      this.made = { ...m, count, runs, out, n };
      return out.subarray(0, n);
    }
    const { out, n } = freshRows(count, runs, open, hidden);
    this.made = { rowsKey: summary.columns.seq.buffer, count, runs, open, hiddenBits, out, n };
    return out.subarray(0, n);
  }
}
