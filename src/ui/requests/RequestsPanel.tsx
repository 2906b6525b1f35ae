import { flexRender, getCoreRowModel, useReactTable, type Header, type Row, type SortingState, type Updater, type VisibilityState } from '@tanstack/react-table';
import { callOrder } from './call-order.ts';
import { useDeferredCursor } from '../hooks/useDeferredCursor.ts';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import { useView } from '../../store/view.ts';
import type { RequestRow } from '../../worker/protocol.ts';
import { useWorkerQuery } from '../hooks/useWorkerQuery.ts';
import { callAtOrBefore } from './next-call.tsx';
import { columnsFor, FILTERED } from './columns.tsx';
import { usePrices } from '../charts/price-store.ts';
import { RequestsBar } from './RequestsBar.tsx';
import { RequestDetail } from './RequestDetail.tsx';
import './requests.css';

const ROW_H = 21;
/** Messages of the selected call shown at a time. */
const PAGE = 50;
const apply = <T,>(u: Updater<T>, old: T): T => (typeof u === 'function' ? (u as (old: T) => T)(old) : u);

/**
 * Every model call (a virtual table: a long session has tens of thousands), sorted and filtered as the
 * view store says; the selected one in full, with its diff against the previous call — below the table,
 * or beside it when the view takes the whole window.
 */
export function RequestsPanel() {
  const summary = useSession((s) => s.summary);
  const cursor = useDeferredCursor();
  const seek = useCursor((s) => s.seek);
  const full = useView((s) => s.requestsFull);
  const view = useView((s) => s.requestsView);
  const rows = useMemo(() => summary?.requests ?? [], [summary]);
  // Follow the cursor: the last call at or before it (calls are in log order). A clicked row moves the
  // cursor to its cut and stays selected while the cursor is there (several calls may share a cut).
  const atCursor = useMemo(() => (summary ? callAtOrBefore(summary.callCuts, cursor) : -1), [summary, cursor]);
  const [picked, setPicked] = useState<number | null>(null);
  const selected = picked !== null && rows[picked]?.cutIndex === cursor ? picked : atCursor;
  // null: the newest page of the selected call's messages.
  const [page, setPage] = useState<number | null>(null);
  useEffect(() => { setPicked(null); setPage(null); }, [summary]);
  useEffect(() => setPage(null), [selected]);
  const total = selected >= 0 ? rows[selected]?.messageCount ?? 0 : 0;
  const pages = Math.max(1, Math.ceil(total / PAGE));
  const shown = Math.min(page ?? pages - 1, pages - 1);
  const detail = useWorkerQuery((c) => (selected < 0 ? null : c.request(selected, { from: shown * PAGE, count: PAGE })), [selected, shown]);
  // Typing in the filter stays responsive on 100k calls: the table catches up a frame later.
  const filter = useDeferredValue(view.filter.trim());
  const sorting: SortingState = useMemo(() => (view.sort ? [view.sort] : []), [view.sort]);
  const columnVisibility: VisibilityState = useMemo(() => Object.fromEntries(view.hidden.map((id) => [id, false])), [view.hidden]);
  const prices = usePrices((s) => s.table);
  const columns = useMemo(() => columnsFor(prices), [prices]);
  // The calls the filter keeps, in the sort's order, as call indexes (call-order.ts: the table's own
  // filter and sorting functions over the values; no row object per call).
  const order = useMemo(() => callOrder(rows, columns, { sort: view.sort, filter, filtered: FILTERED }), [rows, columns, view.sort, filter]);
  const pick = useCallback((call: number, cutIndex: number) => { setPicked(call); seek(cutIndex); }, [seek]);
  const scroller = useRef<HTMLDivElement>(null);
  // Where the selected call stands in the sorted, filtered table (-1: filtered out).
  const ordered = !view.sort && !filter;
  // Each call's place in the table, once per sort or filter: the selection follows the cursor at every step.
  const placeOf = useMemo(() => {
    if (ordered) return null;
    const at = new Int32Array(rows.length).fill(-1);
    order.forEach((call, k) => { at[call] = k; });
    return at;
  }, [ordered, order, rows.length]);
  const position = placeOf ? (selected >= 0 ? placeOf[selected] ?? -1 : -1) : selected;
  const virtualizer = useVirtualizer({ count: order.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_H, overscan: 10, initialRect: { width: 600, height: 300 } });
  useEffect(() => {
    if (position < 0) return;
    const range = virtualizer.range;
    if (range && position > range.startIndex && position < range.endIndex) return;
    virtualizer.scrollToIndex(position, { align: 'auto' });
  }, [position, virtualizer]);
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? -1;
  // The table holds the calls in view only: its rows (and their cell values) are made for those, again
  // when the view, the order or the columns (a new price table) change — not at a cursor step.
  const data = useMemo(() => Array.from(order.subarray(first, last + 1), (call) => rows[call]), [order, first, last, rows, columns]);
  const table = useReactTable({
    data,
    columns,
    state: { sorting, columnVisibility },
    getRowId: (r) => String(r.index),
    // The order is call-order.ts's: the table only draws the headers, the sort marks and the cells.
    manualSorting: true,
    manualFiltering: true,
    // The store is the state (it goes in the link); the table only reports changes to it.
    onSortingChange: (u) => useView.getState().setRequestsView({ sort: apply(u, sorting)[0] ?? null }),
    onColumnVisibilityChange: (u) => {
      const next = apply(u, columnVisibility);
      useView.getState().setRequestsView({ hidden: Object.keys(next).filter((id) => next[id] === false) });
    },
    // Every column sorts ascending first, then descending, then back to log order.
    sortDescFirst: false,
    // One sort at a time (the link keeps one): a shift-click sorts like a click.
    enableMultiSort: false,
    getCoreRowModel: getCoreRowModel(),
  });
  const tableRows = table.getRowModel().rows;
  if (!summary) return null;
  if (rows.length === 0) return <section aria-label="Requests"><p className="muted pad">No model calls in this log.</p></section>;
  const padTop = items[0]?.start ?? 0;
  const padBottom = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    <section className={`requests-panel${full ? ' full' : ''}`} aria-label="Requests">
      <RequestsBar matched={order.length} total={rows.length} />
      <div className="requests-body">
        <div ref={scroller} className="scroll requests-table">
          <table className="grid-table" aria-rowcount={order.length + 1}>
            <thead>{table.getHeaderGroups().map((g) => <tr key={g.id}>{g.headers.map((h) => <SortHeader key={h.id} header={h} />)}</tr>)}</thead>
            <tbody>
              {padTop > 0 && <tr aria-hidden="true" style={{ height: padTop }} />}
              {items.map((v) => {
                // The table holds the rows in view, in order: the first is the view's first.
                const r = tableRows[v.index - first];
                return <CallRow key={r.id} row={r} rowIndex={v.index + 2} selected={r.original.index === selected} visibility={columnVisibility} onPick={pick} />;
              })}
              {padBottom > 0 && <tr aria-hidden="true" style={{ height: padBottom }} />}
            </tbody>
          </table>
          {order.length === 0 && <p className="muted pad">No call matches “{view.filter}”.</p>}
        </div>
        {detail && <RequestDetail detail={detail} rows={rows} shown={shown} pages={pages} setPage={setPage} />}
      </div>
    </section>
  );
}

