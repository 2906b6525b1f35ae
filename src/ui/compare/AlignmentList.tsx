import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { useCompare } from '../../store/compare.ts';
import { useSession } from '../../store/session.ts';
import { callLabel, rowStatusText } from './labels.ts';

const ROW_H = 22;

/**
 * Every aligned row (virtualized): A's call, what differs, B's call. A call
 * only one run made is a gap on the other side. Click moves both cursors.
 */
export function AlignmentList() {
  const view = useCompare((s) => s.view);
  const b = useCompare((s) => s.b);
  const row = useCompare((s) => s.row);
  const seekRow = useCompare((s) => s.seekRow);
  const a = useSession((s) => s.summary);
  const scroller = useRef<HTMLDivElement>(null);
  const rows = view?.report.rows ?? [];
  const first = view?.report.firstDivergence?.row ?? -1;
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_H, overscan: 20, initialRect: { width: 360, height: 600 } });
  useEffect(() => { if (rows.length) virtualizer.scrollToIndex(row, { align: 'auto' }); }, [row, rows.length, virtualizer]);
  return (
    <section className="panel compare-rows" aria-label="Aligned calls">
      <div className="panel-head"><h2>Aligned calls</h2><span className="muted">{rows.length} rows</span></div>
      <div className="compare-row compare-row-head" aria-hidden="true"><span>A</span><span /><span>B</span></div>
      <div ref={scroller} className="scroll" role="listbox" aria-label="Aligned rows" aria-activedescendant={rows.length ? `compare-row-${row}` : undefined}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const r = rows[v.index];
            const status = rowStatusText(r);
            return (
              <div key={v.index} id={`compare-row-${v.index}`} role="option" aria-selected={v.index === row}
                className={`compare-row st-${r.status}${v.index === row ? ' current' : ''}${v.index === first ? ' first' : ''}${r.inherited ? ' inherited' : ''}`}
                style={{ top: v.start, height: ROW_H }} onClick={() => seekRow(v.index)}
                aria-label={`row ${v.index + 1}: ${r.a === null ? 'no call in A' : `A call ${r.a + 1}`}, ${r.b === null ? 'no call in B' : `B call ${r.b + 1}`}: ${status}${v.index === first ? ', first divergence' : ''}`}>
                <span className="mono cell-a">{callLabel(r.a, a?.requests)}</span>
                <span className="status">{v.index === first ? '▶ ' : ''}{status}</span>
                <span className="mono cell-b">{callLabel(r.b, b?.requests)}</span>
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}
