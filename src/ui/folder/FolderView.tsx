import { flexRender, getCoreRowModel, getExpandedRowModel, getFilteredRowModel, getSortedRowModel, useReactTable, type SortingState } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import { sessionTree } from '../../core/folder/tree.ts';
import type { LogSummary } from '../../core/folder/summary.ts';
import { useFolder } from '../../store/folder.ts';
import { useSession } from '../../store/session.ts';
import { COLUMNS, filterText, rowsOf, type FolderRow, type FolderTableMeta } from './columns.tsx';
import { SearchResults } from './SearchResults.tsx';
import { sessionCost, type ModelPrice } from '../../core/charts/prices.ts';
import { usePrices } from '../charts/price-store.ts';

const ROW_H = 26;

/**
 * A sessions folder (docs/sessions-folder.md): every file as a row (subagents nested under
 * their parent), filled in as the workers finish; sort by any column, filter,
 * search across sessions, open one or pick two to compare.
 */
export function FolderView() {
  const { name, files, summaries, done, status, cancel, openSession, compare } = useFolder();
  const hasSession = useSession((s) => s.summary !== null);
  const [sorting, setSorting] = useState<SortingState>([]);
  const [filter, setFilter] = useState('');
  const [picked, setPicked] = useState<number[]>([]);
  const prices = usePrices((s) => s.table);
  const data = useMemo(() => withCost(tableRows(files.map((f) => f.rel), summaries), prices), [files, summaries, prices]);
  const table = useReactTable({
    data, columns: COLUMNS,
    state: { sorting, globalFilter: filter, expanded: true },
    onSortingChange: setSorting,
    meta: { cancelled: status === 'cancelled' } satisfies FolderTableMeta,
    getSubRows: (r) => r.children,
    getRowId: (r) => String(r.index),
    globalFilterFn: (row, _id, value: string) => filterText(row.original).includes(value.toLowerCase()),
    filterFromLeafRows: true,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getExpandedRowModel: getExpandedRowModel(),
  });
  const rows = table.getRowModel().rows;
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_H, overscan: 12, initialRect: { width: 1000, height: 500 } });
  const items = virtualizer.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  const logs = summaries.filter((s) => s?.isLog).length;
  const togglePick = (i: number) => setPicked((p) => (p.includes(i) ? p.filter((x) => x !== i) : [...p.slice(-1), i]));

  return (
    <section className="folder-view" aria-label="Sessions folder">
      <div className="panel-toolbar folder-toolbar">
        <strong>{name}</strong>
        <span className="muted" role="status">{status === 'scanning' ? `reading ${done} of ${files.length} files…` : `${logs} sessions, ${files.length - logs} other files${status === 'cancelled' ? ` (cancelled after ${done})` : ''}`}</span>
        {status === 'scanning' && <><progress max={files.length} value={done} aria-label="Folder progress" /><button onClick={cancel}>Cancel</button></>}
        <input className="search" placeholder="Filter sessions" aria-label="Filter sessions" value={filter} onChange={(e) => setFilter(e.target.value)} />
        <span className="spacer" />
        <button disabled={picked.length !== 2} onClick={() => void compare(picked[0], picked[1])} title="Compare the two picked sessions call by call">Compare picked ({picked.length}/2)</button>
        {hasSession && <button onClick={() => useFolder.getState().show(false)}>Back to the open session</button>}
      </div>
      <div ref={scroller} className="scroll folder-table">
        <table className="grid-table" aria-rowcount={rows.length + 1}>
          <thead>
            {table.getHeaderGroups().map((g) => (
              <tr key={g.id}>
                <th aria-label="Pick" />
                {g.headers.map((h) => (
                  <th key={h.id} aria-sort={h.column.getIsSorted() === 'asc' ? 'ascending' : h.column.getIsSorted() === 'desc' ? 'descending' : 'none'}>
                    <button className="link" onClick={h.column.getToggleSortingHandler()}>{flexRender(h.column.columnDef.header, h.getContext())}{{ asc: ' ▲', desc: ' ▼' }[h.column.getIsSorted() as string] ?? ''}</button>
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {padTop > 0 && <tr aria-hidden="true" style={{ height: padTop }} />}
            {items.map((v) => {
              const r = rows[v.index];
              const s = r.original.summary;
              return (
                <tr key={r.id} style={{ height: ROW_H }} data-file={r.original.rel} className={s && !s.isLog ? 'not-log' : ''}>
                  <td><input type="checkbox" aria-label={`Pick ${r.original.rel}`} disabled={!s?.isLog} checked={picked.includes(r.original.index)} onChange={() => togglePick(r.original.index)} /></td>
                  {r.getVisibleCells().map((c) => (
                    <td key={c.id}>
                      {c.column.id === 'title'
                        ? <SessionCell row={r.original} depth={r.depth} onOpen={() => void openSession(r.original.index)} />
                        : flexRender(c.column.columnDef.cell, c.getContext())}
                    </td>
                  ))}
                </tr>
              );
            })}
            {padBottom > 0 && <tr aria-hidden="true" style={{ height: padBottom }} />}
          </tbody>
        </table>
      </div>
      <SearchResults />
    </section>
  );
}

function SessionCell({ row, depth, onOpen }: { row: FolderRow; depth: number; onOpen: () => void }) {
  const s = row.summary;
  const label = s?.title ?? row.rel.split('/').pop();
  return (
    <span className="session-cell" style={{ paddingLeft: depth * 16 }}>
      {depth > 0 && <span className="muted" aria-hidden="true">└ </span>}
      {s?.isLog ? <button className="link" onClick={onOpen} title={`Open ${row.rel} in the main view`}>{label}</button> : <span className="muted">{label}</span>}
      {s?.fork && <span className="badge" title="A fork: it inherited its parent's events">fork</span>}
      {row.missingParent && <span className="badge warn" title={`Its parent session ${s?.parentSession} is not in this folder`}>parent missing</span>}
      {s && !s.isLog && <span className="muted" title={s.notLog ?? ''}> — not a log</span>}
      <span className="muted file-path"> {row.rel}</span>
    </span>
  );
}

/** The table's rows: summarised files as session trees, the rest (still being read) after them. */
function tableRows(rels: readonly string[], summaries: readonly (LogSummary | null)[]): FolderRow[] {
  const indexOf = new Map(rels.map((r, i) => [r, i]));
  const ready = summaries.filter((s): s is LogSummary => s !== null);
  const pending = rels.flatMap((rel, index) => (summaries[index] ? [] : [{ index, rel, summary: null, missingParent: false, children: [] }]));
  return [...rowsOf(sessionTree(ready), indexOf), ...pending];
}

/** Each session's cost from the price table (the table is the user's, so the rows are made again when it changes). */
function withCost(rows: FolderRow[], prices: readonly ModelPrice[]): FolderRow[] {
  return rows.map((r) => ({ ...r, cost: r.summary?.isLog ? sessionCost(r.summary.modelUse, prices) : null, children: withCost(r.children, prices) }));
}
