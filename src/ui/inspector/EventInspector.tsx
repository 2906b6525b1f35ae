import { useState } from 'react';
import { useDeferredSelected } from '../hooks/useDeferredCursor.ts';
import { indexOfSeq } from '../../core/replay/seq-index.ts';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import { useWorkerQuery } from '../hooks/useWorkerQuery.ts';
import { JsonView } from '../json/JsonView.tsx';

/** The selected event in full: where it came from, its findings, its references as links. */
export function EventInspector() {
  const selected = useDeferredSelected();
  const seek = useCursor((s) => s.seek);
  const summary = useSession((s) => s.summary);
  const detail = useWorkerQuery((client) => client.event(selected), [selected]);
  const [view, setView] = useState<'tree' | 'raw'>('tree');
  const [showStored, setShowStored] = useState(false);
  if (!detail || !summary) return <section className="inspector" aria-label="Event detail" />;
  const { event, origin } = detail;
  const jump = (seq: number) => seek(indexOfSeq(summary.columns.seq, seq));
  const link = (seq: number) => <button key={seq} className="link mono" onClick={() => jump(seq)}>{seq}</button>;
  const op = event.surfaceOp;
  const endpoints = op && op !== 'append' ? ('start' in op ? [op.start, op.end] : [op.startSeq, op.endSeq]) : null;
  const shown = showStored && origin?.legacy ? origin.legacy : event;
  return (
    <section className="inspector" aria-label="Event detail">
      <div className="inspector-head">
        <strong className="mono">seq {event.seq} · {event.type}</strong>
        {detail.synthetic
          ? <span className="badge synthetic" title="Not in the file: DSH appends it when it restores this log">synthetic (restore)</span>
          : <span className="muted">line {origin?.line}{origin?.packedIndex !== undefined ? `, member ${origin.packedIndex} of a packed chunk row` : ''}</span>}
        <span className="muted">
          {detail.surfaceStatus === 'node' ? 'on the surface at the end of the log'
            : detail.surfaceStatus === 'shadowed' ? <>shadowed by {link(detail.shadowedBy!)}</>
            : 'never a surface node'}
        </span>
      </div>
      {(endpoints || event.sourceEventSeqs) && (
        <div className="refs pad">
          {endpoints && <span>replaces {link(endpoints[0])} … {link(endpoints[1])} </span>}
          {event.sourceEventSeqs && <span>sourceEventSeqs {event.sourceEventSeqs.length ? event.sourceEventSeqs.map(link) : '[]'}</span>}
        </div>
      )}
      {detail.diagnostics.map((d, i) => <div key={i} className={`diag ${d.severity}`}>{d.severity} · {d.code}: {d.message}</div>)}
      <div className="panel-toolbar">
        <div className="segmented" role="radiogroup" aria-label="Event view">
          <button role="radio" aria-checked={view === 'tree'} className={view === 'tree' ? 'active' : ''} onClick={() => setView('tree')}>tree</button>
          <button role="radio" aria-checked={view === 'raw'} className={view === 'raw' ? 'active' : ''} onClick={() => setView('raw')}>raw</button>
        </div>
        {origin?.legacy && (
          <label className="muted"><input type="checkbox" checked={showStored} onChange={(e) => setShowStored(e.target.checked)} /> as stored (DSH upgrades this legacy shape on load)</label>
        )}
      </div>
      <div className="scroll json">
        {view === 'tree' ? <JsonView value={shown} open={3} /> : <pre className="raw-line">{JSON.stringify(shown)}</pre>}
      </div>
    </section>
  );
}
