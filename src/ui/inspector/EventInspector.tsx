import { useState } from 'react';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import { useWorkerQuery } from '../hooks/useWorkerQuery.ts';
import { JsonView } from '../json/JsonView.tsx';
import { indexOfSeq } from '../../core/replay/seq-index.ts';

/** The selected event in full: where it came from, its findings, where it stands on the surface. */
export function EventInspector() {
  const selected = useCursor((s) => s.selected);
  const seek = useCursor((s) => s.seek);
  const summary = useSession((s) => s.summary);
  const detail = useWorkerQuery((client) => client.event(selected), [selected]);
  const [showStored, setShowStored] = useState(false);
  if (!detail) return null;
  const { event, origin } = detail;
  return (
    <div className="inspector" aria-label="Event inspector">
      <div className="inspector-head">
        <strong className="mono">seq {event.seq} · {event.type}</strong>
        {detail.synthetic
          ? <span className="badge synthetic" title="Not in the file: DSH appends it when it restores this log">synthetic (restore)</span>
          : <span className="muted">line {origin?.line}{origin?.packedIndex !== undefined ? `, packed member ${origin.packedIndex}` : ''}</span>}
        <span className="muted">
          {detail.surfaceStatus === 'node' ? 'on the surface at the end of the log' : detail.surfaceStatus === 'shadowed' ? <>shadowed by <button className="link" onClick={() => detail.shadowedBy !== undefined && summary && seek(indexOfSeq(summary.columns.seq, detail.shadowedBy))}>seq {detail.shadowedBy}</button></> : 'never a surface node'}
        </span>
      </div>
      {detail.diagnostics.map((d, i) => <div key={i} className={`diag ${d.severity}`}>{d.severity} · {d.code}: {d.message}</div>)}
      {origin?.legacy && (
        <label className="muted"><input type="checkbox" checked={showStored} onChange={(e) => setShowStored(e.target.checked)} /> show the row as stored (DSH upgrades this legacy shape on load)</label>
      )}
      <div className="scroll json"><JsonView value={showStored && origin?.legacy ? origin.legacy : event} open={3} /></div>
    </div>
  );
}
