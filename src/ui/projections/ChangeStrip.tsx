import { useMemo } from 'react';

/**
 * A one-line strip over the whole log: a tick where something changed, and
 * the cursor. Ticks are binned per pixel so thousands of changes stay cheap.
 */
export function ChangeStrip({ positions, total, cursor, width = 240, label, onPick }: {
  positions: ArrayLike<number>; total: number; cursor: number; width?: number; label: string; onPick?: (position: number) => void;
}) {
  // Binned once per list (a unit of a long log can change at every event), not on every cursor move.
  const bins = useMemo(() => {
    const out = new Set<number>();
    for (let i = 0; i < positions.length; i++) out.add(Math.floor((positions[i] / Math.max(1, total)) * width));
    return [...out];
  }, [positions, total, width]);
  const x = (p: number) => (p / Math.max(1, total)) * width;
  return (
    <svg className="strip" width={width} height={12} role="img" aria-label={`${label}: ${positions.length} changes`}
      onClick={(e) => {
        if (!onPick || positions.length === 0) return;
        const at = (e.nativeEvent.offsetX / width) * total;
        let best = positions[0];
        for (let i = 1; i < positions.length; i++) if (Math.abs(positions[i] - at) < Math.abs(best - at)) best = positions[i];
        onPick(best);
      }}>
      <rect x={0} y={5} width={width} height={2} className="strip-base" />
      {bins.map((b) => <rect key={b} x={b} y={1} width={1.5} height={10} className="strip-tick" />)}
      <rect x={x(cursor)} y={0} width={1.5} height={12} className="strip-cursor" />
    </svg>
  );
}
