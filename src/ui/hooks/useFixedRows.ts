import { useEffect, useRef, useState, type RefObject } from 'react';
import { offsetToShow } from './useKeepInView.ts';

/** The scroller's offset and height, as its last scroll and resize events left them. */
interface Viewport { offset: number; height: number }

export interface FixedRow { index: number; start: number }

/**
 * A window over `count` rows that are all `rowHeight` tall: the rows in view
 * (and `overscan` either side) and the list's whole height, found by
 * arithmetic. A virtualizer that may measure rows keeps a start and a size
 * per row and walks all of them when the count changes; on a 1M-event log
 * that walk was the page's largest cost while the log opened.
 * `initialHeight` stands in until the scroller has a size (the first render, jsdom).
 */
export function useFixedRows(scroller: RefObject<HTMLElement | null>, count: number, rowHeight: number, overscan: number, initialHeight = 600): {
  rows: FixedRow[]; totalSize: number; viewport: RefObject<Viewport>;
} {
  const [view, setView] = useState<Viewport>({ offset: 0, height: initialHeight });
  // The same numbers without waiting for a render: keep-in-view reads them in its frame.
  const viewport = useRef<Viewport>(view);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const read = () => {
      const next = { offset: el.scrollTop, height: el.clientHeight || initialHeight };
      viewport.current = next;
      setView((v) => (v.offset === next.offset && v.height === next.height ? v : next));
    };
    read();
    el.addEventListener('scroll', read, { passive: true });
    const resize = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(read);
    resize?.observe(el);
    return () => { el.removeEventListener('scroll', read); resize?.disconnect(); };
  }, [scroller, initialHeight]);
  const first = Math.max(0, Math.floor(view.offset / rowHeight) - overscan);
  const end = Math.min(count, Math.ceil((view.offset + view.height) / rowHeight) + overscan);
  const rows: FixedRow[] = [];
  for (let index = first; index < end; index++) rows.push({ index, start: index * rowHeight });
  return { rows, totalSize: count * rowHeight, viewport };
}

/**
 * Keeps row `index` of a fixed-row list in view as the cursor moves: in the
 * next animation frame, from the viewport its events reported (no layout is
 * read), the scroller moves to the nearer edge when the row is not wholly in
 * view. Only a move of the row (a step, a new count) scrolls; the user's own
 * scrolling stays.
 */
export function useKeepFixedRowInView(scroller: RefObject<HTMLElement | null>, viewport: RefObject<Viewport>, index: number, count: number, rowHeight: number): void {
  useEffect(() => {
    if (index < 0 || index >= count) return;
    const frame = requestAnimationFrame(() => {
      const el = scroller.current;
      if (!el) return;
      const { offset, height } = viewport.current;
      const target = offsetToShow(index * rowHeight, (index + 1) * rowHeight, offset, height);
      if (target !== null) el.scrollTop = target;
    });
    return () => cancelAnimationFrame(frame);
  }, [scroller, viewport, index, count, rowHeight]);
}
