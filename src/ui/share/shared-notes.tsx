import type { Note } from '../../core/notes/note.ts';
import { redactSecrets } from '../../core/export/redact.ts';
import { withNotesParam } from '../../core/notes/notes-link.ts';
import { useNotes } from '../../store/notes.ts';

/**
 * The open log's notes as a link or an export carries them (docs/notes.md):
 * in the fragment's `notes=`, their text redacted as the log is when the
 * user asked for redaction (a pasted key in a note is still a key).
 */
export function fragmentWithNotes(fragment: string, notes: readonly Note[], include: boolean, redact: boolean): string {
  const shared = !include ? [] : redact ? notes.map((n) => ({ ...n, text: redactSecrets(n.text).text })) : notes;
  return withNotesParam(fragment, shared);
}

/** The "include my notes" check box of Copy link and Export → HTML; nothing when the log has none. */
export function IncludeNotes({ include, onChange }: { include: boolean; onChange(include: boolean): void }) {
  const count = useNotes((s) => s.notes.length);
  if (!count) return null;
  return (
    <label className="redact"><input type="checkbox" checked={include} onChange={(e) => onChange(e.target.checked)} />
      <span>Include my {count} note{count === 1 ? '' : 's'} (they open with the log; the Notes tab lists them)</span></label>
  );
}
