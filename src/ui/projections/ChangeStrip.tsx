/**
 * A one-line strip over the whole log: a tick where the value changed, a
 * short hollow tick where it was written again with an equal value, and the
 * cursor. Ticks are binned per pixel so thousands of changes stay cheap.
 */
export function ChangeStrip({ positions, writes = [], total, cursor, width = 240, label, onPick }: {
  positions: number[]; writes?: number[]; total: number; cursor: number; width?: number; label: string; onPick?: (position: number) => void;
}) {
  const bin = (list: number[]) => {
    const bins = new Set<number>();
    for (const p of list) bins.add(Math.floor((p / Math.max(1, total)) * width));
    return bins;
  };
  const changed = bin(positions);
  const rewrote = [...bin(writes)].filter((b) => !changed.has(b));
  const x = (p: number) => (p / Math.max(1, total)) * width;
  const all = writes.length ? [...positions, ...writes] : positions;
  return (
    <svg className="strip" width={width} height={12} role="img"
      aria-label={`${label}: ${positions.length} value change${positions.length === 1 ? '' : 's'}${writes.length ? `, ${writes.length} write${writes.length === 1 ? '' : 's'} of an equal value` : ''}`}
      onClick={(e) => {
        if (!onPick || all.length === 0) return;
        const at = (e.nativeEvent.offsetX / width) * total;
        onPick(all.reduce((best, p) => (Math.abs(p - at) < Math.abs(best - at) ? p : best), all[0]));
      }}>
      <rect x={0} y={5} width={width} height={2} className="strip-base" />
      {rewrote.map((b) => <rect key={`w${b}`} x={b} y={3} width={1.5} height={6} className="strip-write" />)}
      {[...changed].map((b) => <rect key={b} x={b} y={1} width={1.5} height={10} className="strip-tick" />)}
      <rect x={x(cursor)} y={0} width={1.5} height={12} className="strip-cursor" />
    </svg>
  );
}
