import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/**
 * One uPlot canvas (a small, fast chart library that draws 10k+ points and
 * needs no eval, so it runs under the page's strict CSP). The chart is made
 * once per data and options. The replay cursor is a line element laid over
 * the plot, moved on a step: redrawing the canvas for it cost a long
 * session (27k calls, 64k surface points) up to 336 ms a step.
 */
export function UplotChart({ options, data, cursorX, label }: {
  options: Omit<uPlot.Options, 'width' | 'height'> & { height: number };
  data: uPlot.AlignedData;
  /** The replay cursor in x units (drawn as a line), or null. */
  cursorX: number | null;
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const line = useRef<HTMLDivElement | null>(null);
  const cursor = useRef(cursorX);
  cursor.current = cursorX;

  useEffect(() => {
    const el = box.current;
    if (!el || !canDraw()) return;
    // After every draw (a resize included) the line follows the x scale.
    const placeCursor = (u: uPlot) => placeLine(u, line.current, cursor.current);
    const u = new uPlot({ ...options, width: Math.max(200, el.clientWidth), hooks: { ...options.hooks, draw: [...(options.hooks?.draw ?? []), placeCursor] } }, data, el);
    const marker = document.createElement('div');
    marker.className = 'replay-cursor-line';
    u.over.appendChild(marker);
    line.current = marker;
    plot.current = u;
    placeCursor(u);
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height: options.height }));
    resize.observe(el);
    return () => { resize.disconnect(); u.destroy(); plot.current = null; line.current = null; };
  }, [options, data]);

  useEffect(() => { if (plot.current) placeLine(plot.current, line.current, cursorX); }, [cursorX]);

  return <div ref={box} className="uplot-box" aria-hidden="true" data-label={label} />;
}

/** The cursor line at `x` (in x units), hidden when there is none; a cursor past the plotted events stands at the plot's edge. */
function placeLine(u: uPlot, el: HTMLDivElement | null, x: number | null): void {
  if (!el) return;
  const left = x === null ? NaN : u.valToPos(x, 'x');
  const shown = Number.isFinite(left);
  el.style.display = shown ? '' : 'none';
  if (shown) el.style.transform = `translateX(${Math.max(0, Math.min(u.over.clientWidth, left))}px)`;
}

/** jsdom (component tests) has no 2D canvas: the figure then shows its text alone. */
function canDraw(): boolean {
  return typeof navigator !== 'undefined' && !/jsdom/i.test(navigator.userAgent) && typeof HTMLCanvasElement !== 'undefined';
}

export function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}
