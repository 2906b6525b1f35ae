import { flexRender, getCoreRowModel, getExpandedRowModel, getFilteredRowModel, getSortedRowModel, useReactTable, type SortingState } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Fragment, useMemo, useRef, useState } from 'react';
import { generationIndex, isOlderGeneration, type GenerationIndex } from '../../core/folder/generations.ts';
import { sessionTree } from '../../core/folder/tree.ts';
import type { LogSummary } from '../../core/folder/summary.ts';
import { useFolder } from '../../store/folder.ts';
import { useSession } from '../../store/session.ts';
import { COLUMNS, filterText, olderOf, rowsOf, type FolderRow, type FolderTableMeta } from './columns.tsx';
import { SearchResults } from './SearchResults.tsx';
import { sessionCost, type ModelPrice } from '../../core/charts/prices.ts';
import { usePrices } from '../charts/price-store.ts';

const ROW_H = 26;

/**
 * A sessions folder (docs/sessions-folder.md): every file as a row (subagents nested under
 * their parent, a session's older generations one link away on its row), filled in as the
 * workers finish; sort by any column, filter, search across sessions, open one or pick two
 * to compare.
 */
export function FolderView() {
  const { name, files, summaries, done, status, cancel, openSession, compare } = useFolder();
  const hasSession = useSession((s) => s.summary !== null);
  const [sorting, setSorting] = useState<SortingState>([]);
  const [filter, setFilter] = useState('');
  const [picked, setPicked] = useState<number[]>([]);
  const prices = usePrices((s) => s.table);
  const rels = useMemo(() => files.map((f) => f.rel), [files]);
  const generations = useMemo(() => generationIndex(rels), [rels]);
  const data = useMemo(() => withCost(tableRows(rels, summaries, generations), prices), [rels, summaries, generations, prices]);
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
  const older = summaries.filter((s) => s?.isLog && isOlderGeneration(generations, s.file)).length;
  const togglePick = (i: number) => setPicked((p) => (p.includes(i) ? p.filter((x) => x !== i) : [...p.slice(-1), i]));

  return (
    <section className="folder-view" aria-label="Sessions folder">
      <div className="panel-toolbar folder-toolbar">
        <strong>{name}</strong>
        <span className="muted" role="status">{status === 'scanning' ? `reading ${done} of ${files.length} files…` : `${logs - older} sessions${older ? ` (and ${older} older generation${older === 1 ? '' : 's'})` : ''}, ${files.length - logs} other files${status === 'cancelled' ? ` (cancelled after ${done})` : ''}`}</span>
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
                        ? <SessionCell row={r.original} depth={r.depth} onOpen={(index) => void openSession(index)} />
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

/** `onOpen` opens a file of the folder by index: the row's own, or one of its older generations. */
function SessionCell({ row, depth, onOpen }: { row: FolderRow; depth: number; onOpen: (index: number) => void }) {
  const s = row.summary;
  const label = s?.title ?? row.rel.split('/').pop();
  return (
    <span className="session-cell" style={{ paddingLeft: depth * 16 }}>
      {depth > 0 && <span className="muted" aria-hidden="true">└ </span>}
      {s?.isLog ? <button className="link" onClick={() => onOpen(row.index)} title={`Open ${row.rel} in the main view`}>{label}</button> : <span className="muted">{label}</span>}
      {s?.fork && <span className="badge" title="A fork: it inherited its parent's events">fork</span>}
      {row.missingParent && <span className="badge warn" title={`Its parent session ${s?.parentSession} is not in this folder`}>parent missing</span>}
      {s && !s.isLog && <span className="muted" title={s.notLog ?? ''}> — not a log</span>}
      {row.generationFindings.filter((f) => f.severity !== 'info').map((f) => (
        <span key={f.code + f.message} className={`badge ${f.severity === 'error' ? 'error' : 'warn'}`} title={f.message}>{GENERATION_BADGE[f.code] ?? f.code}</span>
      ))}
      {/* Before the path, which the cell clips: the links stay in sight and reachable. */}
      {row.older.length > 0 && <OlderGenerations row={row} onOpen={onOpen} />}
      <span className="muted file-path"> {row.rel}</span>
    </span>
  );
}

/** Short labels for a row's generation findings (the finding's message is the tooltip). */
const GENERATION_BADGE: Record<string, string> = {
  'generation.mixed-compression': 'mixed .jsonl / .zstd',
  'generation.version-mismatch': 'version ≠ file name',
};

/** The session's older generations, each a link that opens its file as the row's title opens the latest. */
function OlderGenerations({ row, onOpen }: { row: FolderRow; onOpen: (index: number) => void }) {
  const latest = row.rel.split('/').pop();
  return (
    <span className="muted older-generations" title="Older generations of this session: frozen when DSH migrated it to a newer format; DSH reads the highest">
      {' '}older:{' '}
      {row.older.map((g, k) => (
        <Fragment key={g.index}>
          {k > 0 && ', '}
          <button className="link" onClick={() => onOpen(g.index)} title={`Open ${g.rel}: generation ${g.generation}, immutable history (DSH reads ${latest})`}>v{g.generation}</button>
        </Fragment>
      ))}
    </span>
  );
}

/**
 * The table's rows: summarised files as session trees, the rest (still being read) after them.
 * An older generation is never a row of its own, read or not: its latest's row links it.
 */
function tableRows(rels: readonly string[], summaries: readonly (LogSummary | null)[], generations: GenerationIndex): FolderRow[] {
  const indexOf = new Map(rels.map((r, i) => [r, i]));
  const ready = summaries.filter((s): s is LogSummary => s !== null);
  const pending = rels.flatMap((rel, index): FolderRow[] => (summaries[index] || isOlderGeneration(generations, rel) ? [] : [{
    index, rel, summary: null, missingParent: false, children: [],
    older: olderOf(generations.byFile.get(rel)?.older ?? [], indexOf), generationFindings: [],
  }]));
  return [...rowsOf(sessionTree(ready, generations), indexOf), ...pending];
}

/** Each session's cost from the price table (the table is the user's, so the rows are made again when it changes). */
function withCost(rows: FolderRow[], prices: readonly ModelPrice[]): FolderRow[] {
  return rows.map((r) => ({ ...r, cost: r.summary?.isLog ? sessionCost(r.summary.modelUse, prices) : null, children: withCost(r.children, prices) }));
}
