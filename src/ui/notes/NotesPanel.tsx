import { useRef, useState } from 'react';
import { NOTE_LIMITS, noteKind, notePlace, type Note } from '../../core/notes/note.ts';
import { noteIsOnLog } from '../../core/notes/note-targets.ts';
import { notesFileName, notesFileText } from '../../core/notes/notes-file.ts';
import { importNotesFile } from '../../store/open-logs.ts';
import { useCursor } from '../../store/cursor.ts';
import { useNotes } from '../../store/notes.ts';
import { useSession } from '../../store/session.ts';
import { downloadText } from '../export.ts';
import { addNoteAtCursor, goToNote, notePlaces } from './actions.ts';

const when = (ms: number) => new Date(ms).toLocaleString();

/**
 * The Notes tab (docs/notes.md): the open log's notes and bookmarks in seq
 * order — go to one, edit its text, delete it — and the sidecar file to
 * save or load. Every text here is the user's (or a link's, or a file's):
 * shown as text, never as markup.
 */
export function NotesPanel() {
  const summary = useSession((s) => s.summary);
  const { notes, notice, kept, loading, log } = useNotes();
  const index = useCursor((s) => s.index);
  const picker = useRef<HTMLInputElement>(null);
  if (!summary || summary.partial) return <p className="muted pad">Notes are read once the log is.</p>;
  const { indexes } = notePlaces(summary, notes);
  return (
    <div className="notes-panel pad" aria-label="Notes">
      <div className="panel-toolbar">
        <button onClick={addNoteAtCursor} title="A note on the cursor's event, its model call or a range (m)">Add note…</button>
        <button onClick={() => log && downloadText(notesFileName(log.name), 'application/json', notesFileText(log, notes))} disabled={!notes.length}
          title="Save the notes as a file to keep beside the log (drop both on the app, or dsh-devtools open <log> --notes <file>)">Save notes file</button>
        <button onClick={() => picker.current?.click()}>Load notes file…</button>
        <input ref={picker} type="file" accept=".json,application/json" hidden aria-label="Load notes file"
          onChange={(e) => { const f = e.target.files?.[0]; if (f) void importNotesFile({ kind: 'file', file: f, name: f.name }); e.target.value = ''; }} />
      </div>
      <p className="muted">
        {loading ? 'Reading this log’s notes…' : `${notes.length} note${notes.length === 1 ? '' : 's'} (at most ${NOTE_LIMITS.notes}), `}
        {!loading && (kept === 'indexeddb' ? 'kept in this browser for this log, by its fingerprint' : 'kept for this tab only')}
        {' · '}n / Shift+N step between them.
      </p>
      {notice && <p className="notes-notice" role="status">{notice}</p>}
      {notes.length === 0 && !loading && <p className="muted">No notes yet. Press m (or Add note…) to put one on the cursor’s event; Shift+M bookmarks it at once.</p>}
      <ol className="notes-list">
        {notes.map((n, k) => <NoteRow key={n.id} note={n} here={indexes[k] === index} missing={!noteIsOnLog(n, summary.columns.seq, summary.count)} onGo={() => goToNote(summary, notes, n)} />)}
      </ol>
    </div>
  );
}

function NoteRow({ note, here, missing, onGo }: { note: Note; here: boolean; missing: boolean; onGo(): void }) {
  const [editing, setEditing] = useState<string | null>(null);
  const kind = noteKind(note);
  return (
    <li className={`note-row note-${kind}${here ? ' here' : ''}`} data-note-id={note.id}>
      <div className="note-head">
        <button className="linkish mono" onClick={onGo} title="Put the cursor here">{kind === 'bookmark' ? '⚑ ' : ''}{notePlace(note)}</button>
        {missing && <span className="warn-text" title="This log has no event at that seq: the note goes to the next one"> not in this log</span>}
        <span className="muted note-when">{when(note.updated ?? note.created)}{note.updated ? ' (edited)' : ''}</span>
        <button onClick={() => setEditing(note.text)} aria-label={`Edit note at ${notePlace(note)}`}>Edit</button>
        <button onClick={() => useNotes.getState().remove(note.id)} aria-label={`Delete note at ${notePlace(note)}`}>Delete</button>
      </div>
      {editing === null
        ? <p className="note-text">{note.text || <span className="muted">(bookmark)</span>}</p>
        : (
          <form onSubmit={(e) => { e.preventDefault(); useNotes.getState().edit(note.id, editing); setEditing(null); }}>
            <textarea aria-label="Note text" autoFocus rows={3} maxLength={NOTE_LIMITS.text} value={editing} onChange={(e) => setEditing(e.target.value)}
              onKeyDown={(e) => { if (e.key === 'Escape') setEditing(null); if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); useNotes.getState().edit(note.id, editing); setEditing(null); } }} />
            <div className="dialog-actions"><button type="submit">Save</button><button type="button" onClick={() => setEditing(null)}>Cancel</button></div>
          </form>
        )}
    </li>
  );
}
