import { useEffect, useMemo, useState } from 'react';
import { useDeferredCursor } from '../hooks/useDeferredCursor.ts';
import { useSession } from '../../store/session.ts';
import { MessageView } from '../message/MessageView.tsx';
import { formatCount } from '../counts.ts';
import { callsIn } from '../message/blocks.ts';
import { downloadJson } from '../export.ts';
import { ANALYSES } from '../../core/session/verdict.ts';
import { PartialNote } from '../diagnostics/PartialNote.tsx';
import { useWorkerQuery } from '../hooks/useWorkerQuery.ts';

/** Messages per page: a long session's context holds tens of thousands. */
const PAGE = 50;

/**
 * The model-context view at the cursor: deriveMessages() exactly as DSH
 * returns it, a page at a time (the newest page first: what the model saw last).
 */
export function MessagesView() {
  const index = useDeferredCursor();
  const client = useSession((s) => s.client);
  // null: follow the newest page as the cursor moves.
  const [page, setPage] = useState<number | null>(null);
  const summary = useSession((s) => s.summary);
  useEffect(() => setPage(null), [summary]);
  const count = useWorkerQuery((c) => c.messages(index, { from: 0, count: 0 }), [index])?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / PAGE));
  const shown = Math.min(page ?? pages - 1, pages - 1);
  const data = useWorkerQuery((c) => c.messages(index, { from: shown * PAGE, count: PAGE }), [index, shown]);
  const calls = useMemo(() => callsIn(data?.messages ?? []), [data]);
  if (!data) return null;
  const downloadAll = async () => {
    if (!client) return;
    const all = await client.export('surface', 'json', index, false);
    downloadJson(`messages-at-seq-${data.seq}.json`, JSON.parse(all.text).messages);
  };
  return (
    <div className="messages" aria-label="Messages at cursor">
      <div className="panel-toolbar">
        <span className="muted">{formatCount(data.count)} messages the model would be sent after seq {data.seq}</span>
        <PartialNote analysis={ANALYSES.surface} seq={data.seq} />
        <button onClick={() => void navigator.clipboard?.writeText(JSON.stringify(data.messages, null, 2))}>Copy page as JSON</button>
        <button onClick={() => void downloadAll()}>Download all</button>
      </div>
      {pages > 1 && (
        <div className="panel-toolbar" role="navigation" aria-label="Message pages">
          <button disabled={shown === 0} onClick={() => setPage(0)} title="The oldest messages">« oldest</button>
          <button disabled={shown === 0} onClick={() => setPage(shown - 1)}>‹ older</button>
          <span className="mono">{data.from + 1}–{data.from + data.messages.length} of {data.count}</span>
          <button disabled={shown >= pages - 1} onClick={() => setPage(shown + 1)}>newer ›</button>
          <button disabled={shown >= pages - 1} onClick={() => setPage(null)} title="The newest messages">newest »</button>
        </div>
      )}
      <div className="scroll message-list">
        {data.messages.map((m, i) => (
          <MessageView key={`${m.id}-${data.from + i}`} message={m} calls={calls} title={<span className="mono muted msg-pos">#{data.from + i}</span>} />
        ))}
      </div>
    </div>
  );
}
