import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import { useView } from '../../store/view.ts';
import { eventCountText } from '../counts.ts';
import { isDark } from './dark.ts';
import { drawTimelineBase, drawTimelineSpans, spanPlaces, timelineLayout, xOf, type TimelineView } from './draw.ts';
import { MembershipLane } from './MembershipLane.tsx';
import { JobsLane } from './JobsLane.tsx';
import { firstWhere } from '../../core/util/sorted.ts';
import { NoteFlags } from '../notes/NoteFlags.tsx';

/**
 * The log's events along one axis, one lane per family, turns as bands and
 * replace spans as brackets back to what they shadowed. Canvas, binned per
 * pixel, so a 1M-event log draws as fast as a small one. Wheel zooms, drag
 * pans, click seeks. Under the lanes, the context membership lane (toggled
 * by "Context") on the same axis, and the background jobs' lane.
 */
export function Timeline() {
  const summary = useSession((s) => s.summary);
  const index = useCursor((s) => s.index);
  const seek = useCursor((s) => s.seek);
  const theme = useView((s) => s.theme);
  const canvas = useRef<HTMLCanvasElement>(null);
  const spansCanvas = useRef<HTMLCanvasElement>(null);
  const [view, setView] = useState<TimelineView>({ start: 0, end: 1 });
  const [width, setWidth] = useState(800);
  const [membership, setMembership] = useState(true);
  const drag = useRef<{ x: number; start: number; end: number; moved: boolean } | null>(null);

  useEffect(() => { if (summary) setView({ start: 0, end: summary.count }); }, [summary]);
  useEffect(() => {
    const el = canvas.current?.parentElement;
    if (!el) return;
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  // Three layers: the events (redrawn when the log, view, size or theme change), the replace spans
  // (also when the cursor crosses a replace), and the cursor line (a moved element, never a redraw).
  useEffect(() => {
    const c = canvas.current;
    if (!c || !summary) return;
    drawTimelineBase(c, summary, view, width, isDark(theme));
  }, [summary, view, width, theme]);
  const places = useMemo(() => (summary ? spanPlaces(summary) : []), [summary]);
  const active = useMemo(() => firstWhere(places.length, (m) => !(places[m].at <= index)), [places, index]);
  useEffect(() => {
    const c = spansCanvas.current;
    if (c && summary) drawTimelineSpans(c, summary, places, view, width, active);
  }, [summary, places, view, width, active]);

  // The note flags' axis: the zoomed view, in px; null outside it.
  const flagX = useCallback((i: number) => { const px = xOf(view, width, i + 0.5); return px >= 0 && px <= width ? px : null; }, [view, width]);

  if (!summary) return null;
  const { height } = timelineLayout(summary);
  const cursorX = xOf(view, width, index + 0.5);
  const toIndex = (x: number) => Math.floor(view.start + (x / width) * (view.end - view.start));
  /** Wheel zoom about the pointer (the lanes and the membership lane share it). */
  const zoom = (offsetX: number, deltaY: number) => {
    const span = view.end - view.start;
    const factor = deltaY > 0 ? 1.25 : 0.8;
    const next = Math.min(summary.count, Math.max(20, span * factor));
    const anchor = view.start + (offsetX / width) * span;
    const start = Math.max(0, Math.min(summary.count - next, anchor - (anchor - view.start) * (next / span)));
    setView({ start, end: start + next });
  };
  return (
    <section className="timeline" aria-label="Timeline">
      <div className="timeline-layers" style={{ height }}>
      <canvas ref={spansCanvas} className="timeline-spans" aria-hidden="true" />
      <div className="timeline-cursor" style={{ transform: `translateX(${cursorX}px)`, height }} aria-hidden="true" />
      <NoteFlags summary={summary} unit="px" x={flagX} seek={seek} />
      <canvas
        ref={canvas}
        role="img"
        aria-label={`Timeline of ${eventCountText(summary.count, summary.syntheticCount)}, ${summary.replacements.length} replace spans`}
        onWheel={(e) => zoom(e.nativeEvent.offsetX, e.deltaY)}
        onMouseDown={(e) => { drag.current = { x: e.clientX, start: view.start, end: view.end, moved: false }; }}
        onMouseMove={(e) => {
          const d = drag.current;
          if (!d) return;
          const dx = e.clientX - d.x;
          if (Math.abs(dx) > 3) d.moved = true;
          const shift = (-dx / width) * (d.end - d.start);
          const start = Math.max(0, Math.min(summary.count - (d.end - d.start), d.start + shift));
          setView({ start, end: start + (d.end - d.start) });
        }}
        onMouseUp={(e) => {
          const d = drag.current;
          drag.current = null;
          if (d && !d.moved) seek(toIndex(e.nativeEvent.offsetX));
        }}
        onMouseLeave={() => { drag.current = null; }}
      />
      </div>
      {/* A partial summary has no replace records yet: the lane waits for the whole log. */}
      {membership && !summary.partial && <MembershipLane summary={summary} view={view} width={width} index={index} theme={theme} seek={seek} onWheel={zoom} />}
      <JobsLane summary={summary} view={view} width={width} seek={seek} />
      <div className="timeline-legend">
        {summary.families.map((f) => <span key={f} className={`legend fam-${f}`}>{f}</span>)}
        <span className="legend finding-legend">findings</span>
        <span className="legend replace-legend">replace span</span>
        <button aria-pressed={membership} title="Show which nodes were on the surface at each event" onClick={() => setMembership(!membership)}>Context</button>
        <button onClick={() => setView({ start: 0, end: summary.count })}>Fit</button>
      </div>
    </section>
  );
}
