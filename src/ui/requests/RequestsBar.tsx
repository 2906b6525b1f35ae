import { memo } from 'react';
import { useView } from '../../store/view.ts';
import { COLUMN_IDS, LABELS } from './columns.tsx';
import { formatCount } from '../counts.ts';

/** The table's controls: text filter, match count, column visibility, full window. All of it lives in the view store (and the link). */
export const RequestsBar = memo(function RequestsBar({ matched, total }: { matched: number; total: number }) {
  const filter = useView((s) => s.requestsView.filter);
  const full = useView((s) => s.requestsFull);
  const set = useView((s) => s.setRequestsView);
  return (
    <div className="panel-toolbar requests-bar">
      <input className="search" type="search" aria-label="Filter calls" placeholder="Filter: model, break reason, outcome, turn.step"
        value={filter} onChange={(e) => set({ filter: e.target.value })} />
      <span className="muted" aria-live="polite" aria-label="Matching calls">{formatCount(matched)} of {formatCount(total)} calls</span>
      <span className="spacer" />
      <ColumnsMenu />
      <button aria-pressed={full} onClick={() => useView.getState().setRequestsFull(!full)}
        title={full ? 'Back to the three panels (Esc or Shift+R)' : 'The Requests view over the whole window (Shift+R)'}>
        {full ? 'Exit full window' : 'Full window'}
      </button>
    </div>
  );
});

/** A checkbox per column; the last visible one cannot be hidden (a table with no columns has no rows to click). */
function ColumnsMenu() {
  const hidden = useView((s) => s.requestsView.hidden);
  const set = useView((s) => s.setRequestsView);
  const visible = COLUMN_IDS.filter((id) => !hidden.includes(id)).length;
  const toggle = (id: string) => set({ hidden: hidden.includes(id) ? hidden.filter((h) => h !== id) : [...hidden, id] });
  return (
    <details className="requests-columns">
      <summary>Columns</summary>
      <div className="requests-columns-menu" role="group" aria-label="Visible columns">
        {COLUMN_IDS.map((id) => {
          const shown = !hidden.includes(id);
          return (
            <label key={id}>
              <input type="checkbox" checked={shown} disabled={shown && visible === 1} onChange={() => toggle(id)} /> {LABELS[id]}
            </label>
          );
        })}
      </div>
    </details>
  );
}
