import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { CompareAt, CompareNodeView } from '../../worker/compare-protocol.ts';

const ROW_H = 22;
const MATCH_TEXT = { same: '=', changed: '≠', 'a-only': 'only A', 'b-only': 'only B' } as const;

function Cell({ side, n }: { side: 'a' | 'b'; n: CompareNodeView | null }) {
  if (!n) return <span className={`node-cell empty side-${side}`} />;
  return (
    <span className={`node-cell side-${side} role-${n.role ?? 'none'}`} data-side={side} data-seq={n.seq} title={n.messageId ? `message ${n.messageId}` : 'no wire message'}>
      <span className="seq mono">{n.seq}</span> <span className="role">{n.role ?? '∅'}</span>{n.projected && <span className="badge">projected</span>} <span className="preview">{n.preview}</span>
    </span>
  );
}

/** Both surfaces at their cursors (a virtual list: a long session has thousands of nodes), paired by message identity; a node with no partner is marked. */
export function SurfaceCompare({ at }: { at: CompareAt | null }) {
  const scroller = useRef<HTMLDivElement>(null);
  const pairs = at?.surface ?? [];
  const virtualizer = useVirtualizer({ count: pairs.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_H, overscan: 30, initialRect: { width: 800, height: 600 } });
  if (!at) return <p className="muted pad">Loading…</p>;
  const same = pairs.filter((p) => p.match === 'same').length;
  return (
    <div className="surface-compare" aria-label="Paired surfaces">
      <p className="muted pad">
        A: {at.a ? `${at.a.nodes.length} nodes, ${at.a.messageCount} messages at seq ${at.a.seq}` : 'no log'} · B: {at.b ? `${at.b.nodes.length} nodes, ${at.b.messageCount} messages at seq ${at.b.seq}` : 'no log'} · {same} paired as the same message
      </p>
      <div className="paired-row paired-head" aria-hidden="true"><span>A</span><span /><span>B</span></div>
      <div ref={scroller} className="scroll" role="list" aria-label="Node pairs">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const p = pairs[v.index];
            const na = p.a === null ? null : at.a!.nodes[p.a];
            const nb = p.b === null ? null : at.b!.nodes[p.b];
            return (
              <div key={v.index} role="listitem" className={`paired-row pair-${p.match}`} style={{ top: v.start, height: ROW_H }}
                aria-label={`${na ? `A seq ${na.seq}` : ''}${na && nb ? ' and ' : ''}${nb ? `B seq ${nb.seq}` : ''}: ${p.match}`}>
                <Cell side="a" n={na} />
                <span className="match" title={p.match}>{MATCH_TEXT[p.match]}</span>
                <Cell side="b" n={nb} />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
