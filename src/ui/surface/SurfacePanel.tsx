import { Fragment, useState } from 'react';
import { useCursor } from '../../store/cursor.ts';
import type { CursorState, SurfaceNodeView } from '../../worker/protocol.ts';
import { GenerationsChart } from './GenerationsChart.tsx';

/**
 * The surface at the cursor: the nodes the model sees, in order. Each
 * replace span is drawn as a bracket from the replacing node over the nodes
 * it shadowed, which stay visible but ghosted.
 */
export function SurfacePanel({ state }: { state: CursorState | null }) {
  const seek = useCursor((s) => s.seek);
  const select = useCursor((s) => s.select);
  const [openSpans, setOpenSpans] = useState<ReadonlySet<number>>(new Set());
  const toggle = (seq: number) => setOpenSpans((prev) => { const next = new Set(prev); if (next.has(seq)) next.delete(seq); else next.add(seq); return next; });
  if (!state) return <section className="panel surface-panel" aria-label="Surface"><div className="panel-head"><h2>Surface</h2></div></section>;
  const spans = new Map(state.replacements.map((r) => [r.seq, r]));
  const nodeRow = (n: SurfaceNodeView, ghost: boolean) => (
    <div key={`${ghost ? 'g' : 'n'}${n.seq}`} className={`node role-${n.role ?? 'none'}${ghost ? ' ghost' : ''}${n.seq === state.seq ? ' at-cursor' : ''}`}
      onClick={() => select(n.index)} onDoubleClick={() => seek(n.index)} title={ghost ? 'shadowed: no longer sent to the model' : n.messageId ? `message ${n.messageId}` : 'no wire message (empty content)'}>
      <span className="seq mono">{n.seq}</span>
      <span className="role">{n.role ?? '∅'}</span>
      {n.projected && <span className="badge" title="content rewritten by a message projection">projected</span>}
      <span className="preview">{n.preview}</span>
    </div>
  );
  return (
    <section className="panel surface-panel" aria-label="Surface">
      <div className="panel-head">
        <h2>Surface</h2>
        <span className="mono gens" aria-label="Generations">
          {state.nodes.length} nodes · {state.messages.length} messages · replaceGeneration {state.replaceGeneration} · contentGeneration {state.contentGeneration}
        </span>
      </div>
      <GenerationsChart />
      <div className="cursor-change">at seq {state.seq}: {state.change === 'none' ? 'no surface change' : state.change}</div>
      <div className="scroll nodes">
        {state.nodes.map((n) => {
          const span = spans.get(n.seq);
          if (!span) return nodeRow(n, false);
          return (
            <Fragment key={`span${n.seq}`}>
              <div className="replace-span" aria-label={`Replace span: seq ${span.seq} shadows ${span.shadowedSeqs.join(', ')}`}>
                <div className="span-label">
                  <button className="link" onClick={() => seek(n.index)}>seq {span.seq}</button> replaced {span.shadowedSeqs.length} node{span.shadowedSeqs.length > 1 ? 's' : ''} ({span.start}…{span.end}){' '}
                  <button className="link" aria-expanded={openSpans.has(span.seq)} onClick={() => toggle(span.seq)}>{openSpans.has(span.seq) ? 'hide shadowed' : 'show shadowed'}</button>
                </div>
                {(openSpans.has(span.seq) || span.shadowed.length <= 3) && span.shadowed.map((g) => nodeRow(g, true))}
                {nodeRow(n, false)}
              </div>
            </Fragment>
          );
        })}
      </div>
    </section>
  );
}
