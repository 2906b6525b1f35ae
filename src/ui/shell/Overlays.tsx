import { useState } from 'react';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import { useView } from '../../store/view.ts';
import { NoteDialog } from '../notes/NoteDialog.tsx';
import { CommandPalette } from '../palette/CommandPalette.tsx';
import { commandsNow, type AppCommand } from '../palette/command-table.ts';
import { gotoTarget } from '../palette/goto-target.ts';
import { keyName } from '../palette/key-names.ts';

const LABELS = { help: 'Keyboard shortcuts', goto: 'Go to', palette: 'Command palette', note: 'New note' } as const;

/** The modal overlays: `?` (every shortcut, from the command table), the go-to box, the command palette and a new note. */
export function Overlays() {
  const overlay = useView((s) => s.overlay);
  const arg = useView((s) => s.overlayArg);
  const setOverlay = useView((s) => s.setOverlay);
  if (!overlay) return null;
  const close = () => setOverlay(null);
  return (
    <div className={`overlay-backdrop${overlay === 'palette' ? ' palette-backdrop' : ''}`} onClick={close}>
      <div className={`overlay overlay-${overlay}`} role="dialog" aria-label={LABELS[overlay]} onClick={(e) => e.stopPropagation()}>
        {overlay === 'help' && <Shortcuts onClose={close} />}
        {overlay === 'goto' && <GotoBox initial={arg} onClose={close} />}
        {overlay === 'palette' && <CommandPalette />}
        {overlay === 'note' && <NoteDialog />}
      </div>
    </div>
  );
}

/** Every command that has a key, by group, as the palette's table holds them. */
function Shortcuts({ onClose }: { onClose(): void }) {
  const groups = new Map<string, AppCommand[]>();
  for (const c of commandsNow()) if (c.keys.length) groups.set(c.group, [...(groups.get(c.group) ?? []), c]);
  return (
    <>
      <h2>Keyboard shortcuts</h2>
      <table className="grid-table shortcuts">
        {[...groups].map(([group, commands]) => (
          <tbody key={group}>
            <tr><th colSpan={2}>{group}</th></tr>
            {commands.map((c) => <tr key={c.id} data-command={c.id}><td className="mono">{c.keys.map(keyName).join('  ')}</td><td>{c.label}</td></tr>)}
          </tbody>
        ))}
      </table>
      <p className="muted help-note">Every command, with or without a key, is in the command palette (Ctrl+K or Ctrl+Shift+P), and a link runs one with <span className="mono">#cmd=&lt;id&gt;</span>. A focused text box keeps every key but Esc (which leaves it); a focused panel separator or slider keeps its arrows. A step with nowhere to go is greyed out and says so.</p>
      <button onClick={onClose}>Close</button>
    </>
  );
}

/** The `g` box: a seq, `call N` or `turn N`; one that is not in the log says so and keeps the box open. */
function GotoBox({ initial, onClose }: { initial: string; onClose(): void }) {
  const summary = useSession((s) => s.summary);
  const seek = useCursor((s) => s.seek);
  const [value, setValue] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <form onSubmit={(e) => {
      e.preventDefault();
      if (!summary) return onClose();
      const verdict = gotoTarget(value, summary);
      if (typeof verdict === 'string') { setProblem(verdict); return; }
      seek(verdict);
      onClose();
    }}>
      <label>Go to <input autoFocus aria-label="Seq" inputMode="text" value={value} aria-invalid={problem !== null} aria-describedby="goto-problem" placeholder="seq, call 12 or turn 3"
        onChange={(e) => { setValue(e.target.value); setProblem(null); }} onKeyDown={(e) => { if (e.key === 'Escape') onClose(); }} /></label>
      <button type="submit">Go</button>
      <p id="goto-problem" className="warn goto-problem" role="status">{problem ?? ''}</p>
    </form>
  );
}
