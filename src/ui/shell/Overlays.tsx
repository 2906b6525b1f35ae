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
  const [problem, setProblem] = useState<string | null>(null);
  if (!overlay) return null;
  const close = () => { setOverlay(null); setValue(''); setProblem(null); };
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
            <p className="muted help-note">A focused text box keeps every key but Esc (which leaves it); a focused panel separator or slider keeps its arrows. A step with nowhere to go is greyed out and says so.</p>
            <button onClick={close}>Close</button>
          </>
        ) : (
          <form onSubmit={(e) => {
            e.preventDefault();
            if (!summary) return close();
            // A seq that is not in the log says so and keeps the box open.
            const verdict = checkSeq(value, summary.columns.seq, summary.count);
            if (typeof verdict === 'string') { setProblem(verdict); return; }
            seek(verdict);
            close();
          }}>
            <label>Go to seq <input autoFocus aria-label="Seq" inputMode="numeric" value={value} aria-invalid={problem !== null} aria-describedby="goto-problem"
              onChange={(e) => { setValue(e.target.value); setProblem(null); }} onKeyDown={(e) => { if (e.key === 'Escape') close(); }} /></label>
            <button type="submit">Go</button>
            <p id="goto-problem" className="warn goto-problem" role="status">{problem ?? ''}</p>
          </form>
        )}
      </div>
    </div>
  );
}

/** The event index of a typed seq, or why there is none (not a number, out of range, a gap in the log). */
export function checkSeq(text: string, seqs: ArrayLike<number>, count: number): number | string {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return `“${trimmed}” is not a seq (a whole number)`;
  const seq = Number(trimmed);
  if (count === 0) return 'the log has no events';
  const first = seqs[0];
  const last = seqs[count - 1];
  if (!Number.isSafeInteger(seq) || seq < first || seq > last) return `seq ${trimmed} is out of range: this log has seqs ${first}–${last}`;
  const index = indexOfSeq(seqs, seq);
  if (seqs[index] !== seq) return `there is no event with seq ${seq} (the log skips from ${seqs[index - 1]} to ${seqs[index]})`;
  return index;
}
