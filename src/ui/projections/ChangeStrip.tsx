/**
 * A one-line strip over the whole log: a tick where something changed, and
 * the cursor. Ticks are binned per pixel so thousands of changes stay cheap.
 */
export function ChangeStrip({ positions, total, cursor, width = 240, label, onPick }: {
  positions: number[]; total: number; cursor: number; width?: number; label: string; onPick?: (position: number) => void;
}) {
  const bins = new Set<number>();
  for (const p of positions) bins.add(Math.floor((p / Math.max(1, total)) * width));
  const x = (p: number) => (p / Math.max(1, total)) * width;
  return (
    <svg className="strip" width={width} height={12} role="img" aria-label={`${label}: ${positions.length} changes`}
      onClick={(e) => {
        if (!onPick || positions.length === 0) return;
        const at = (e.nativeEvent.offsetX / width) * total;
        onPick(positions.reduce((best, p) => (Math.abs(p - at) < Math.abs(best - at) ? p : best), positions[0]));
      }}>
      <rect x={0} y={5} width={width} height={2} className="strip-base" />
      {[...bins].map((b) => <rect key={b} x={b} y={1} width={1.5} height={10} className="strip-tick" />)}
      <rect x={x(cursor)} y={0} width={1.5} height={12} className="strip-cursor" />
    </svg>
  );
}
