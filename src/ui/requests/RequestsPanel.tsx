import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { useDeferredCursor } from '../hooks/useDeferredCursor.ts';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import type { RequestDetail, RequestRow } from '../../worker/protocol.ts';
import { useWorkerQuery } from '../hooks/useWorkerQuery.ts';
import { JsonView } from '../json/JsonView.tsx';
import { downloadJson } from '../export.ts';
import { MessageView } from '../message/MessageView.tsx';
import { callsIn } from '../message/blocks.ts';
import { callAtOrBefore } from './next-call.tsx';
import { ANALYSES } from '../../core/diagnostics/verdict.ts';
import { PartialNote } from '../diagnostics/PartialNote.tsx';

const col = createColumnHelper<RequestRow>();
const pct = (a: number, b: number) => (b ? `${Math.round((a / b) * 100)}%` : '-');

const COLUMNS = [
  col.accessor('index', { header: '#', cell: (c) => c.getValue() + 1 }),
  col.accessor('cut', { header: 'cut' }),
  col.accessor((r) => `${r.turn}.${r.step}${r.attempt > 1 ? ` (try ${r.attempt})` : ''}`, { id: 'ts', header: 'turn.step' }),
  col.accessor('model', { header: 'model' }),
  col.accessor('messageCount', { header: 'msgs' }),
  col.accessor('toolCount', { header: 'tools' }),
  col.accessor((r) => (r.index === 0 ? 'first' : `${r.keptMessages}/${r.previousMessageCount} msgs · ${pct(r.keptBytes, r.bytes)}`), {
    id: 'prefix',
    header: () => <span title={PREFIX_HELP}>prefix kept ⓘ</span>,
    cell: (c) => <span title={c.row.original.index === 0 ? 'the first call: nothing to keep' : prefixTitle(c.row.original)}>{c.getValue()}</span>,
  }),
  col.accessor((r) => (r.cacheReadTokens !== undefined ? `${r.cacheReadTokens}${r.inputTokens ? ` / ${r.inputTokens}` : ''}` : ''), { id: 'cache', header: 'cache read' }),
  col.accessor((r) => (r.extendsPrevious ? '' : r.reasons.join(', ')), { id: 'break', header: 'break reason' }),
  col.accessor('outcome', { header: 'outcome' }),
];

const PREFIX_HELP = 'prefix kept: how many of the previous call\'s messages this call sends again unchanged at its start (kept/previous count), and the share of this request\'s bytes they make up — the part a provider\'s prompt cache can reuse';
const prefixTitle = (r: RequestRow) =>
  `kept ${r.keptMessages} of the previous call's ${r.previousMessageCount} messages as this call's leading prefix; they are ${pct(r.keptBytes, r.bytes)} of this request's bytes (${r.keptBytes.toLocaleString()} of ${r.bytes.toLocaleString()})`;

const ROW_H = 21;
/** Messages of the selected call shown at a time. */
const PAGE = 50;

