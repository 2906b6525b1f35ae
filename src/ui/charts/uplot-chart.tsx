import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/**
 * One uPlot canvas (a small, fast chart library that draws 10k+ points and
 * needs no eval, so it runs under the page's strict CSP). The chart is made
 * once per data and options; the cursor line is redrawn on its own, so a
 * cursor move costs one redraw, not a new chart.
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
  const cursor = useRef(cursorX);
  cursor.current = cursorX;

  useEffect(() => {
    const el = box.current;
    if (!el || !canDraw()) return;
    const drawCursor = (u: uPlot) => {
      const x = cursor.current;
      if (x === null) return;
      const left = u.valToPos(x, 'x', true);
      const { ctx } = u;
      ctx.save();
      ctx.strokeStyle = cssVar('--accent', '#2f6feb');
      ctx.lineWidth = 1.5 * devicePixelRatio;
      ctx.beginPath();
      ctx.moveTo(left, u.bbox.top);
      ctx.lineTo(left, u.bbox.top + u.bbox.height);
      ctx.stroke();
      ctx.restore();
    };
    const u = new uPlot({ ...options, width: Math.max(200, el.clientWidth), hooks: { ...options.hooks, draw: [...(options.hooks?.draw ?? []), drawCursor] } }, data, el);
    plot.current = u;
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height: options.height }));
    resize.observe(el);
    return () => { resize.disconnect(); u.destroy(); plot.current = null; };
  }, [options, data]);

  useEffect(() => { plot.current?.redraw(false, false); }, [cursorX]);

  return <div ref={box} className="uplot-box" aria-hidden="true" data-label={label} />;
}

/** jsdom (component tests) has no 2D canvas: the figure then shows its text alone. */
function canDraw(): boolean {
  return typeof navigator !== 'undefined' && !/jsdom/i.test(navigator.userAgent) && typeof HTMLCanvasElement !== 'undefined';
}

export function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}
