import { useCompare } from '../../store/compare.ts';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import type { LoadSummary } from '../../worker/protocol.ts';
import { callAtOrBefore } from '../requests/next-call.tsx';

/** The call a side's cursor is in (the last call cut after it, i.e. whose context it shows), as a 0-based index, or -1. */
function callAt(summary: LoadSummary, index: number): number {
  // Cut at or before index + 1: the call's context is the surface up to the event before its cut.
  return callAtOrBefore(summary.callCuts, index + 1);
}

function Side({ side, summary, index, move, linked }: { side: 'A' | 'B'; summary: LoadSummary | null; index: number; move: (i: number) => void; linked: boolean }) {
  if (!summary) return <div className="side-cursor" role="group" aria-label={`Cursor ${side}`}><strong>{side}</strong> <span className="muted">no log</span></div>;
  const call = callAt(summary, index);
  const cuts = summary.callCuts;
  const seq = summary.columns.seq[index];
  const toCall = (k: number) => move(Math.max(0, cuts[k] - 1));
  return (
    <div className="side-cursor" role="group" aria-label={`Cursor ${side}`}>
      <strong>{side}</strong>
      <button aria-label={`${side}: previous call`} disabled={call <= 0} onClick={() => toCall(call - 1)}>‹ call</button>
      <button aria-label={`${side}: previous event`} disabled={index <= 0} onClick={() => move(index - 1)}>‹</button>
      <span className="mono" aria-label={`${side} position`}>seq {seq ?? '-'} · {summary.typeNames[summary.columns.typeId[index]] ?? ''}{call >= 0 ? ` · context of call ${call + 1}` : ''}</span>
      <button aria-label={`${side}: next event`} disabled={index >= summary.count - 1} onClick={() => move(index + 1)}>›</button>
      <button aria-label={`${side}: next call`} disabled={call >= cuts.length - 1} onClick={() => toCall(call + 1)}>call ›</button>
      {!linked && <span className="badge warn" title="This side was moved on its own; the shared cursor brings it back">moved alone</span>}
    </div>
  );
}

/** Each side's cursor, movable on its own; the shared cursor (aligned row) sets both. */
export function SideCursors() {
  const a = useSession((s) => s.summary);
  const indexA = useCursor((s) => s.index);
  const seekA = useCursor((s) => s.seek);
  const b = useCompare((s) => s.b);
  const indexB = useCompare((s) => s.indexB);
  const moveB = useCompare((s) => s.moveB);
  const positions = useCompare((s) => s.positions);
  const row = useCompare((s) => s.row);
  return (
    <div className="side-cursors">
      <Side side="A" summary={a} index={indexA} move={seekA} linked={!positions || positions.a[row] === indexA} />
      <Side side="B" summary={b} index={indexB} move={moveB} linked={!positions || !b || positions.b[row] === indexB} />
    </div>
  );
}
