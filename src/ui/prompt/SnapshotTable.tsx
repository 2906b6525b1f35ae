import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useMemo, useRef } from 'react';
import type { ContextSnapshotRow } from '../../worker/protocol.ts';
import { useKeepInView } from '../hooks/useKeepInView.ts';
import { positionOf } from '../../core/util/sorted.ts';

const ROW_H = 21;

/**
 * The runtime-context snapshots as a list of its own, drawn a screen at a
 * time: a long session has thousands (8,521 on a real-shaped 1M-event log),
 * and a table of all of them made every cursor step redraw them (a step
 * must fit in a frame). The row of the snapshot shown is kept in view.
 */
export const SnapshotTable = memo(function SnapshotTable({ snapshots, shownSeq, onJump, onPick }: {
  snapshots: readonly ContextSnapshotRow[];
  /** The snapshot shown below the table (the cursor's, or the one picked). */
  shownSeq: number | null;
  onJump: (seq: number) => void;
  onPick: (side: 'a' | 'b', seq: number) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: snapshots.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_H, overscan: 10, initialRect: { width: 600, height: 300 }, useFlushSync: false });
  // Snapshots come in log order, so their seqs rise: the shown one is found by binary search.
  const seqs = useMemo(() => Float64Array.from(snapshots, (c) => c.seq), [snapshots]);
  const shownRow = useMemo(() => (shownSeq === null ? -1 : positionOf(seqs, shownSeq)), [seqs, shownSeq]);
  useKeepInView(virtualizer, shownRow, snapshots.length);
  const items = virtualizer.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    <div ref={scroller} className="scroll snapshot-table">
      <table className="grid-table" aria-rowcount={snapshots.length + 1}>
        <thead><tr><th>seq</th><th>turn.step</th><th>sections</th><th>surface</th><th>compare</th></tr></thead>
        <tbody>
          {padTop > 0 && <tr aria-hidden="true" style={{ height: padTop }} />}
          {items.map((v) => <SnapshotRow key={snapshots[v.index].seq} c={snapshots[v.index]} rowIndex={v.index + 2} shown={v.index === shownRow} onJump={onJump} onPick={onPick} />)}
          {padBottom > 0 && <tr aria-hidden="true" style={{ height: padBottom }} />}
        </tbody>
      </table>
    </div>
  );
});

const SnapshotRow = memo(function SnapshotRow({ c, rowIndex, shown, onJump, onPick }: {
  c: ContextSnapshotRow; rowIndex: number; shown: boolean; onJump: (seq: number) => void; onPick: (side: 'a' | 'b', seq: number) => void;
}) {
  return (
    <tr className={shown ? 'selected' : ''} aria-rowindex={rowIndex} style={{ height: ROW_H }}>
      <td><button className="link" onClick={() => onJump(c.seq)}>{c.seq}</button></td>
      <td className="mono">{c.turn ?? '-'}.{c.step ?? '-'}</td>
      <td>{c.cleared ? <em>CLEARED</em> : c.names.join(', ')}{c.reemittedAfterShadowing ? ' · re-emitted after compaction' : ''}{c.unchanged ? ' · unchanged' : ''}</td>
      <td>{c.onSurface ? 'on' : c.shadowedBy !== null ? `shadowed by ${c.shadowedBy}` : 'off'}</td>
      <td>
        <button className="link" onClick={() => onPick('b', c.seq)} aria-label={`Show snapshot ${c.seq}`}>B</button>{' '}
        <button className="link" onClick={() => onPick('a', c.seq)} aria-label={`Compare from snapshot ${c.seq}`}>A</button>
      </td>
    </tr>
  );
});
