import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { useListWindow } from '../hooks/useListWindow.ts';
import type { CompareAt, CompareNodeView } from '../../worker/compare-protocol.ts';
import type { ListWindow } from '../../worker/protocol.ts';

const ROW_H = 22;
const OVERSCAN = 30;
const MATCH_TEXT = { same: '=', changed: '≠', 'a-only': 'only A', 'b-only': 'only B' } as const;

function Cell({ side, n }: { side: 'a' | 'b'; n: CompareNodeView | null }) {
  if (!n) return <span className={`node-cell empty side-${side}`} />;
  return (
    <span className={`node-cell side-${side} role-${n.role ?? 'none'}`} data-side={side} data-seq={n.seq} title={n.messageId ? `message ${n.messageId}` : 'no wire message'}>
      <span className="seq mono">{n.seq}</span> <span className="role">{n.role ?? '∅'}</span>{n.projected && <span className="badge">projected</span>} <span className="preview">{n.preview}</span>
    </span>
  );
}

/**
 * Both surfaces at their cursors (a virtual list: a long session has tens of
 * thousands of nodes), paired by message identity; a node with no partner is
 * marked. The worker sends the rows asked for: this list says which are in view.
 */
export function SurfaceCompare({ at, onWindow }: { at: CompareAt | null; onWindow: (w: ListWindow) => void }) {
  const scroller = useRef<HTMLDivElement>(null);
  const surface = at?.surface ?? null;
  const virtualizer = useVirtualizer({ count: surface?.count ?? 0, getScrollElement: () => scroller.current, estimateSize: () => ROW_H, overscan: OVERSCAN, initialRect: { width: 800, height: 600 } });
  const items = virtualizer.getVirtualItems();
  useListWindow(virtualizer, OVERSCAN, onWindow);
  if (!at || !surface) return <p className="muted pad">Loading…</p>;
  return (
    <div className="surface-compare" aria-label="Paired surfaces">
      <p className="muted pad">
        A: {at.a ? `${at.a.nodeCount} nodes, ${at.a.messageCount} messages at seq ${at.a.seq}` : 'no log'} · B: {at.b ? `${at.b.nodeCount} nodes, ${at.b.messageCount} messages at seq ${at.b.seq}` : 'no log'} · {surface.same} paired as the same message
      </p>
      <div className="paired-row paired-head" aria-hidden="true"><span>A</span><span /><span>B</span></div>
      <div ref={scroller} className="scroll" role="list" aria-label="Node pairs">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((v) => {
            const p = surface.pairs[v.index - surface.from];
            // A row outside the answer's window (scrolled to, not answered yet).
            if (!p) return <div key={v.index} className="paired-row pending" style={{ top: v.start, height: ROW_H }} aria-hidden="true">…</div>;
            const { na, nb } = p;
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
