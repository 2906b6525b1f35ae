/**
 * A user's note on a log (docs/notes.md): on an event, a model call or a
 * range of seqs. A note with no text is a bookmark. Notes are the user's own
 * words, never the log's content; they are kept per log by its fingerprint.
 */
export interface Note {
  /** Stable across copies (a link, a file, an export): an import adds a note once. */
  id: string;
  /** Where the note is: the event's seq, a call's seq, or a range's first seq. */
  seq: number;
  /** A range's last seq (≥ seq). */
  endSeq?: number;
  /** The model call the note is on (its number from 1, as the app and the CLI number calls), when it was made on one. */
  call?: number;
  text: string;
  /** Milliseconds since the epoch. */
  created: number;
  updated?: number;
}

/** What a note is on, for its label and its flag. */
export type NoteKind = 'bookmark' | 'event' | 'call' | 'range';

/** Limits on notes from anywhere (the user's own typing included): a note is a remark, not a document. */
export const NOTE_LIMITS = {
  /** Characters of one note's text. */
  text: 2000,
  /** Notes on one log. */
  notes: 500,
  /** Characters of an id. */
  id: 40,
} as const;

export const NOTE_ID = /^[A-Za-z0-9_-]{1,40}$/;

export function noteKind(note: Note): NoteKind {
  if (note.endSeq !== undefined && note.endSeq !== note.seq) return 'range';
  if (note.call !== undefined) return 'call';
  return note.text ? 'event' : 'bookmark';
}

/** "seq 120", "model call 4 (seq 120)", "seqs 120–180": where a note is, in words. */
export function notePlace(note: Note): string {
  if (note.endSeq !== undefined && note.endSeq !== note.seq) return `seqs ${note.seq}–${note.endSeq}`;
  if (note.call !== undefined) return `model call ${note.call} (seq ${note.seq})`;
  return `seq ${note.seq}`;
}

export interface NoteDraft {
  seq: number;
  endSeq?: number;
  call?: number;
  text: string;
}

/** A note's text as kept: trimmed of surrounding blank space, cut to the limit. */
export function noteText(text: string): string {
  return text.trim().slice(0, NOTE_LIMITS.text);
}

/**
 * The list with a new note at its place (notes are kept in seq order, then
 * by when they were made). Null when the log already holds the most notes.
 */
export function addNote(notes: readonly Note[], draft: NoteDraft, id: string, now: number): Note[] | null {
  if (notes.length >= NOTE_LIMITS.notes) return null;
  const note: Note = { id, seq: draft.seq, text: noteText(draft.text), created: now };
  if (draft.endSeq !== undefined && draft.endSeq !== draft.seq) {
    note.seq = Math.min(draft.seq, draft.endSeq);
    note.endSeq = Math.max(draft.seq, draft.endSeq);
  }
  if (draft.call !== undefined) note.call = draft.call;
  return sortNotes([...notes, note]);
}

/** The list with one note's text changed (the same list when there is no such note). */
export function editNote(notes: readonly Note[], id: string, text: string, now: number): Note[] {
  return notes.map((n) => (n.id === id ? { ...n, text: noteText(text), updated: now } : n));
}

export function deleteNote(notes: readonly Note[], id: string): Note[] {
  return notes.filter((n) => n.id !== id);
}

/**
 * Notes from elsewhere (a link, a file) merged into a log's own: a note
 * already here (by id) keeps the newer of the two; the rest are added while
 * there is room. Says how many were added, updated and left out.
 */
export function mergeNotes(notes: readonly Note[], incoming: readonly Note[]): { notes: Note[]; added: number; updated: number; dropped: number } {
  const byId = new Map(notes.map((n) => [n.id, n]));
  let added = 0;
  let updated = 0;
  let dropped = 0;
  for (const n of incoming) {
    const mine = byId.get(n.id);
    if (mine) {
      if ((n.updated ?? n.created) > (mine.updated ?? mine.created)) { byId.set(n.id, n); updated++; }
    } else if (byId.size < NOTE_LIMITS.notes) {
      byId.set(n.id, n);
      added++;
    } else dropped++;
  }
  return { notes: sortNotes([...byId.values()]), added, updated, dropped };
}

export function sortNotes(notes: Note[]): Note[] {
  return notes.sort((a, b) => a.seq - b.seq || a.created - b.created || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
