import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { useDeferredCursor } from '../hooks/useDeferredCursor.ts';
import { useEffect, useMemo, useState } from 'react';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import type { RequestRow } from '../../worker/protocol.ts';
import { useWorkerQuery } from '../hooks/useWorkerQuery.ts';
import { JsonView } from '../json/JsonView.tsx';
import { downloadJson } from '../export.ts';
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
  col.accessor((r) => (r.index === 0 ? 'first' : `${r.keptMessages}/${r.previousMessageCount} · ${pct(r.keptBytes, r.bytes)}`), { id: 'prefix', header: 'prefix kept' }),
  col.accessor((r) => (r.cacheReadTokens !== undefined ? `${r.cacheReadTokens}${r.inputTokens ? ` / ${r.inputTokens}` : ''}` : ''), { id: 'cache', header: 'cache read' }),
  col.accessor((r) => (r.extendsPrevious ? '' : r.reasons.join(', ')), { id: 'break', header: 'break reason' }),
  col.accessor('outcome', { header: 'outcome' }),
];

/** Every model call; the selected one in full, with its diff against the previous call. */
export function RequestsPanel() {
  const summary = useSession((s) => s.summary);
  const cursor = useDeferredCursor();
  const seek = useCursor((s) => s.seek);
  const rows = summary?.requests ?? [];
  // Follow the cursor: the last call at or before it, unless the user picked one.
  const atCursor = useMemo(() => { let k = -1; for (const r of rows) if (r.cutIndex <= cursor) k = r.index; return k; }, [rows, cursor]);
  const [picked, setPicked] = useState<number | null>(null);
  const selected = picked ?? atCursor;
  useEffect(() => { setPicked(null); }, [summary]);
  const detail = useWorkerQuery((client) => (selected < 0 ? null : client.request(selected)), [selected]);
  const table = useReactTable({ data: rows, columns: COLUMNS, getCoreRowModel: getCoreRowModel() });
  if (!summary) return null;
  if (rows.length === 0) return <section aria-label="Requests"><p className="muted pad">No model calls in this log.</p></section>;
  return (
    <section className="requests-panel" aria-label="Requests">
      <div className="scroll requests-table">
        <table className="grid-table">
          <thead>{table.getHeaderGroups().map((g) => <tr key={g.id}>{g.headers.map((h) => <th key={h.id}>{flexRender(h.column.columnDef.header, h.getContext())}</th>)}</tr>)}</thead>
          <tbody>
            {table.getRowModel().rows.map((r) => (
              <tr key={r.id} className={`${r.original.index === selected ? 'selected' : ''}${r.original.extendsPrevious ? '' : ' broke'}`}
                onClick={() => setPicked(r.original.index)} onDoubleClick={() => seek(r.original.cutIndex)}>
                {r.getVisibleCells().map((c) => <td key={c.id}>{flexRender(c.column.columnDef.cell, c.getContext())}</td>)}
              </tr>
            ))}
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
            <button onClick={() => void navigator.clipboard?.writeText(JSON.stringify(detail.request.loopRequest, null, 2))}>Copy as JSON</button>
            <button onClick={() => downloadJson(`request-${detail.request.index + 1}.json`, detail.request.loopRequest)}>Download</button>
          </div>
          {detail.messageDiff && (
            <div className="muted pad">
              vs call {detail.request.prefix.previous! + 1}: kept {detail.messageDiff.kept} leading messages
              {detail.messageDiff.removed.length > 0 && `, dropped ${detail.messageDiff.removed.length}`}
              {detail.messageDiff.added.length > 0 && `, added ${detail.messageDiff.added.length}`}
              {!detail.request.prefix.extendsPrevious && ` · prefix broke: ${detail.request.prefix.reasons.join(', ')}`}
            </div>
          )}
          <div className="json">
            <JsonView name="config" value={detail.request.config} open={1} />
            <JsonView name="system" value={detail.request.system} open={0} />
            <JsonView name="tools" value={detail.request.tools} open={0} />
            <JsonView name="messages" value={detail.request.messages} open={1} />
            <JsonView name="header" value={detail.request.header} open={0} />
          </div>
        </div>
      )}
    </section>
  );
}
