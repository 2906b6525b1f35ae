import { GrowingColumns, summaryWithRows } from '../../store/growing-columns.ts';
import type { FollowUpdate } from '../../worker/follow-protocol.ts';
import type { LoadSummary } from '../../worker/protocol.ts';

/**
 * A followed log's replay columns on the page: an update brings the rows
 * from `from` on (a refresh, the ones appended since the last) or every row
 * (the first, and the one that stops following), and the summary shown
 * reads the rows held so far. A refresh of a long log so costs its new rows
 * here and on the wire, not a copy of every row (issue #15).
 */
export class FollowedRows {
  /** Room for a quarter more rows at a time: a live log grows by a few rows per refresh. */
  private readonly rows = new GrowingColumns(1.25);

  /** The summary to show for `update` (one that carries a summary). */
  take(update: Pick<FollowUpdate, 'from'> & { summary: LoadSummary }): LoadSummary {
    const { summary, from } = update;
    const columns = from === 0 ? this.rows.adopt(summary.columns) : this.rows.put(summary.columns, from);
    return summaryWithRows(summary, this.rows, columns, 'followed');
  }
}
