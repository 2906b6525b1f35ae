import { useMemo } from 'react';

/** Pixel bins of positions along a strip (a unit of a long log can change at every event: binned, not drawn one by one). */
function binsOf(list: ArrayLike<number>, total: number, width: number): Set<number> {
  const bins = new Set<number>();
  for (let i = 0; i < list.length; i++) bins.add(Math.floor((list[i] / Math.max(1, total)) * width));
  return bins;
}

const NONE: ArrayLike<number> = [];

/**
 * A one-line strip over the whole log: a tick where the value changed, a
 * short hollow tick where it was written again with an equal value, and the
 * cursor. Bins are made once per list, not on every cursor move.
 */
export function ChangeStrip({ positions, writes = NONE, total, cursor, width = 240, label, onPick }: {
  positions: ArrayLike<number>; writes?: ArrayLike<number>; total: number; cursor: number; width?: number; label: string; onPick?: (position: number) => void;
}) {
  const { changed, rewrote } = useMemo(() => {
    const c = binsOf(positions, total, width);
    return { changed: [...c], rewrote: [...binsOf(writes, total, width)].filter((b) => !c.has(b)) };
  }, [positions, writes, total, width]);
  const x = (p: number) => (p / Math.max(1, total)) * width;
  return (
    <svg className="strip" width={width} height={12} role="img"
      aria-label={`${label}: ${positions.length} value change${positions.length === 1 ? '' : 's'}${writes.length ? `, ${writes.length} write${writes.length === 1 ? '' : 's'} of an equal value` : ''}`}
      onClick={(e) => {
        if (!onPick || positions.length + writes.length === 0) return;
        const at = (e.nativeEvent.offsetX / width) * total;
        let best = Number.NaN;
        for (const list of [positions, writes]) {
          for (let i = 0; i < list.length; i++) if (Number.isNaN(best) || Math.abs(list[i] - at) < Math.abs(best - at)) best = list[i];
        }
        onPick(best);
      }}>
      <rect x={0} y={5} width={width} height={2} className="strip-base" />
      {rewrote.map((b) => <rect key={`w${b}`} x={b} y={3} width={1.5} height={6} className="strip-write" />)}
      {changed.map((b) => <rect key={b} x={b} y={1} width={1.5} height={10} className="strip-tick" />)}
      <rect x={x(cursor)} y={0} width={1.5} height={12} className="strip-cursor" />
    </svg>
  );
}
