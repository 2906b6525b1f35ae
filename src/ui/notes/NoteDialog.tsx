import { useState } from 'react';
import { NOTE_LIMITS } from '../../core/notes/note.ts';
import { useCursor } from '../../store/cursor.ts';
import { useNotes } from '../../store/notes.ts';
import { useSession } from '../../store/session.ts';
import { useView } from '../../store/view.ts';
import { callAtOrBefore } from '../requests/next-call.tsx';

type Target = 'event' | 'call' | 'range';

/**
 * The new-note box (m, or "Add note" in the Notes tab and the palette): on
 * the cursor's event, on the model call the cursor is in, or on a range of
 * seqs from the cursor. Empty text makes a bookmark.
 */
export function NoteDialog() {
  const summary = useSession((s) => s.summary);
  const index = useCursor((s) => s.index);
  const close = () => useView.getState().setOverlay(null);
  const seq = summary ? summary.columns.seq[index] : 0;
  const call = summary ? callAtOrBefore(summary.callCuts, index) : -1;
  const callSeq = call >= 0 && summary ? summary.columns.seq[summary.callCuts[call]] : null;
  const [target, setTarget] = useState<Target>('event');
  const [text, setText] = useState('');
  const [endSeq, setEndSeq] = useState(String(seq));
  const [problem, setProblem] = useState<string | null>(null);
  if (!summary) return null;
  const save = () => {
    const draft = target === 'call' && callSeq !== null ? { seq: callSeq, call: call + 1, text }
      : target === 'range' ? rangeDraft(seq, endSeq, text)
      : { seq, text };
    if (typeof draft === 'string') { setProblem(draft); return; }
    if (useNotes.getState().add(draft)) close();
    else setProblem(useNotes.getState().notice);
  };
  return (
    <form className="note-dialog" onSubmit={(e) => { e.preventDefault(); save(); }}>
      <h2>New note</h2>
      <fieldset>
        <legend>On</legend>
        <label><input type="radio" name="note-target" checked={target === 'event'} onChange={() => setTarget('event')} /> this event (seq {seq})</label>
        {callSeq !== null && <label><input type="radio" name="note-target" checked={target === 'call'} onChange={() => setTarget('call')} /> model call {call + 1} (seq {callSeq})</label>}
        <label><input type="radio" name="note-target" checked={target === 'range'} onChange={() => setTarget('range')} /> seqs {seq} to{' '}
          <input className="note-range-end" aria-label="Range end seq" inputMode="numeric" value={endSeq} onFocus={() => setTarget('range')} onChange={(e) => { setEndSeq(e.target.value); setProblem(null); }} /></label>
      </fieldset>
      <textarea aria-label="Note text" autoFocus rows={4} maxLength={NOTE_LIMITS.text} value={text} placeholder="What you found here (empty: a bookmark)"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); save(); } if (e.key === 'Escape') close(); }} />
      <p className="muted">Kept in this browser for this log (by its fingerprint), never with the log’s content. Ctrl+Enter saves.</p>
      {problem && <p className="warn" role="status">{problem}</p>}
      <div className="dialog-actions">
        <button type="submit">{text.trim() ? 'Add note' : 'Add bookmark'}</button>
        <button type="button" onClick={close}>Cancel</button>
      </div>
    </form>
  );
}

function rangeDraft(seq: number, endText: string, text: string): { seq: number; endSeq: number; text: string } | string {
  if (!/^\d{1,15}$/.test(endText.trim())) return `“${endText.trim()}” is not a seq (a whole number)`;
  return { seq, endSeq: Number(endText.trim()), text };
}
