import type { Virtualizer } from '@tanstack/react-virtual';
import { useEffect } from 'react';
import type { ListWindow } from '../../worker/protocol.ts';

/**
 * Tells `onWindow` which rows of a virtual list are in view, with `overscan`
 * rows either side, whenever that changes: a list whose rows the worker
 * sends asks for those only.
 */
export function useListWindow(virtualizer: Virtualizer<HTMLDivElement, Element>, overscan: number, onWindow: (w: ListWindow) => void): void {
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? 0;
  useEffect(() => {
    const from = Math.max(0, first - overscan);
    onWindow({ from, count: last + overscan + 1 - from });
  }, [first, last, overscan, onWindow]);
}
