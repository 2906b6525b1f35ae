import { GrowingColumns, summaryWithRows } from '../../store/growing-columns.ts';
import type { FollowUpdate } from '../../worker/follow-protocol.ts';
import type { LoadSummary, RequestRow } from '../../worker/protocol.ts';
import type { TailedList } from '../../worker/list-tails.ts';

/**
 * The Requests rows the page holds for a followed log: the first `headCount`
 * rows `head` gives (an update's whole list, made when first read), then `tail`.
 */
interface HeldCalls {
  head: () => RequestRow[];
  headCount: number;
  tail: RequestRow[];
}

/** A summary's rows, read when asked: its lazy getter (an arrow, request-rows-wire.ts) is kept, not the summary. */
function rowsWhenAsked(summary: LoadSummary): () => RequestRow[] {
  const get = Object.getOwnPropertyDescriptor(summary, 'requests')?.get;
  if (get) return () => get() as RequestRow[];
  const rows = summary.requests;
  return () => rows;
}

/**
 * A followed log's replay columns and Requests rows on the page: an update
 * brings the rows from `from` on (a refresh, the ones appended since the
 * last) or every row (the first, and the one that stops following), and
 * the calls, findings and snapshot rows from its `listsFrom` on (the new
 * ones, and any the new events changed); the summary shown reads what is
 * held so far. A refresh of a long log so costs its new rows here and on
 * the wire, not a copy of every row.
 */
export class FollowedRows {
  /** Room for a quarter more rows at a time: a live log grows by a few rows per refresh. */
  private readonly rows = new GrowingColumns(1.25);
  private calls: HeldCalls | null = null;
  /** The findings and snapshot rows shown last: an update brings them from its `listsFrom` on. */
  private lists: Pick<LoadSummary, TailedList> | null = null;

  /** The summary to show for `update` (one that carries a summary). */
  take(update: Pick<FollowUpdate, 'from' | 'listsFrom'> & { summary: LoadSummary }): LoadSummary {
    const { summary, from, listsFrom } = update;
    const columns = from === 0 ? this.rows.adopt(summary.columns) : this.rows.put(summary.columns, from);
    const whole = summaryWithRows(summary, this.rows, columns, 'followed');
    whole.diagnostics = this.joined('diagnostics', listsFrom.diagnostics, summary.diagnostics);
    whole.contextSnapshots = this.joined('contextSnapshots', listsFrom.contextSnapshots, summary.contextSnapshots);
    this.lists = { diagnostics: whole.diagnostics, contextSnapshots: whole.contextSnapshots };
    const calls = this.putCalls(summary, listsFrom.requests);
    let made: RequestRow[] | null = null;
    Object.defineProperty(whole, 'requests', { enumerable: true, configurable: true, get: () => (made ??= calls.head().slice(0, calls.headCount).concat(calls.tail)) });
    return whole;
  }

  /** The list held, its first `at` entries then `tail` (`at` 0: `tail` is the whole list). */
  private joined<K extends TailedList>(list: K, at: number, tail: LoadSummary[K]): LoadSummary[K] {
    if (at === 0) return tail;
    const held = this.lists?.[list];
    if (!held || at > held.length) throw new Error(`the followed log's ${list} are out of step (from ${at}, ${held?.length ?? 0} held)`);
    return held.slice(0, at).concat(tail as never[]) as LoadSummary[K];
  }

  /** The calls held after `summary`'s, which are those from `requestsFrom` on (its rows are not made here unless it brings only some). */
  private putCalls(summary: LoadSummary, requestsFrom: number): HeldCalls {
    const count = summary.callCuts.length;
    const held = this.calls;
    if (requestsFrom === 0 || !held) {
      if (requestsFrom !== 0) throw new Error(`the followed log's calls are out of step (rows from call ${requestsFrom}, none held)`);
      return (this.calls = { head: rowsWhenAsked(summary), headCount: count, tail: [] });
    }
    const fresh = summary.requests;
    if (requestsFrom + fresh.length !== count || requestsFrom > held.headCount + held.tail.length) {
      throw new Error(`the followed log's calls are out of step (${fresh.length} rows from call ${requestsFrom}, ${held.headCount + held.tail.length} held, ${count} in the log)`);
    }
    const next = requestsFrom >= held.headCount
      ? { head: held.head, headCount: held.headCount, tail: held.tail.slice(0, requestsFrom - held.headCount).concat(fresh) }
      : { head: held.head, headCount: requestsFrom, tail: fresh };
    return (this.calls = next);
  }
}
