import { FAMILIES } from '../core/replay/families.ts';
import type { LoadSummary, PartialRows } from '../worker/protocol.ts';
import { GrowingColumns, summaryWithRows } from './growing-columns.ts';

/**
 * A log still loading, as the page shows it: the replay columns of the rows
 * read so far, appended report by report (each brings only its new rows), and
 * a summary the events list, timeline and scrubber can draw. The analyses are
 * not there yet: the summary says so with `partial`.
 */
export class PartialLog {
  private readonly rows = new GrowingColumns();

  constructor(private readonly name: string) {}

  /**
   * The loaded log's summary with every row: its columns as they came when it
   * holds them all, else put after the rows held here (`columnsFrom`), so
   * values derived from those rows are extended (grown-rows-cache.ts).
   */
  finish(summary: LoadSummary): LoadSummary {
    if (summary.columnsFrom === undefined) return summary;
    this.rows.put(summary.columns, summary.columnsFrom, 0, true);
    // Kept for the log's life: arrays sized for many more rows than came are cut to the rows.
    return summaryWithRows(summary, this.rows, this.rows.fitted(), 'loaded');
  }

  append(rows: PartialRows): LoadSummary {
    const columns = this.rows.put(rows.columns, rows.from, rows.expected ?? 0);
    const n = this.rows.length;
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
      lastSeq: n ? columns.seq[n - 1] : -1,
      typeCounts: {},
      diagnostics: [],
      tornTail: null,
      ok: true,
      verdict: { kind: 'ok', summary: 'still loading', causes: [], unknown: [], partial: null, exact: [], known: '', requires: null },
      columns,
      timeBase: rows.timeBase,
      typeNames: rows.typeNames,
      families: FAMILIES,
      replacements: [],
      turns: 0,
      loadMs: 0,
      requests: [],
      jobs: [],
      callCuts: NO_CALLS,
      contextSnapshots: [],
      systemPromptSource: 'header',
      projectionUnits: [],
    };
  }
}

const NO_CALLS = new Int32Array(0);
