import type { ReplayColumns } from '../core/replay/replay-index.ts';
import type { LoadSummary } from '../worker/protocol.ts';
import { grownTo, type GrowableArray } from '../core/util/typed.ts';

/**
 * Replay columns the page builds up from rows the worker sends in pieces: a
 * loading log's progress reports, a followed log's refreshes. Each piece is
 * written at its first row's index into arrays with room to spare, and the
 * columns read as views of the rows held, so a piece costs its own rows, not
 * a copy of the log's.
 */
export class GrowingColumns {
  private columns: ReplayColumns | null = null;
  private n = 0;

  /**
   * `growth`: how much room a full array grows by. A loading log's arrays are sized from the rows it
   * expects; a followed log's grow by a quarter, so the page holds at most that much unused room
   * (doubling left a 1M-event log's columns with up to 17 MB unused).
   */
  constructor(private readonly growth = 2) {}

  /** Rows held. */
  get length(): number {
    return this.n;
  }

  /**
   * Writes `add`'s rows after the rows held (`from`: their count) and returns
   * views of every row. Rows held are never written again, so data derived
   * from the rows in these arrays stays true as more come (grown-rows-cache.ts).
   * `expected`: the rows the log will likely hold, so the arrays are sized
   * once (doubling from a small start copied a 1M-event log's columns a dozen times);
   * `last`: no rows will follow these, so arrays that must grow grow to fit them exactly.
   */
  put(add: ReplayColumns, from: number, expected = 0, last = false): ReplayColumns {
    if (from !== this.n) throw new Error(`rows from ${from} do not follow the ${this.n} held`);
    const count = add.seq.length;
    const size = Math.ceil(expected * 1.05);
    if (!this.columns) this.columns = mapColumns(add, (a) => grownTo(a, last ? from + count : Math.max(1024, Math.ceil((from + count) * this.growth), size)));
    else if (from + count > this.columns.seq.length) {
      const grown = last ? from + count : Math.max(Math.ceil(this.columns.seq.length * this.growth), from + count, size);
      this.columns = mapColumns(this.columns, (a) => grownTo(a, grown));
    }
    const c = this.columns;
    // A column the worker widened (seqs past 2^32 - 1, turns past 65535: replay-index.ts) widens here too.
    for (const key of Object.keys(add) as (keyof ReplayColumns)[]) {
      if (add[key].BYTES_PER_ELEMENT > c[key].BYTES_PER_ELEMENT) (c as unknown as Record<string, GrowableArray>)[key] = widened(c[key], add[key]);
    }
    for (const key of Object.keys(add) as (keyof ReplayColumns)[]) (c[key] as { set(a: ArrayLike<number>, at: number): void }).set(add[key], from);
    this.n = from + count;
    return this.view();
  }

  /** Holds `columns` as they are (every row; no copy until more rows come). */
  adopt(columns: ReplayColumns): ReplayColumns {
    this.columns = columns;
    this.n = columns.seq.length;
    return columns;
  }

  /**
   * The rows held in arrays of their own size when the room left is more than `slack` of them (a log
   * whose size was guessed low, or never guessed): no more rows will come. Else the views as they are.
   */
  fitted(slack = 0.25): ReplayColumns {
    if (this.columns && this.columns.seq.length > this.n * (1 + slack)) this.columns = mapColumns(this.columns, (a) => a.slice(0, this.n));
    return this.view();
  }

  /** Views of the rows held. */
  view(): ReplayColumns {
    const n = this.n;
    return mapColumns(this.columns!, (a) => a.subarray(0, n));
  }
}

/**
 * `summary` reading `columns`, the rows `rows` holds, which must be every row of the log: the worker
 * counts the rows it sent, so a gap is a fault, not a log to show with rows missing. Its properties
 * are copied as they are, not spread: a spread reads the Requests rows, which the page makes only when
 * read (request-rows-wire.ts). `columnsFrom` is dropped: the columns are whole.
 */
export function summaryWithRows(summary: LoadSummary, rows: GrowingColumns, columns: ReplayColumns, what: string): LoadSummary {
  if (rows.length !== summary.count) throw new Error(`the ${what} log's rows are out of step (${rows.length} held, ${summary.count} in the log)`);
  const whole = Object.defineProperties({}, Object.getOwnPropertyDescriptors(summary)) as LoadSummary;
  delete whole.columnsFrom;
  whole.columns = columns;
  return whole;
}

/** `column` as an array of the kind of `like` (a wider one), same length. */
function widened(column: GrowableArray, like: GrowableArray): GrowableArray {
  const out = new (like.constructor as new (n: number) => GrowableArray)(column.length);
  out.set(column);
  return out;
}

function mapColumns(c: ReplayColumns, f: (a: GrowableArray) => GrowableArray): ReplayColumns {
  const g = f as <T extends GrowableArray>(a: T) => T;
  return {
    seq: g(c.seq), typeId: g(c.typeId), family: g(c.family), turn: g(c.turn), step: g(c.step),
    time: g(c.time), surfaceChange: g(c.surfaceChange), requestCut: g(c.requestCut), synthetic: g(c.synthetic),
  };
}
