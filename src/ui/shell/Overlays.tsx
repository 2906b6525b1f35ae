import { useState } from 'react';
import { indexOfSeq } from '../../core/replay/seq-index.ts';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import { useView } from '../../store/view.ts';
import { COMMANDS } from '../commands.ts';
import { useCompare } from '../../store/compare.ts';
import { COMPARE_COMMANDS } from '../compare/commands.ts';

const KEY_NAMES: Record<string, string> = { ' ': 'Space', ArrowRight: '→', ArrowLeft: '←', 'Shift+ArrowRight': 'Shift+→', 'Shift+ArrowLeft': 'Shift+←' };

/** The `?` help overlay (every shortcut, from the command list) and the `g` go-to-seq box. */
export function Overlays() {
  const overlay = useView((s) => s.overlay);
  const setOverlay = useView((s) => s.setOverlay);
  const summary = useSession((s) => s.summary);
  const seek = useCursor((s) => s.seek);
  const comparing = useCompare((s) => s.status === 'ready');
  const [value, setValue] = useState('');
  if (!overlay) return null;
  const close = () => { setOverlay(null); setValue(''); };
  return (
    <div className="overlay-backdrop" onClick={close}>
      <div className="overlay" role="dialog" aria-label={overlay === 'help' ? 'Keyboard shortcuts' : 'Go to seq'} onClick={(e) => e.stopPropagation()}>
        {overlay === 'help' ? (
          <>
            <h2>Keyboard shortcuts</h2>
            <table className="grid-table">
              <tbody>
                {(comparing ? COMPARE_COMMANDS : COMMANDS).map((c) => (
                  <tr key={c.id}><td className="mono">{c.keys.map((k) => KEY_NAMES[k] ?? k).join('  ')}</td><td>{c.label}</td></tr>
                ))}
              </tbody>
            </table>
            <button onClick={close}>Close</button>
          </>
        ) : (
          <form onSubmit={(e) => {
            e.preventDefault();
            const seq = Number(value);
            if (summary && Number.isSafeInteger(seq)) seek(indexOfSeq(summary.columns.seq, seq));
            close();
          }}>
            <label>Go to seq <input autoFocus aria-label="Seq" inputMode="numeric" value={value} onChange={(e) => setValue(e.target.value)} onKeyDown={(e) => { if (e.key === 'Escape') close(); }} /></label>
            <button type="submit">Go</button>
          </form>
        )}
      </div>
    </div>
  );
}
