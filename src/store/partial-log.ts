import type { ReplayColumns } from '../core/replay/replay-index.ts';
import { FAMILIES } from '../core/replay/families.ts';
import { grownTo, type GrowableArray } from '../core/util/typed.ts';
import type { LoadSummary, PartialRows } from '../worker/protocol.ts';

/**
 * A log still loading, as the page shows it: the replay columns of the rows
 * read so far, appended report by report (each brings only its new rows), and
 * a summary the events list, timeline and scrubber can draw. The analyses are
 * not there yet: the summary says so with `partial`.
 */
export class PartialLog {
  private columns: ReplayColumns | null = null;
  private n = 0;

  constructor(private readonly name: string) {}

  append(rows: PartialRows): LoadSummary {
    const add = rows.columns;
    const count = add.seq.length;
    // Sized for the rows the worker expects the file to hold (a little over), so the columns are copied
    // once or not at all; doubling from a small start copied a 1M-event log's columns a dozen times.
    const expected = Math.ceil((rows.expected ?? 0) * 1.05);
    if (!this.columns) this.columns = mapColumns(add, (a) => grownTo(a, Math.max(1024, rows.from + count * 2, expected)));
    else if (this.n + count > this.columns.seq.length) {
      const size = Math.max(this.columns.seq.length * 2, this.n + count, expected);
      this.columns = mapColumns(this.columns, (a) => grownTo(a, size));
    }
    const c = this.columns;
    // A column the worker widened (seqs past 2^32 - 1, turns past 65535: replay-index.ts) widens here too.
    for (const key of Object.keys(add) as (keyof ReplayColumns)[]) {
      if (add[key].BYTES_PER_ELEMENT > c[key].BYTES_PER_ELEMENT) (c as unknown as Record<string, GrowableArray>)[key] = widened(c[key], add[key]);
    }
    for (const key of Object.keys(add) as (keyof ReplayColumns)[]) (c[key] as { set(a: ArrayLike<number>, at: number): void }).set(add[key], rows.from);
    this.n = rows.from + count;
    const n = this.n;
    return {
      partial: true,
      name: this.name,
      fingerprint: '',
      inherited: { seq: 0, events: 0 },
      header: rows.header,
      version: rows.version,
      dialect: '',
      encoding: '',
      count: n,
      syntheticCount: 0,
      lastSeq: n ? c.seq[n - 1] : -1,
      typeCounts: {},
      diagnostics: [],
      tornTail: null,
      ok: true,
      verdict: { kind: 'ok', summary: 'still loading', causes: [], unknown: [], partial: null, known: '', requires: null },
      columns: mapColumns(c, (a) => a.subarray(0, n)),
      timeBase: rows.timeBase,
      typeNames: rows.typeNames,
      families: FAMILIES,
      replacements: [],
      turns: 0,
      loadMs: 0,
      requests: [],
      callCuts: NO_CALLS,
      contextSnapshots: [],
      systemPromptSource: 'header',
      projectionUnits: [],
    };
  }
}

const NO_CALLS = new Int32Array(0);

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
