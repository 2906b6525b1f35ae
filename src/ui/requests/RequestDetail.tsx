import { memo, useMemo } from 'react';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import type { RequestDetail as Detail, RequestRow } from '../../worker/protocol.ts';
import { JsonView } from '../json/JsonView.tsx';
import { downloadJson } from '../export.ts';
import { MessageView } from '../message/MessageView.tsx';
import { callsIn } from '../message/blocks.ts';
import { ANALYSES } from '../../core/session/verdict.ts';
import { PartialNote } from '../diagnostics/PartialNote.tsx';
import { CopyRequest } from './CopyRequest.tsx';

/** The selected call in full: its request, a page of its messages, and what changed since the previous call. */
export const RequestDetail = memo(function RequestDetail({ detail, rows, shown, pages, setPage }: { detail: Detail; rows: readonly RequestRow[]; shown: number; pages: number; setPage: (page: number | null) => void }) {
  const client = useSession((s) => s.client);
  const seek = useCursor((s) => s.seek);
  const download = async (index: number) => { const text = await client?.requestJson(index); if (text) downloadJson(`request-${index + 1}.json`, JSON.parse(text)); };
  return (
    <div className="request-detail scroll">
      <div className="panel-toolbar">
        <strong>Call {detail.request.index + 1}</strong>
        <button className="link" onClick={() => seek(rows[detail.request.index].cutIndex)}>go to cut (seq {detail.request.cut})</button>
        <PartialNote analysis={ANALYSES.requests} seq={detail.request.cut} />
        <span className="spacer" />
        <CopyRequest call={detail.request.index} />
        <button onClick={() => void download(detail.request.index)} title="The exact loop request DSH handed its provider adapter, as JSON">Download loop request</button>
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
          <button disabled={shown === 0} onClick={() => setPage(0)} title="The oldest messages">« oldest</button>
          <button disabled={shown === 0} onClick={() => setPage(shown - 1)}>‹ older</button>
          <span className="mono">messages {detail.messageWindow.from + 1}–{detail.messageWindow.from + detail.request.messages.length} of {detail.messageWindow.total}</span>
          <button disabled={shown >= pages - 1} onClick={() => setPage(shown + 1)}>newer ›</button>
          <button disabled={shown >= pages - 1} onClick={() => setPage(null)} title="The newest messages">newest »</button>
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
  );
});

/** The call's messages (a page of them) as text; the ones this call added since the previous one are marked. */
function RequestMessages({ messages, from, total, added }: { messages: Detail['request']['messages']; from: number; total: number; added: string[] | null }) {
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
