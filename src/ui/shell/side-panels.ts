import { lazyPanel } from '../lazy-panel.ts';

// The heavier side panels load on first use, or ahead of it once a log is open (see `preloadSidePanels`).
export const ProjectionsPanel = lazyPanel(() => import('../projections/ProjectionsPanel.tsx').then((m) => m.ProjectionsPanel));
export const PromptPanel = lazyPanel(() => import('../prompt/PromptPanel.tsx').then((m) => m.PromptPanel));
export const ChartsPanel = lazyPanel(() => import('../charts/ChartsPanel.tsx').then((m) => m.ChartsPanel));
export const RequestsPanel = lazyPanel(() => import('../requests/RequestsPanel.tsx').then((m) => m.RequestsPanel));

/** Loads every side panel's code while the page is idle, so a tab's first open does not wait for it. */
export function preloadSidePanels(): () => void {
  const load = () => { for (const panel of [RequestsPanel, PromptPanel, ProjectionsPanel, ChartsPanel]) panel.preload().catch(() => { /* tried again when the tab opens, where a failure shows */ }); };
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(load, { timeout: 5000 });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(load, 1000);
  return () => clearTimeout(timer);
}
