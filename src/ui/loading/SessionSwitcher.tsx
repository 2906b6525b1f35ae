import { useCompare } from '../../store/compare.ts';
import { useSession } from '../../store/session.ts';

/** Switches between the sessions of a workspace; a child links to its parent. */
export function SessionSwitcher() {
  const workspace = useSession((s) => s.workspace);
  const active = useSession((s) => s.active);
  const summary = useSession((s) => s.summary);
  const switchTo = useSession((s) => s.switchTo);
  const compare = useCompare((s) => s.start);
  const comparing = useCompare((s) => s.status !== 'off');
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
            <button className="link" onClick={() => void switchTo(parentIndex)} title={`parentSession ${parent}`}>↑ parent session</button>
            {!comparing && <button className="link" onClick={() => void compare(parentIndex)} title="Compare this session with its parent, aligned from the fork cut (issue #20)">compare with parent</button>}
          </>
          : <span className="muted" title="The parent log is not open; drop it together with this one">child of {parent}</span>
      )}
    </>
  );
}
