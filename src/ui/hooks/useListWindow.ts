import type { Virtualizer } from '@tanstack/react-virtual';
import { useEffect } from 'react';
import type { ListWindow } from '../../worker/protocol.ts';

/**
 * Tells `onWindow` which rows of a virtual list are in view, with `overscan`
 * rows either side, whenever that changes: a list whose rows the worker
 * sends asks for those only.
 *
 * Given the window last `asked` for, it asks again only when the rows in view
 * leave it, and then for twice the overscan either side: a surface that grows
 * by a node a step scrolls a row a step, and a new window per row was a second
 * cursor state from the worker (and a second render of the list) every step.
 */
export function useListWindow(virtualizer: Virtualizer<HTMLDivElement, Element>, overscan: number, onWindow: (w: ListWindow) => void, asked?: ListWindow): void {
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? 0;
  const askedFrom = asked?.from ?? -1;
  const askedEnd = asked ? asked.from + asked.count : -1;
  useEffect(() => {
    if (askedFrom < 0) {
      const from = Math.max(0, first - overscan);
      onWindow({ from, count: last + overscan + 1 - from });
      return;
    }
    if (first >= askedFrom && last < askedEnd) return;
    const from = Math.max(0, first - 2 * overscan);
    onWindow({ from, count: last + 2 * overscan + 1 - from });
  }, [first, last, overscan, onWindow, askedFrom, askedEnd]);
}
