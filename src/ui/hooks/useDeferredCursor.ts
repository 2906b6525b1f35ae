import { useDeferredValue } from 'react';
import { useCursor } from '../../store/cursor.ts';

/**
 * The cursor (or the selected event) for panels that do real work when it
 * moves: React renders them after the scrubber and the timeline's cursor
 * line have painted, and drops an update a newer step has overtaken — so a
 * held key moves the cursor every frame however heavy the panels are.
 */
export function useDeferredCursor(): number {
  return useDeferredValue(useCursor((s) => s.index));
}

export function useDeferredSelected(): number {
  return useDeferredValue(useCursor((s) => s.selected));
}
