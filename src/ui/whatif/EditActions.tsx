import { useState } from 'react';
import type { LogEvent } from '../../core/log/types.ts';
import type { Message } from '../../core/messages/types.ts';
import { messageText } from '../../core/whatif/message-text.ts';
import { useWhatIf } from '../../store/whatif.ts';

/** The longest text an edit takes from the page (a link carries it: core/whatif/edits-link.ts). */
const MAX_EDIT_TEXT = 16 * 1024;

/**
 * What-if edits of the selected event (docs/whatif.md): drop it, give its
 * message new text, undo it when it is a replace, or insert a user message
 * before it. The edit joins the list in the What-if bar; nothing is folded
 * until the user asks.
 */
export function EditActions({ event, message, synthetic }: { event: LogEvent; message: Message | null; synthetic: boolean }) {
  const add = useWhatIf((s) => s.add);
  const [writing, setWriting] = useState<null | 'text' | 'insert'>(null);
  const [draft, setDraft] = useState('');
  // A restore's synthetic events are not in the file: there is nothing to edit.
  if (synthetic) return null;
  const op = event.surfaceOp;
  const replace = op !== undefined && op !== 'append';
  const open = (what: 'text' | 'insert') => { setWriting(what); setDraft(what === 'text' && message ? messageText(message) : ''); };
  const done = () => {
    if (writing === 'text') add({ kind: 'text', seq: event.seq, text: draft });
    else if (writing === 'insert') add({ kind: 'insert-user', before: event.seq, text: draft });
    setWriting(null);
  };
  return (
    <div className="whatif-actions" role="group" aria-label="What if">
      <span className="muted">What if:</span>
      <button onClick={() => add({ kind: 'drop', seq: event.seq })} title="Re-fold the log without this event">drop this event</button>
      {message && <button onClick={() => open('text')} aria-expanded={writing === 'text'}>edit its text</button>}
      {replace && <button onClick={() => add({ kind: 'undo-replace', seq: event.seq })} title="Re-fold without this replace: the nodes it shadowed come back">undo this replace</button>}
      <button onClick={() => open('insert')} aria-expanded={writing === 'insert'}>insert a user message before</button>
      {writing && (
        <div className="whatif-write">
          <textarea aria-label={writing === 'text' ? 'New text' : 'User message to insert'} value={draft} maxLength={MAX_EDIT_TEXT} rows={5}
            onChange={(e) => setDraft(e.target.value)} />
          <div>
            <button onClick={done}>{writing === 'text' ? 'Add the new text' : 'Add the message'}</button>
            <button onClick={() => setWriting(null)}>Cancel</button>
          </div>
        </div>
      )}
    </div>
  );
}
