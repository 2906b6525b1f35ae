import { noteIndexes, noteStops } from '../../core/notes/note-targets.ts';
import type { Note } from '../../core/notes/note.ts';
import { useCursor } from '../../store/cursor.ts';
import { useNotes } from '../../store/notes.ts';
import { useSession } from '../../store/session.ts';
import { useView } from '../../store/view.ts';
import type { LoadSummary } from '../../worker/protocol.ts';
import { useFlash } from '../commands.ts';
import { stepInSorted } from '../nav-targets.ts';

/** Each note's event index in a log, found once per (log, note list): the flags and the steps read it. */
const placed = new WeakMap<LoadSummary, WeakMap<readonly Note[], { indexes: Int32Array; stops: Int32Array }>>();

export function notePlaces(summary: LoadSummary, notes: readonly Note[]): { indexes: Int32Array; stops: Int32Array } {
  let byNotes = placed.get(summary);
  if (!byNotes) { byNotes = new WeakMap(); placed.set(summary, byNotes); }
  let p = byNotes.get(notes);
  if (!p) {
    const indexes = noteIndexes(notes, summary.columns.seq, summary.count);
    p = { indexes, stops: noteStops(indexes) };
    byNotes.set(notes, p);
  }
  return p;
}

/** The next (1) or previous (-1) note's event from `from`, or null. */
export function nextNote(summary: LoadSummary, notes: readonly Note[], from: number, dir: 1 | -1): number | null {
  return stepInSorted(notePlaces(summary, notes).stops, from, dir);
}

/** The next/previous note as a step of the cursor (a scrubber step kind). */
export function stepNote(dir: 1 | -1): void {
  const summary = useSession.getState().summary;
  if (!summary) return;
  const next = nextNote(summary, useNotes.getState().notes, useCursor.getState().index, dir);
  if (next !== null) { useCursor.getState().seek(next); return; }
  useFlash.getState().say(useNotes.getState().notes.length ? `no ${dir === 1 ? 'next' : 'previous'} note` : 'no notes on this log yet: m adds one at the cursor');
}

/** A bookmark at the cursor, at once (a note with no text; its text can be added in the Notes tab). */
export function bookmarkCursor(): void {
  const summary = useSession.getState().summary;
  if (!summary || summary.partial) return;
  const seq = summary.columns.seq[useCursor.getState().index];
  const note = useNotes.getState().add({ seq, text: '' });
  useFlash.getState().say(note ? `bookmarked seq ${seq}` : useNotes.getState().notice);
}

/** Opens the new-note box for the cursor's event. */
export function addNoteAtCursor(): void {
  const summary = useSession.getState().summary;
  if (summary && !summary.partial) useView.getState().setOverlay('note');
}

/** Puts the cursor on a note's event. */
export function goToNote(summary: LoadSummary, notes: readonly Note[], note: Note): void {
  const i = notePlaces(summary, notes).indexes[notes.indexOf(note)];
  if (i !== undefined && i >= 0) useCursor.getState().seek(i);
}
