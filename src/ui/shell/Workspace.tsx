import { useRef, type ReactNode } from 'react';
import { useView } from '../../store/view.ts';

const MIN = 12;
/** A focused separator moves this many percent per arrow key (Shift: five times as far). */
const KEY_STEP = 2;
/** No column gets narrower than this: a narrow surface pane would clip its toolbar and hide the previews. */
const MIN_PX = [220, 320, 320] as const;

/** Three resizable columns; the widths live in the view store (and so in the link). */
export function Workspace({ children }: { children: [ReactNode, ReactNode, ReactNode] }) {
  const columns = useView((s) => s.columns);
  const setColumns = useView((s) => s.setColumns);
  const box = useRef<HTMLElement>(null);
  /** Puts separator `which` at `pct` percent of the workspace, within the limits. */
  const place = (which: 0 | 1, pct: number) => {
    const [a, b] = useView.getState().columns;
    if (which === 0) setColumns([Math.min(Math.max(pct, MIN), 100 - b - MIN), b]);
    else setColumns([a, Math.min(Math.max(pct - a, MIN), 100 - a - MIN)]);
  };
  const drag = (which: 0 | 1) => (e: React.PointerEvent) => {
    e.preventDefault();
    const el = box.current;
    if (!el) return;
    const rect = el.getBoundingClientRect();
    const move = (ev: PointerEvent) => place(which, ((ev.clientX - rect.left) / rect.width) * 100);
    const up = () => { window.removeEventListener('pointermove', move); window.removeEventListener('pointerup', up); };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };
  // A focused separator resizes with its arrows (the app's cursor keys do not reach it).
  const keys = (which: 0 | 1) => (e: React.KeyboardEvent) => {
    const at = which === 0 ? columns[0] : columns[0] + columns[1];
    const step = e.shiftKey ? KEY_STEP * 5 : KEY_STEP;
    const to = e.key === 'ArrowLeft' ? at - step : e.key === 'ArrowRight' ? at + step : e.key === 'Home' ? 0 : e.key === 'End' ? 100 : null;
    if (to === null) return;
    e.preventDefault();
    place(which, to);
  };
  const separator = (which: 0 | 1, label: string) => {
    const at = Math.round(which === 0 ? columns[0] : columns[0] + columns[1]);
    return (
      <div className="splitter" role="separator" tabIndex={0} aria-orientation="vertical" aria-label={label}
        aria-valuenow={at} aria-valuemin={MIN} aria-valuemax={100 - MIN} onPointerDown={drag(which)} onKeyDown={keys(which)} />
    );
  };
  return (
    <main ref={box} className="workspace" style={{ gridTemplateColumns: `minmax(${MIN_PX[0]}px, ${columns[0]}%) 5px minmax(${MIN_PX[1]}px, ${columns[1]}%) 5px minmax(${MIN_PX[2]}px, 1fr)` }}>
      {children[0]}
      {separator(0, 'Resize events and surface')}
      {children[1]}
      {separator(1, 'Resize surface and details')}
      {children[2]}
    </main>
  );
}
