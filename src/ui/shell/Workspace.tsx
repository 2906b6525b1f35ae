import { useRef, type ReactNode } from 'react';
import { useView } from '../../store/view.ts';

const MIN = 12;

/** Three resizable columns; the widths live in the view store (and so in the link). */
export function Workspace({ children }: { children: [ReactNode, ReactNode, ReactNode] }) {
  const columns = useView((s) => s.columns);
  const setColumns = useView((s) => s.setColumns);
  const box = useRef<HTMLElement>(null);
  const drag = (which: 0 | 1) => (e: React.PointerEvent) => {
    e.preventDefault();
    const el = box.current;
    if (!el) return;
    const rect = el.getBoundingClientRect();
    const move = (ev: PointerEvent) => {
      const pct = ((ev.clientX - rect.left) / rect.width) * 100;
      const [a, b] = useView.getState().columns;
      if (which === 0) {
        const next = Math.min(Math.max(pct, MIN), 100 - b - MIN);
        setColumns([next, b]);
      } else {
        const next = Math.min(Math.max(pct - a, MIN), 100 - a - MIN);
        setColumns([a, next]);
      }
    };
    const up = () => { window.removeEventListener('pointermove', move); window.removeEventListener('pointerup', up); };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };
  return (
    <main ref={box} className="workspace" style={{ gridTemplateColumns: `${columns[0]}% 5px ${columns[1]}% 5px 1fr` }}>
      {children[0]}
      <div className="splitter" role="separator" aria-orientation="vertical" aria-label="Resize events and surface" onPointerDown={drag(0)} />
      {children[1]}
      <div className="splitter" role="separator" aria-orientation="vertical" aria-label="Resize surface and details" onPointerDown={drag(1)} />
      {children[2]}
    </main>
  );
}
