import { useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import { crossingAt, rowsChangedBetween, type Crossing } from '../../core/replay/crossing.ts';
import { countAtOrBefore, MembershipBuilder, nodeAt, type Membership } from '../../core/replay/membership.ts';
import { GrownRowsCache } from '../grown-rows-cache.ts';
import type { Theme } from '../../store/view.ts';
import type { LoadSummary } from '../../worker/protocol.ts';
import { isDark } from './dark.ts';
import { xOf, type TimelineView } from './draw.ts';
import { drawCrossedBars, drawMembershipBars, drawMembershipJoins, laneLayout, redrawCrossedRows } from './membership-draw.ts';
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
 * Context membership (docs/open-and-navigate.md): one bar per node ever on the surface, from
 * the event that put it there to the replace that shadowed it, stacked in
 * surface order — the cursor line crosses exactly what the model saw. Shares
 * the timeline's x axis (view and zoom). Built once per log; the bars redraw
 * with the view, the highlight only when the cursor passes a surface change.
 */
export function MembershipLane({ summary, view, width, index, theme, seek, onWheel }: Props) {
  const bars = useRef<HTMLCanvasElement>(null);
  const highlight = useRef<HTMLCanvasElement>(null);
  const joins = useRef<HTMLCanvasElement>(null);
  /** What the highlight layer shows now: the next step redraws only the rows that differ from it. */
  const drawn = useRef<DrawnHighlight | null>(null);
  const [hover, setHover] = useState(-1);
  const readout = useId();
  const m = useMemo(() => membershipOf(summary), [summary]);
  // The highlight is real work on a long surface (tens of thousands of bars): it follows the cursor deferred,
  // after the scrubber and the cursor line have painted, as the panels do.
  const settled = useDeferredValue(index);
  // Between two membership changes the crossing set is the same: key the highlight on how many came before the cursor.
  const epoch = useMemo(() => countAtOrBefore(m.changes, settled), [m, settled]);
  // Walked from the set drawn last (a ref read as a cache: the set is the epoch's whichever way it is reached).
  const crossing = useMemo(() => crossingAt(m, epoch, drawn.current?.m === m ? drawn.current.crossing : null), [m, epoch]);
  const crossed = crossing.nodes;
  const activeLinks = useMemo(() => countAtOrBefore(m.links.at, settled), [m, settled]);
  const dark = isDark(theme);
  const layout = laneLayout(m.rows);

  useEffect(() => { if (bars.current) drawMembershipBars(bars.current, m, view, width, dark); }, [m, view, width, dark]);
  useEffect(() => {
    const canvas = highlight.current;
    if (!canvas) return;
    const last = drawn.current;
    const rows = last && last.m === m && last.view === view && last.width === width && last.dark === dark
      ? rowsChangedBetween(m, last.crossing.epoch, crossing.epoch) : null;
    if (!rows || !redrawCrossedRows(canvas, m, crossing.nodes, view, width, dark, rows.lo, rows.hi)) drawCrossedBars(canvas, m, crossing.nodes, view, width, dark);
    drawn.current = { m, crossing, view, width, dark };
  }, [m, crossing, view, width, dark]);
  useEffect(() => { if (joins.current) drawMembershipJoins(joins.current, m, view, width, activeLinks); }, [m, view, width, activeLinks]);

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
        <canvas ref={joins} className="membership-joins" aria-hidden="true" />
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

interface DrawnHighlight { m: Membership; crossing: Crossing; view: TimelineView; width: number; dark: boolean }

/** A log's membership, per rows: a followed log's is extended with its new events (grown-rows-cache.ts). */
const byRows = new GrownRowsCache<{ builder: MembershipBuilder; membership: Membership }>((summary, kept) => {
  const builder = kept?.builder ?? new MembershipBuilder();
  return { builder, membership: builder.add({ seq: summary.columns.seq, surfaceChange: summary.columns.surfaceChange, count: summary.count, replacements: summary.replacements }) };
});

function membershipOf(summary: LoadSummary): Membership {
  return byRows.get(summary).membership;
}

/** "seq 13 user/message: on the surface from seq 13 until seq 21 shadowed it". */
function nodeTitle(summary: LoadSummary, m: Membership, k: number): string {
  const { seq, typeId } = summary.columns;
  const type = summary.typeNames[typeId[m.enter[k]]] ?? '';
  const until = m.leave[k] < summary.count ? `until seq ${seq[m.leave[k]]} shadowed it` : 'to the end';
  return `seq ${m.seq[k]} ${type}: on the surface from seq ${seq[m.enter[k]]} ${until}`;
}