/** Every model call (a virtual table: a long session has tens of thousands); the selected one in full, with its diff against the previous call. */
export function RequestsPanel() {
  const summary = useSession((s) => s.summary);
  const client = useSession((s) => s.client);
  const cursor = useDeferredCursor();
  const seek = useCursor((s) => s.seek);
  const rows = useMemo(() => summary?.requests ?? [], [summary]);
  // Follow the cursor: the last call at or before it (calls are in log order). A clicked row moves the
  // cursor to its cut and stays selected while the cursor is there (several calls may share a cut).
  const atCursor = useMemo(() => callAtOrBefore(rows, cursor), [rows, cursor]);
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
  const table = useReactTable({ data: rows, columns: COLUMNS, getCoreRowModel: getCoreRowModel() });
  const scroller = useRef<HTMLDivElement>(null);
  const tableRows = table.getRowModel().rows;
  const virtualizer = useVirtualizer({ count: tableRows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_H, overscan: 10, initialRect: { width: 600, height: 300 } });
  useEffect(() => {
    if (selected < 0) return;
    const range = virtualizer.range;
    if (range && selected > range.startIndex && selected < range.endIndex) return;
    virtualizer.scrollToIndex(selected, { align: 'auto' });
  }, [selected, virtualizer]);
  if (!summary) return null;
  if (rows.length === 0) return <section aria-label="Requests"><p className="muted pad">No model calls in this log.</p></section>;
  const items = virtualizer.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  const copy = async (index: number) => { const text = await client?.requestJson(index); if (text) await navigator.clipboard?.writeText(text); };
  const download = async (index: number) => { const text = await client?.requestJson(index); if (text) downloadJson(`request-${index + 1}.json`, JSON.parse(text)); };
  return (
    <section className="requests-panel" aria-label="Requests">
      <div ref={scroller} className="scroll requests-table">
        <table className="grid-table" aria-rowcount={rows.length + 1}>
          <thead>{table.getHeaderGroups().map((g) => <tr key={g.id}>{g.headers.map((h) => <th key={h.id}>{flexRender(h.column.columnDef.header, h.getContext())}</th>)}</tr>)}</thead>
          <tbody>
            {padTop > 0 && <tr aria-hidden="true" style={{ height: padTop }} />}
            {items.map((v) => {
              const r = tableRows[v.index];
              return (
                <tr key={r.id} aria-rowindex={v.index + 2} className={`${r.original.index === selected ? 'selected' : ''}${r.original.extendsPrevious ? '' : ' broke'}`}
                  style={{ height: ROW_H }} onClick={() => { setPicked(r.original.index); seek(r.original.cutIndex); }}
                  aria-selected={r.original.index === selected} title={`call ${r.original.index + 1}: click to select it and move the cursor to its cut (seq ${r.original.cut})`}>
                  {r.getVisibleCells().map((c) => <td key={c.id}>{flexRender(c.column.columnDef.cell, c.getContext())}</td>)}
                </tr>
              );
            })}
            {padBottom > 0 && <tr aria-hidden="true" style={{ height: padBottom }} />}
          </tbody>
        </table>
      </div>
      {detail && (
        <div className="request-detail scroll">
          <div className="panel-toolbar">
            <strong>Call {detail.request.index + 1}</strong>
            <button className="link" onClick={() => seek(rows[detail.request.index].cutIndex)}>go to cut (seq {detail.request.cut})</button>
            <PartialNote analysis={ANALYSES.requests} seq={detail.request.cut} />
            <span className="spacer" />
            <button onClick={() => void copy(detail.request.index)}>Copy as JSON</button>
            <button onClick={() => void download(detail.request.index)}>Download</button>
          </div>
          {detail.messageDiff && (
            <div className="muted pad">
              vs call {detail.request.prefix.previous! + 1}: kept {detail.messageDiff.kept} leading messages
              {detail.messageDiff.removed.length > 0 && `, dropped ${detail.messageDiff.removed.length}`}
              {detail.messageDiff.added.length > 0 && `, added ${detail.messageDiff.added.length}`}
              {!detail.request.prefix.extendsPrevious && ` · prefix broke: ${detail.request.prefix.reasons.join(', ')}`}
            </div>
          )}
          {pages > 1 && (
            <div className="panel-toolbar" role="navigation" aria-label="Request message pages">
              <button disabled={shown === 0} onClick={() => setPage(0)}>⏮</button>
              <button disabled={shown === 0} onClick={() => setPage(shown - 1)}>‹ older</button>
              <span className="mono">messages {detail.messageWindow.from + 1}–{detail.messageWindow.from + detail.request.messages.length} of {detail.messageWindow.total}</span>
              <button disabled={shown >= pages - 1} onClick={() => setPage(shown + 1)}>newer ›</button>
              <button disabled={shown >= pages - 1} onClick={() => setPage(null)}>⏭ newest</button>
            </div>
          )}
          <div className="json">
            <JsonView name="config" value={detail.request.config} open={1} />
            <JsonView name="system" value={detail.request.system} open={0} />
            <JsonView name="tools" value={detail.request.tools} open={0} />
            <JsonView name="header" value={detail.request.header} open={0} />
          </div>
          <RequestMessages messages={detail.request.messages} from={detail.messageWindow.from} total={detail.messageWindow.total} added={detail.messageDiff?.added ?? null} />
        </div>
      )}
    </section>
  );
}

/** The call's messages (a page of them) as text; the ones this call added since the previous one are marked. */
function RequestMessages({ messages, from, total, added }: { messages: RequestDetail['request']['messages']; from: number; total: number; added: string[] | null }) {
  const calls = useMemo(() => callsIn(messages), [messages]);
  const isNew = useMemo(() => new Set(added ?? []), [added]);
  return (
    <div className="request-messages" aria-label="Request messages">
      <div className="muted pad">messages {total > messages.length ? `${from + 1}–${from + messages.length} of ${total}` : `(${total})`}{added ? ` · ${added.length} new in this call` : ''}</div>
      {messages.map((m, i) => (
        <div key={`${m.id}-${from + i}`} className={isNew.has(m.id) ? 'msg-added' : undefined}>
          <MessageView message={m} calls={calls} title={<><span className="mono muted msg-pos">#{from + i}</span>{isNew.has(m.id) && <span className="badge added-badge" title="not in the previous call's messages">new</span>}</>} />
        </div>
      ))}
    </div>
  );
}
