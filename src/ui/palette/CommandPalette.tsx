import fuzzysort from 'fuzzysort';
import { useMemo, useState } from 'react';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import { useView } from '../../store/view.ts';
import { useFlash } from '../commands.ts';
import { commandsNow, runCommand, type AppCommand } from './command-table.ts';
import { keyName } from './key-names.ts';
import { gotoTarget, isGotoText } from './goto-target.ts';

interface Row {
  id: string;
  label: string;
  keys: string[];
  group: string;
  why: string | null;
  run(): void;
}

const MAX_ROWS = 60;

function rowOf(c: AppCommand): Row {
  return { id: c.id, label: c.label, keys: c.keys, group: c.group, why: c.when?.() ?? null, run: () => { const why = runCommand(c.id); if (why) useFlash.getState().say(why); } };
}

/** "seq 120", "call 12", "turn 3" or a bare number typed in the palette: a row that goes there. */
function gotoRow(query: string): Row | null {
  const summary = useSession.getState().summary;
  if (!summary || summary.partial || !isGotoText(query)) return null;
  const target = gotoTarget(query, summary);
  const label = `Go to ${query.trim()}`;
  return typeof target === 'string'
    ? { id: 'goto', label, keys: [], group: 'Go to', why: target, run: () => {} }
    : { id: 'goto', label, keys: [], group: 'Go to', why: null, run: () => useCursor.getState().seek(target) };
}

/**
 * The command palette (Ctrl/Cmd+K, Ctrl+Shift+P; docs/notes.md): every
 * command of the table, fuzzy-matched on its label, id, group and aliases
 * (fuzzysort), with its keys and its stable id. ↑/↓ choose, Enter runs,
 * Esc closes. A command that cannot run now is shown with the reason.
 */
export function CommandPalette() {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const close = () => useView.getState().setOverlay(null);
  const rows = useMemo(() => {
    const all = commandsNow();
    const found = query.trim()
      ? fuzzysort.go(query, all, { keys: ['label', 'id', 'group', 'also'], limit: MAX_ROWS, threshold: 0.3 }).map((r) => r.obj)
      : all;
    const go = gotoRow(query);
    return [...(go ? [go] : []), ...found.map(rowOf)];
  }, [query]);
  const at = Math.min(active, Math.max(0, rows.length - 1));
  const run = (row: Row | undefined) => {
    if (!row || row.why) return;
    close();
    row.run();
  };
  return (
    <div className="palette">
      <input autoFocus aria-label="Command" role="combobox" aria-expanded="true" aria-controls="palette-list" aria-activedescendant={rows.length ? `palette-row-${at}` : undefined}
        placeholder="Type a command, or seq 120 · call 12 · turn 3" value={query}
        onChange={(e) => { setQuery(e.target.value); setActive(0); }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') { e.preventDefault(); setActive((at + 1) % Math.max(1, rows.length)); }
          else if (e.key === 'ArrowUp') { e.preventDefault(); setActive((at - 1 + rows.length) % Math.max(1, rows.length)); }
          else if (e.key === 'Enter') { e.preventDefault(); run(rows[at]); }
          else if (e.key === 'Escape') { e.preventDefault(); close(); }
        }} />
      <ul id="palette-list" role="listbox" aria-label="Commands" className="palette-list">
        {rows.map((r, i) => (
          <li key={`${r.id}-${i}`} id={`palette-row-${i}`} role="option" aria-selected={i === at} aria-disabled={r.why !== null} data-command={r.id}
            className={`palette-row${i === at ? ' active' : ''}${r.why ? ' disabled' : ''}`}
            onMouseMove={() => { if (i !== at) setActive(i); }} onClick={() => run(r)}>
            <span className="palette-label">{r.label}</span>
            {r.why && <span className="muted palette-why"> — {r.why}</span>}
            <span className="palette-meta">
              {r.keys.map((k) => <kbd key={k}>{keyName(k)}</kbd>)}
              <span className="muted mono palette-id">{r.group} · {r.id}</span>
            </span>
          </li>
        ))}
        {rows.length === 0 && <li className="muted palette-none">No command matches “{query}”.</li>}
      </ul>
    </div>
  );
}
