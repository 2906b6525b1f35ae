import { memo, useState } from 'react';
import { useDeferredCursor } from '../hooks/useDeferredCursor.ts';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import type { ProjectionAtCursor } from '../../worker/protocol.ts';
import { useWorkerQuery } from '../hooks/useWorkerQuery.ts';
import { JsonView } from '../json/JsonView.tsx';
import { indexOfSeq } from '../../core/replay/seq-index.ts';
import { ChangeStrip } from './ChangeStrip.tsx';
import { FriendlyView } from './FriendlyView.tsx';
import { failureLead } from './failure-lead.ts';
import { PartialNote } from '../diagnostics/PartialNote.tsx';
import { ANALYSES } from '../../core/session/verdict.ts';
import { ValueDiffView } from './ValueDiffView.tsx';
import { SeenByCall } from '../requests/next-call.tsx';

/** One card per projection unit at the cursor: view, watermark, change, failure (asked of the worker only while shown). */
export function ProjectionsPanel() {
  const summary = useSession((s) => s.summary);
  const seek = useCursor((s) => s.seek);
  const index = useDeferredCursor();
  const [raw, setRaw] = useState(false);
  // The answer carries the log and position it was asked for: until a step's answer comes the cards
  // show the last one, and the seq, the change marks and the redraw of each value must match it.
  const answer = useWorkerQuery((client) => client.projections(index).then((units) => ({ log: summary, index, units })), [index, summary]);
  if (!answer || !summary || answer.log !== summary) return null;
  const state = { projections: answer.units, index: answer.index, seq: summary.columns.seq[answer.index] ?? -1 };
  const toIndex = (seq: number) => indexOfSeq(summary.columns.seq, seq);
  const lastSeq = summary.columns.seq[summary.count - 1] ?? 0;
  return (
    <section className="projections scroll" aria-label="Projections">
      <div className="panel-toolbar">
        <span className="muted">{state.projections.length} units at seq {state.seq}</span>
        <label><input type="checkbox" checked={raw} onChange={(e) => setRaw(e.target.checked)} /> raw state</label>
      </div>
      {state.projections.map((p) => {
        const unit = summary.projectionUnits.find((u) => u.key === p.key);
        return <Card key={p.key} p={p} raw={raw} cursorSeq={state.seq} cursorIndex={state.index} lastSeq={lastSeq} changes={unit?.changes ?? NONE} writes={unit?.equalWrites ?? NONE} jump={(seq) => seek(toIndex(seq))} />;
      })}
    </section>
  );
}

const NONE: ArrayLike<number> = new Float64Array(0);

function Card({ p, raw, cursorSeq, cursorIndex, lastSeq, changes, writes, jump }: {
  p: ProjectionAtCursor; raw: boolean; cursorSeq: number; cursorIndex: number; lastSeq: number; changes: ArrayLike<number>; writes: ArrayLike<number>; jump: (seq: number) => void;
}) {
  const behind = p.observedSeq < cursorSeq;
  return (
    <article className={`projection-card${p.changedHere ? ' changed' : p.rewroteHere ? ' rewrote' : ''}`} aria-label={`Projection ${p.key}`}>
      <header>
        <strong>{p.key}</strong>
        <span className="muted mono">v{p.stateVersion}</span>
        {p.hostOnly && <span className="badge" title="host-only: not published on the wire">host</span>}
        {p.changedHere && <span className="badge changed-badge" title="the value after this event differs from the value before it">changed here</span>}
        {p.rewroteHere && <span className="badge rewrote-badge" title="this event wrote the unit again, but the value equals the one before it">written, unchanged</span>}
        <PartialNote analysis={ANALYSES.projections} seq={cursorSeq} unit={p.key} />
        <span className={`mono watermark${behind ? ' behind' : ''}`} title="observedSeq: the last event this unit observed">
          watermark {p.observedSeq}{behind ? ` (cursor ${cursorSeq})` : ''}
        </span>
        <span className="spacer" />
        <button className="link" disabled={p.prevChange === null} onClick={() => p.prevChange !== null && jump(p.prevChange)} aria-label={`Previous change of ${p.key}`} title="the previous value change (equal writes are skipped)">◀ change</button>
        <button className="link" disabled={p.nextChange === null} onClick={() => p.nextChange !== null && jump(p.nextChange)} aria-label={`Next change of ${p.key}`} title="the next value change (equal writes are skipped)">change ▶</button>
      </header>
      {p.failure && (
        <div className="diag error" role="alert">
          {failureLead(p.failure)}{' '}
          <button className="link mono" disabled={p.failure.seq === cursorSeq} onClick={() => jump(p.failure!.seq)} title="move the cursor to the event where this began">seq {p.failure.seq}</button>
          : {p.failure.message}
        </div>
      )}
      <ChangeStrip positions={changes} writes={writes} total={lastSeq} cursor={cursorSeq} label={`${p.key} changes`} onPick={jump} />
      {p.changedHere && (
        <div className="change-detail">
          {p.diff && <ValueDiffView diff={p.diff} />}
          <SeenByCall index={cursorIndex} what={`this change of ${p.key}`} />
        </div>
      )}
      <UnitBody unit={p.key} view={p.view} state={p.state} raw={raw} valueFrom={p.changedHere ? cursorSeq : p.prevChange ?? -1} />
    </article>
  );
}

/**
 * The unit's value, drawn again only when it changed: its value at the
 * cursor is the one its last change at or before the cursor made
 * (`valueFrom`; equal writes are no change), so a step that changes nothing
 * in it leaves it alone (every step used to redraw every card's tree).
 * Another log's cards are new ones: the panel draws none until its answer
 * is for the log open (see `answer.log`).
 */
const UnitBody = memo(function UnitBody({ unit, view, state, raw }: { unit: string; view: unknown; state: unknown; raw: boolean; valueFrom: number }) {
  return (
    <div className={raw ? 'projection-body two' : 'projection-body'}>
      <div><FriendlyView unit={unit} view={view} /></div>
      {raw && <div className="json"><JsonView value={state} name="state" open={1} /></div>}
    </div>
  );
}, (a, b) => a.unit === b.unit && a.raw === b.raw && a.valueFrom === b.valueFrom);
