import { useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import { buildMembership, countAtOrBefore, crossedAt, nodeAt } from '../../core/replay/membership.ts';
import type { Theme } from '../../store/view.ts';
import type { LoadSummary } from '../../worker/protocol.ts';
import { isDark } from './dark.ts';
import { xOf, type TimelineView } from './draw.ts';
import { drawMembershipBars, drawMembershipCursor, laneLayout } from './membership-draw.ts';
import './membership.css';
import { formatCount } from '../counts.ts';

/** Past this many nodes at the cursor the crossed seqs are left out of the DOM (a test hook, not a view). */
const CROSSED_ATTR_MAX = 5000;

interface Props {
  summary: LoadSummary;
  view: TimelineView;
  width: number;
  index: number;
  theme: Theme;
  seek(index: number): void;
  onWheel(offsetX: number, deltaY: number): void;
}

/**
 * Context membership (issue #19): one bar per node ever on the surface, from
 * the event that put it there to the replace that shadowed it, stacked in
 * surface order — the cursor line crosses exactly what the model saw. Shares
 * the timeline's x axis (view and zoom). Built once per log; the bars redraw
 * with the view, the highlight only when the cursor passes a surface change.
 */
export function MembershipLane({ summary, view, width, index, theme, seek, onWheel }: Props) {
  const bars = useRef<HTMLCanvasElement>(null);
  const highlight = useRef<HTMLCanvasElement>(null);
  const [hover, setHover] = useState(-1);
  const readout = useId();
  const m = useMemo(() => buildMembership({
    seq: summary.columns.seq, surfaceChange: summary.columns.surfaceChange, count: summary.count, replacements: summary.replacements,
  }), [summary]);
  // The highlight is real work on a long surface (tens of thousands of bars): it follows the cursor deferred,
  // after the scrubber and the cursor line have painted, as the panels do.
  const settled = useDeferredValue(index);
  // Between two membership changes the crossing set is the same: key the highlight on how many came before the cursor.
  const epoch = useMemo(() => countAtOrBefore(m.changes, settled), [m, settled]);
  const crossed = useMemo(() => (epoch === 0 ? new Uint32Array(0) : crossedAt(m, m.changes[epoch - 1])), [m, epoch]);
  const activeLinks = useMemo(() => countAtOrBefore(m.links.at, settled), [m, settled]);
  const dark = isDark(theme);
  const layout = laneLayout(m.rows);

  useEffect(() => { if (bars.current) drawMembershipBars(bars.current, m, view, width, dark); }, [m, view, width, dark]);
  useEffect(() => { if (highlight.current) drawMembershipCursor(highlight.current, m, crossed, view, width, activeLinks, dark); }, [m, crossed, view, width, activeLinks, dark]);

  const toIndex = (x: number) => Math.max(0, Math.min(summary.count - 1, Math.floor(view.start + (x / width) * (view.end - view.start))));
  const crossedSeqs = useMemo(() => (crossed.length <= CROSSED_ATTR_MAX ? Array.from(crossed, (k) => m.seq[k]).join(',') : undefined), [m, crossed]);
  const summaryText = `${formatCount(crossed.length)} node${crossed.length === 1 ? '' : 's'} on the surface at the cursor; ${formatCount(m.nodes)} ever`;

  return (
    <div className="membership">
      <div className="membership-head">
        <span className="membership-title">Context</span>
        <span className="membership-key membership-key-bar">node</span>
        <span className="membership-key membership-key-crossed">at cursor</span>
        <span className="membership-key membership-key-replacing">replacing node</span>
        <span className="membership-key membership-key-join">replace join</span>
        <span id={readout} className="membership-readout">{summaryText}{m.complete ? '' : ' (some replaces are not known yet)'}</span>
      </div>
      <div className="membership-layers" style={{ height: layout.height }}>
        <canvas ref={highlight} className="membership-highlight" aria-hidden="true" />
        <div className="membership-cursor" style={{ transform: `translateX(${xOf(view, width, index + 0.5)}px)`, height: layout.height }} aria-hidden="true" />
        <canvas
          ref={bars}
          role="img"
          aria-label="Context membership"
          aria-describedby={readout}
          data-crossed={crossedSeqs}
          data-crossed-count={crossed.length}
          title={hover >= 0 ? nodeTitle(summary, m, hover) : undefined}
          onClick={(e) => seek(toIndex(e.nativeEvent.offsetX))}
          onWheel={(e) => onWheel(e.nativeEvent.offsetX, e.deltaY)}
          onMouseMove={(e) => setHover(nodeAt(m, toIndex(e.nativeEvent.offsetX), Math.floor(e.nativeEvent.offsetY / layout.pitch)))}
          onMouseLeave={() => setHover(-1)}
        />
      </div>
    </div>
  );
}

/** "seq 13 user/message: on the surface from seq 13 until seq 21 shadowed it". */
function nodeTitle(summary: LoadSummary, m: ReturnType<typeof buildMembership>, k: number): string {
  const { seq, typeId } = summary.columns;
  const type = summary.typeNames[typeId[m.enter[k]]] ?? '';
  const until = m.leave[k] < summary.count ? `until seq ${seq[m.leave[k]]} shadowed it` : 'to the end';
  return `seq ${m.seq[k]} ${type}: on the surface from seq ${seq[m.enter[k]]} ${until}`;
}
