import { Fragment, useState } from 'react';
import { useCursor } from '../../store/cursor.ts';
import { useView } from '../../store/view.ts';
import type { CursorState, SurfaceNodeView } from '../../worker/protocol.ts';
import { GenerationsChart } from './GenerationsChart.tsx';

/**
 * The surface at the cursor: the nodes the model sees, in order. Each
 * replace span is drawn as a bracket from the replacing node over the nodes
 * it shadowed, which stay available (ghosted) on demand. The transcript mode
 * shows what a human saw instead: every appended message in log order.
 */
export function SurfacePanel({ state }: { state: CursorState | null }) {
  const seek = useCursor((s) => s.seek);
  const select = useCursor((s) => s.select);
  const mode = useView((s) => s.surfaceMode);
  const setMode = useView((s) => s.setSurfaceMode);
  const [openSpans, setOpenSpans] = useState<ReadonlySet<number>>(new Set());
  const toggle = (seq: number) => setOpenSpans((prev) => { const next = new Set(prev); if (next.has(seq)) next.delete(seq); else next.add(seq); return next; });
  const head = (
    <div className="panel-head">
      <h2>Surface</h2>
      <div className="segmented" role="radiogroup" aria-label="View">
        <button role="radio" aria-checked={mode === 'surface'} className={mode === 'surface' ? 'active' : ''} onClick={() => setMode('surface')}>model's view</button>
        <button role="radio" aria-checked={mode === 'transcript'} className={mode === 'transcript' ? 'active' : ''} onClick={() => setMode('transcript')}>transcript</button>
      </div>
    </div>
  );
  if (!state) return <section className="panel surface-panel" aria-label="Surface">{head}</section>;
  const spans = new Map(state.replacements.map((r) => [r.seq, r]));
  const totalTokens = state.nodes.reduce((n, x) => n + x.tokens, 0);
  const nodeRow = (n: SurfaceNodeView, ghost: boolean, note?: string) => (
    <li key={`${ghost ? 'g' : 'n'}${n.seq}`} className={`node role-${n.role ?? 'none'}${ghost ? ' ghost' : ''}${n.seq === state.seq ? ' at-cursor' : ''}`}
      onClick={() => select(n.index)} onDoubleClick={() => seek(n.index)} aria-label={`seq ${n.seq} ${n.role ?? 'no message'}${ghost ? ', shadowed' : ''}`}
      title={ghost ? 'shadowed: no longer sent to the model' : n.messageId ? `message ${n.messageId}` : 'no wire message (empty content)'}>
      <span className="seq mono">{n.seq}</span>
      <span className="role">{n.role ?? '∅'}</span>
      <span className="tokens mono" title="estimated tokens (DSH token meter)">{n.tokens ? `~${n.tokens}` : ''}</span>
      <span className="preview">{n.projected && <span className="badge" title="content rewritten by a message projection">projected</span>} {note && <span className="badge">{note}</span>} {n.preview}</span>
    </li>
  );
  return (
    <section className="panel surface-panel" aria-label="Surface">
      {head}
      <div className="gens mono pad" aria-label="Generations">
        {state.nodes.length} nodes · ~{totalTokens} tokens · {state.messageCount} messages · replaceGeneration {state.replaceGeneration} · contentGeneration {state.contentGeneration}
      </div>
      <GenerationsChart />
      <div className="cursor-change">at seq {state.seq}: {state.change === 'none' ? 'no surface change' : state.change}</div>
      {mode === 'transcript' ? (
        <ul className="scroll nodes" aria-label="Transcript">
          {state.transcript.map((n) => nodeRow(n, false, n.status === 'shadowed' ? `shadowed by ${n.shadowedBy}` : n.status === 'not-a-node' ? 'rejected' : undefined))}
        </ul>
      ) : (
        <ul className="scroll nodes" aria-label="Surface nodes">
          {state.nodes.map((n) => {
            const span = spans.get(n.seq);
            if (!span) return nodeRow(n, false);
            const open = openSpans.has(span.seq) || span.shadowed.length <= 3;
            return (
              <Fragment key={`span${n.seq}`}>
                <li className="replace-span" aria-label={`Replace span: seq ${span.seq} shadows ${span.shadowedSeqs.join(', ')}`}>
                  <div className="span-label">
                    <button className="link" onClick={() => seek(n.index)}>seq {span.seq}</button> replaced {span.shadowedSeqs.length} node{span.shadowedSeqs.length > 1 ? 's' : ''} ({span.start}…{span.end}){' '}
                    {span.shadowed.length > 3 && <button className="link" aria-expanded={open} onClick={() => toggle(span.seq)}>{open ? 'hide shadowed' : 'show shadowed'}</button>}
                  </div>
                  <ul className="span-nodes">
                    {open && span.shadowed.map((g) => nodeRow(g, true))}
                    {nodeRow(n, false)}
                  </ul>
                </li>
              </Fragment>
            );
          })}
        </ul>
      )}
    </section>
  );
}
