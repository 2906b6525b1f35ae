import { createContext, createElement, useContext, useDeferredValue, type Context, type ReactNode } from 'react';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';

/**
 * The cursor (or the selected event) for panels that do real work when it
 * moves: React renders them after the scrubber and the timeline's cursor
 * line have painted, and drops an update a newer step has overtaken — so a
 * held key moves the cursor every frame however heavy the panels are.
 *
 * One provider defers both for the whole page. A panel that deferred them
 * itself was rendered twice a step: once in the step's urgent render (with
 * the old value, to no effect, but before the scrubber could paint) and
 * once with the new. Below the provider, only the deferred render reaches it.
 */
const DeferredIndex = createContext<number | null>(null);
const DeferredSelected = createContext<number | null>(null);

export function DeferredCursorProvider({ children }: { children: ReactNode }) {
  const index = useCursor((s) => s.index);
  const selected = useCursor((s) => s.selected);
  const deferredIndex = useDeferredValue(index);
  const deferredSelected = useDeferredValue(selected);
  // A log just opened is not a step: its panels start at its cursor, not at the last log's.
  const loads = useSession((s) => s.loads);
  const opened = loads !== useDeferredValue(loads);
  return createElement(DeferredIndex.Provider, { value: opened ? index : deferredIndex },
    createElement(DeferredSelected.Provider, { value: opened ? selected : deferredSelected }, children));
}

export function useDeferredCursor(): number {
  return useProvidedOrOwn(DeferredIndex, (s) => s.index);
}

export function useDeferredSelected(): number {
  return useProvidedOrOwn(DeferredSelected, (s) => s.selected);
}

/** The provider's deferred value, or outside a provider (a panel rendered alone) the panel's own deferral of it. */
function useProvidedOrOwn(context: Context<number | null>, pick: (s: ReturnType<typeof useCursor.getState>) => number): number {
  const provided = useContext(context);
  const own = useDeferredValue(useCursor((s) => (provided === null ? pick(s) : -1)));
  return provided ?? own;
}
