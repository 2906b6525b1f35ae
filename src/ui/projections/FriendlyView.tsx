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
  return <div className="json"><JsonView value={view} open={1} /></div>;
}
