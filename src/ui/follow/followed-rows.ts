import { GrowingColumns } from '../../store/growing-columns.ts';
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
    // The worker counts the rows it sent: a gap here is a fault, not a log to show with rows missing.
    if (this.rows.length !== summary.count) throw new Error(`the followed log's rows are out of step (${this.rows.length} held, ${summary.count} in the log)`);
    // Its properties as they are, not spread: a spread reads the Requests rows, which the page makes only when read (request-rows-wire.ts).
    const shown = Object.defineProperties({}, Object.getOwnPropertyDescriptors(summary)) as LoadSummary;
    shown.columns = columns;
    return shown;
  }
}
