import { formatMs } from '../counts.ts';
import { JsonView } from '../json/JsonView.tsx';

/** Friendly renderings for the units people read most; everything else is a JSON tree. */
export function FriendlyView({ unit, view }: { unit: string; view: unknown }) {
  if (unit === 'title') return <div className="friendly">{view === null || view === undefined ? <span className="muted">no title</span> : String(view)}</div>;
  if (unit === 'workingDirectory') {
    return <div className="friendly mono">{typeof view === 'string' ? view : <span className="muted">no directory recorded (the header has no cwd)</span>}</div>;
  }
  if (unit === 'todos' && Array.isArray(view)) {
    if (view.length === 0) return <div className="muted">no todos</div>;
    return (
      <ul className="todos">
        {view.map((t: any, i) => <li key={i} className={`todo ${String(t?.status)}`}><span className="todo-mark">{t?.status === 'completed' ? '☑' : t?.status === 'in_progress' ? '◐' : '☐'}</span> {String(t?.content ?? '')}</li>)}
      </ul>
    );
  }
  if (unit === 'plan' && view && typeof view === 'object') {
    const v = view as { active?: boolean; pending?: boolean };
    return <div className="friendly">plan mode {v.active ? 'on' : 'off'}{v.pending ? ' · change pending' : ''}</div>;
  }
  if (unit === 'goal') {
    if (view === null || view === undefined) return <div className="muted">no goal</div>;
    const g = view as Record<string, unknown>;
    return (
      <div className="friendly">
        {typeof g.objective === 'string' && <div><strong>{g.objective}</strong></div>}
        {typeof g.status === 'string' && <div className="muted">status: {g.status}</div>}
        <JsonView value={view} open={0} name="goal" />
      </div>
    );
  }
  if (unit === 'subagentCatalog' && Array.isArray(view)) return <ChildCatalog rows={view} />;
  if (unit === 'subagentTiming' && view && typeof view === 'object') return <ChildTiming timing={view as TimingView} />;
  return <div className="json"><JsonView value={view} open={1} /></div>;
}

/** A catalog row as the view gives it (a unit's view is shown even when it fails its schema, so nothing is assumed). */
type CatalogRowShown = { id?: unknown; createdAt?: unknown; mode?: unknown; label?: unknown };
const rowShown = (row: unknown): CatalogRowShown => (row !== null && typeof row === 'object' ? row as CatalogRowShown : {});

/** A child's creation time to the second, or the number as logged when it is no date (DSH allows any integer). */
function createdText(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString().replace('T', ' ').slice(0, 19);
}

/** A parent's children as its catalog lists them: label, mode, id, when the child was made. */
function ChildCatalog({ rows }: { rows: unknown[] }) {
  if (rows.length === 0) return <div className="muted">no children listed</div>;
  return (
    <ul className="children">
      {rows.map(rowShown).map((row, i) => (
        <li key={i}>
          {typeof row.label === 'string' ? row.label : <span className="muted">(no label)</span>}
          {' '}<span className="child-mode">{String(row.mode)}</span>
          {' '}<span className="mono muted">{String(row.id)}</span>
          {typeof row.createdAt === 'number' && <span className="muted"> · created {createdText(row.createdAt)}</span>}
        </li>
      ))}
    </ul>
  );
}

interface TimingView { settledMs?: number; active?: { since: number; through: number }; lastTurnCompleted?: boolean }

/** A child's active time: settled turns, the turn open now, and how the last one ended (DSH 0.2). */
function ChildTiming({ timing }: { timing: TimingView }) {
  return (
    <div className="friendly">
      {formatMs(timing.settledMs ?? 0)} in settled turns
      {timing.active && <span> · a turn open for {formatMs(Math.max(0, timing.active.through - timing.active.since))}</span>}
      {timing.lastTurnCompleted !== undefined && <span className="muted"> · last turn {timing.lastTurnCompleted ? 'completed' : 'did not complete'}</span>}
    </div>
  );
}
