import { memo, useMemo } from 'react';

/** Pixel bins of positions along a strip (a unit of a long log can change at every event: binned, not drawn one by one). */
function binsOf(list: ArrayLike<number>, total: number, width: number): Set<number> {
  const bins = new Set<number>();
  for (let i = 0; i < list.length; i++) bins.add(Math.floor((list[i] / Math.max(1, total)) * width));
  return bins;
}

/** One SVG path of a tick per bin: a single element however many bins (a rect each put ~240 in every card). */
function ticksPath(bins: Iterable<number>, y: number, height: number): string {
  let d = '';
  for (const b of bins) d += `M${b} ${y}h1.5v${height}h-1.5z`;
  return d;
}

const NONE: ArrayLike<number> = [];

/**
 * The strip's ticks, drawn once per list: a cursor step moves only the
 * cursor mark (with the Projections tab open, each step used to redraw
 * every card's ticks).
 */
const Ticks = memo(function Ticks({ positions, writes, total, width }: { positions: ArrayLike<number>; writes: ArrayLike<number>; total: number; width: number }) {
  const { changed, rewrote } = useMemo(() => {
    const c = binsOf(positions, total, width);
    return { changed: ticksPath(c, 1, 10), rewrote: ticksPath([...binsOf(writes, total, width)].filter((b) => !c.has(b)), 3, 6) };
  }, [positions, writes, total, width]);
  return (
    <>
      <rect x={0} y={5} width={width} height={2} className="strip-base" />
      {rewrote && <path d={rewrote} className="strip-write" />}
      {changed && <path d={changed} className="strip-tick" />}
    </>
  );
});

/**
 * A one-line strip over the whole log: a tick where the value changed, a
 * short hollow tick where it was written again with an equal value, and the
 * cursor.
 */
export function ChangeStrip({ positions, writes = NONE, total, cursor, width = 240, label, onPick }: {
  positions: ArrayLike<number>; writes?: ArrayLike<number>; total: number; cursor: number; width?: number; label: string; onPick?: (position: number) => void;
}) {
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
      <Ticks positions={positions} writes={writes} total={total} width={width} />
      <rect x={x(cursor)} y={0} width={1.5} height={12} className="strip-cursor" />
    </svg>
  );
}
