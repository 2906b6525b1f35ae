import { useCompare } from '../../store/compare.ts';
import { useSession } from '../../store/session.ts';
import type { SpawnPoint } from '../../core/workspace/forks.ts';

/** Switches between the sessions of a workspace; a child links to its parent (at the point it was started). */
export function SessionSwitcher() {
  const workspace = useSession((s) => s.workspace);
  const active = useSession((s) => s.active);
  const summary = useSession((s) => s.summary);
  const switchTo = useSession((s) => s.switchTo);
  const compare = useCompare((s) => s.start);
  const comparing = useCompare((s) => s.status !== 'off');
  const openParent = useSession((s) => s.openParent);
  const parent = summary?.header?.parentSession;
  const parentIndex = parent ? workspace.findIndex((w) => w.header?.id === parent) : -1;
  return (
    <>
      {workspace.length > 1 && (
        <select aria-label="Session" value={active} onChange={(e) => void switchTo(Number(e.target.value))}>
          {workspace.map((w, i) => (
            <option key={i} value={i}>
              {'  '.repeat(w.header?.delegationDepth ?? 0)}{w.source.name}{w.header?.origin === 'subagent' ? ' (subagent)' : ''}
            </option>
          ))}
        </select>
      )}
      {parent && (
        parentIndex >= 0
          ? <>
            <button className="link" onClick={() => void openParent()} title={`Open the parent session (${parent}) at the event that started this one`}>↑ parent session</button>
            {!comparing && <button className="link" onClick={() => void compare(parentIndex)} title="Compare this session with its parent, aligned from the fork cut">compare with parent</button>}
          </>
          : <span className="muted" title="The parent log is not open; drop it together with this one">child of {parent}</span>
      )}
    </>
  );
}

/**
 * In a parent session: the child sessions an event started (a subagent call,
 * a catalog or workflow record, or the last event a fork inherited), each a
 * link that opens the child. A spawn point whose child is not in the
 * workspace says so.
 */
export function ChildLinks({ seq, spawn }: { seq: number; spawn: SpawnPoint | null }) {
  const children = useSession((s) => s.children);
  const workspace = useSession((s) => s.workspace);
  const openChild = useSession((s) => s.openChild);
  const here = children.filter((c) => c.seq === seq);
  if (here.length === 0 && !spawn) return null;
  return (
    <div className="child-links pad" aria-label="Child sessions">
      {here.map((c) => (
        <button key={c.entry} className="link" onClick={() => void openChild(c.entry)} title={`session ${workspace[c.entry].header?.id ?? ''}`}>
          ↳ {workspace[c.entry].header?.isSeeded || (workspace[c.entry].header?.seedLength ?? 0) > 0 ? 'forked' : 'started'} child session {workspace[c.entry].source.name}
        </button>
      ))}
      {here.length === 0 && spawn && (
        <span className="muted">
          starts a child session{spawn.label ? ` (“${spawn.label}”)` : ''}{spawn.childId ? ` ${spawn.childId}` : ''}: its log is not open here — open it together with this one to follow the link
        </span>
      )}
    </div>
  );
}
