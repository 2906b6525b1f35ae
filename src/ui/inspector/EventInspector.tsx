import { useState } from 'react';
import { useDeferredSelected } from '../hooks/useDeferredCursor.ts';
import { indexOfSeq } from '../../core/replay/seq-index.ts';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import { useWorkerQuery } from '../hooks/useWorkerQuery.ts';
import { JsonView } from '../json/JsonView.tsx';
import { MessageView, Folded } from '../message/MessageView.tsx';
import { prettyArguments, type CallInfo } from '../message/blocks.ts';
import { callAtOrBefore, SeenByCall } from '../requests/next-call.tsx';
import { CopyRequest } from '../requests/CopyRequest.tsx';
import { ChildLinks } from '../workspace/SessionSwitcher.tsx';
import { JobDetail } from '../jobs/JobDetail.tsx';
import '../jobs/jobs.css';
import { EditActions } from '../whatif/EditActions.tsx';

type Mode = 'text' | 'tree' | 'raw';

/** The selected event in full: where it came from, its findings, its references as links, its message as text. */
export function EventInspector() {
  const selected = useDeferredSelected();
  const seek = useCursor((s) => s.seek);
  const summary = useSession((s) => s.summary);
  const detail = useWorkerQuery((client) => client.event(selected), [selected], { whileLoading: true });
  // null: text when the event reads as text (a message, a tool call), else the tree.
  const [picked, setPicked] = useState<Mode | null>(null);
  const [showStored, setShowStored] = useState(false);
  if (!detail || !summary) return <section className="inspector" aria-label="Event detail" />;
  const { event, origin } = detail;
  const jump = (seq: number) => seek(indexOfSeq(summary.columns.seq, seq));
  const link = (seq: number) => <button key={seq} className="link mono" onClick={() => jump(seq)}>{seq}</button>;
  const op = event.surfaceOp;
  const endpoints = op && op !== 'append' ? ('start' in op ? [op.start, op.end] : [op.startSeq, op.endSeq]) : null;
  const shown = showStored && origin?.legacy ? origin.legacy : event;
  const isCall = event.type === 'tool/call' && event.data && typeof event.data.name === 'string';
  const readable = detail.message !== null || isCall;
  const view: Mode = picked === 'text' && !readable ? 'tree' : picked ?? (readable ? 'text' : 'tree');
  const calls = new Map<string, CallInfo>();
  if (detail.call?.callId) calls.set(detail.call.callId, { name: detail.call.name, arguments: detail.call.arguments, seq: detail.call.seq });
  const changed = summary.columns.surfaceChange[detail.index] !== 0;
  const inherited = detail.index < summary.inherited.events;
  return (
    <section className="inspector" aria-label="Event detail">
      <div className="inspector-head">
        <strong className="mono">seq {event.seq} · {event.type}</strong>
        {detail.synthetic
          ? <span className="badge synthetic" title="Not in the file: DSH appends it when it restores this log">synthetic (restore)</span>
          : <span className="muted">line {origin?.line}{origin?.packedIndex !== undefined ? `, member ${origin.packedIndex} of a packed chunk row` : ''}</span>}
        {inherited && <span className="badge inherited-badge" title={`Copied from the parent session when this one was forked (seqs below ${summary.inherited.seq})`}>inherited from parent</span>}
        <span className="muted">
          {detail.surfaceStatus === 'node' ? 'on the surface at the end of the log'
            : detail.surfaceStatus === 'shadowed' ? <>shadowed by {link(detail.shadowedBy!)}</>
            : detail.surfaceStatus === 'loading' ? 'surface status once the log is read'
            : 'never a surface node'}
        </span>
        {changed && <SeenByCall index={detail.index} what={`seq ${event.seq}`} />}
      </div>
      {(endpoints || event.sourceEventSeqs) && (
        <div className="refs pad">
          {endpoints && <span>replaces {link(endpoints[0])} … {link(endpoints[1])} </span>}
          {event.sourceEventSeqs && <span>sourceEventSeqs {event.sourceEventSeqs.length ? event.sourceEventSeqs.map(link) : '[]'}</span>}
        </div>
      )}
      <ChildLinks seq={event.seq} spawn={detail.spawn} />
      {event.type.startsWith('job/') && <JobDetail seq={event.seq} jobs={summary.jobs} jump={jump} />}
      <EditActions key={event.seq} event={event} message={detail.message} synthetic={detail.synthetic} />
      {event.type.startsWith('assistant/') && callAtOrBefore(summary.callCuts, detail.index) >= 0 && (
        <div className="panel-toolbar" aria-label="The model call's request">
          <span className="muted">model call {callAtOrBefore(summary.callCuts, detail.index) + 1}:</span>
          <CopyRequest key={event.seq} call={callAtOrBefore(summary.callCuts, detail.index)} />
        </div>
      )}
      {detail.diagnostics.map((d, i) => <div key={i} className={`diag ${d.severity}`}>{d.severity} · {d.code}: {d.message}</div>)}
      <div className="panel-toolbar">
        <div className="segmented" role="radiogroup" aria-label="Event view">
          {readable && <button role="radio" aria-checked={view === 'text'} className={view === 'text' ? 'active' : ''} onClick={() => setPicked('text')}>text</button>}
          <button role="radio" aria-checked={view === 'tree'} className={view === 'tree' ? 'active' : ''} onClick={() => setPicked('tree')}>tree</button>
          <button role="radio" aria-checked={view === 'raw'} className={view === 'raw' ? 'active' : ''} onClick={() => setPicked('raw')}>raw</button>
        </div>
        {origin?.legacy && view !== 'text' && (
          <label className="muted"><input type="checkbox" checked={showStored} onChange={(e) => setShowStored(e.target.checked)} /> as stored (DSH upgrades this legacy shape on load)</label>
        )}
      </div>
      <div className={view === 'text' ? 'scroll inspector-text' : 'scroll json'}>
        {view === 'text' && detail.message && <MessageView key={event.seq} message={detail.message} calls={calls} onSeq={jump} modes={false} />}
        {view === 'text' && !detail.message && isCall && (
          <div className="msg-block msg-call">
            <div className="msg-call-head">→ call <strong className="mono">{String(event.data.name)}</strong> <span className="mono muted">{String(event.data.callId ?? '')}</span></div>
            <Folded text={prettyArguments(event.data.arguments)} />
          </div>
        )}
        {view === 'tree' && <JsonView key={event.seq} value={shown} open={openDepth(shown)} />}
        {view === 'raw' && <pre className="raw-line">{JSON.stringify(shown)}</pre>}
      </div>
    </section>
  );
}

/** How deep the tree starts open: a small event whole (nothing to expand), a big one three levels. */
function openDepth(value: unknown): number {
  const text = JSON.stringify(value);
  return text !== undefined && text.length <= 4096 ? 64 : 3;
}