/**
 * One call's row, drawn again only when its call, place, selection or the
 * visible columns change: a cursor step re-renders the panel, and redrawing
 * every row's cells (number formatting, titles) cost more than the rest of
 * the step with the Requests tab open.
 */
const CallRow = memo(function CallRow({ row, rowIndex, selected, onPick }: {
  row: Row<RequestRow>; rowIndex: number; selected: boolean;
  /** The visible columns: the row's cells follow them (the row object stays the same when they change). */
  visibility: VisibilityState;
  onPick: (call: number, cutIndex: number) => void;
}) {
  const r = row.original;
  return (
    <tr aria-rowindex={rowIndex} data-call={r.index} className={`${selected ? 'selected' : ''}${r.extendsPrevious ? '' : ' broke'}`}
      style={{ height: ROW_H }} onClick={() => onPick(r.index, r.cutIndex)}
      aria-selected={selected} title={`call ${r.index + 1}: click to select it and move the cursor to its cut (seq ${r.cut})`}>
      {row.getVisibleCells().map((c) => <td key={c.id} className={`col-${c.column.id}`}>{flexRender(c.column.columnDef.cell, c.getContext())}</td>)}
    </tr>
  );
});

const ARIA_SORT = { asc: 'ascending', desc: 'descending' } as const;

/** A header cell that sorts its column: ascending, descending, then back to log order. */
function SortHeader({ header }: { header: Header<RequestRow, unknown> }) {
  const dir = header.column.getIsSorted();
  return (
    <th aria-sort={dir ? ARIA_SORT[dir] : 'none'} className={`col-${header.column.id}`}>
      <button className="sort-head" onClick={header.column.getToggleSortingHandler()} title="Sort by this column (click again to reverse, a third time for log order)">
        {flexRender(header.column.columnDef.header, header.getContext())}
        <span className="sort-mark" aria-hidden="true">{dir === 'asc' ? ' ▲' : dir === 'desc' ? ' ▼' : ''}</span>
      </button>
    </th>
  );
}
