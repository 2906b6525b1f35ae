import type { Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';

/**
 * The scroll offset that brings the span `start`…`end` into a viewport of
 * `size` scrolled to `offset`, moving to the nearer edge (as scrollToIndex's
 * 'auto' does), or its top when it is taller than the viewport; null when
 * no scroll is needed.
 */
export function offsetToShow(start: number, end: number, offset: number, size: number): number | null {
  // A row taller than the view shows from its top.
  if (end - start > size) return start === offset ? null : start;
  if (start < offset) return start;
  if (end > offset + size) return Math.max(0, end - size);
  return null;
}

/**
 * Keeps row `index` of a virtual list in view as the cursor moves.
 *
 * A step moves the row a little: its new place is scrolled to in the next
 * animation frame, from the list's measured rows and the offset and size the
 * scroller's events last reported (nothing read from the page). The virtualizer's scrollToIndex reads
 * the scroller's scrollHeight inside React's commit, which forces a layout of
 * the whole page on every step, and again on its next renders until the scroll
 * lands: too slow for stepping within a frame. A jump of more than a viewport
 * still goes through scrollToIndex, which settles rows measured on arrival.
 */
export function useKeepInView(virtualizer: Virtualizer<HTMLDivElement, Element>, index: number, count: number): void {
  // Where the row is as of this render: rows above it measured after the step (a list mid-scroll measures
  // drawn rows when they report their size) move it, and the effect runs again for the new place.
  const place = index >= 0 && index < count ? virtualizer.measurementsCache[index] : undefined;
  const start = place?.start ?? -1;
  const end = place?.end ?? -1;
  // The cursor move being followed: a move of the row long after it is the user's own scroll measuring rows, which stays.
  const followed = useRef({ index: -1, count: -1, until: 0 });
  useEffect(() => {
    const now = performance.now();
    const f = followed.current;
    if (f.index !== index || f.count !== count) Object.assign(f, { index, count, until: now + SETTLE_MS });
    else if (now > f.until) return;
    if (index < 0 || index >= count) return;
    // The row's place as of this render (above) against the viewport's observed size and last offset.
    const size = virtualizer.scrollRect?.height ?? 0;
    const offset = virtualizer.scrollOffset ?? 0;
    if (start < 0 || end < offset - size || start > offset + 2 * size) {
      virtualizer.scrollToIndex(index, { align: 'auto' });
      return;
    }
    // Decided in the frame, not here: a render between now and then (the next answer of the worker) re-runs
    // this effect and cancels the frame, so the frame must not depend on what this render saw.
    const frame = requestAnimationFrame(() => {
      // Rows measured since the render (a node just drawn) are counted in: getVirtualItems brings the range and the cache up to date.
      virtualizer.getVirtualItems();
      const range = virtualizer.range;
      // Inside the view, not at an edge: nothing read from the page.
      if (range && index > range.startIndex && index < range.endIndex) return;
      const el = virtualizer.scrollElement;
      const row = virtualizer.measurementsCache[index];
      if (!el || !row) return;
      // The offset and height as the scroller's last scroll and resize events reported them: reading
      // el.scrollTop here, after React's commit, laid the page out again on every step at an edge.
      const height = virtualizer.scrollRect?.height || el.clientHeight;
      const target = offsetToShow(row.start, row.end, virtualizer.scrollOffset ?? el.scrollTop, height);
      if (target !== null) el.scrollTop = target;
    });
    return () => cancelAnimationFrame(frame);
  }, [index, count, virtualizer, start, end]);
}

/** How long after a cursor move the list still follows its row as rows around it get measured. */
const SETTLE_MS = 500;
