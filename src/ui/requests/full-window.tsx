import { useEffect } from 'react';
import { useView } from '../../store/view.ts';
import { elementOwnsKey, keyOf } from '../commands.ts';

/**
 * Shift+R toggles the full-window view (and opens the Requests tab, so leaving it shows the
 * same table); Esc leaves it. Listened for in the capture phase, before the app's keys: an Esc that
 * closes an overlay or leaves a text box (the app's own Escape) must not also leave the view.
 */
export function useRequestsShortcut(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      const key = keyOf(e);
      if (key !== 'Shift+R' && key !== 'Escape') return;
      const target = e.target as Element | null;
      const view = useView.getState();
      if (key === 'Escape') {
        if (!view.requestsFull || view.overlay || target?.matches?.('input:not([type=checkbox]), textarea, select')) return;
        const menu = document.querySelector('details.requests-columns[open]');
        if (menu) { menu.removeAttribute('open'); return; }
        view.setRequestsFull(false);
        return;
      }
      if (elementOwnsKey(target, key)) return;
      e.preventDefault();
      view.setSideTab('requests');
      view.setRequestsFull(!view.requestsFull);
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, [enabled]);
}
