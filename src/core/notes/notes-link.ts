import { fromBase64, toBase64 } from '../share/base64.ts';
import type { Note } from './note.ts';
import { readNotes, type NotesRead } from './notes-read.ts';

/**
 * Notes in a link (docs/notes.md): their JSON in base64url, under `notes=`.
 * A link is untrusted input; a longer parameter is refused with a reason
 * rather than decoded, and what it holds is read as any outside notes are.
 */
export const MAX_LINK_NOTES_CHARS = 256 * 1024;

export function notesToParam(notes: readonly Note[]): string {
  return toBase64(new TextEncoder().encode(JSON.stringify(notes)), true);
}

export function notesFromParam(param: string): NotesRead {
  const where = 'the link’s notes';
  if (param.length > MAX_LINK_NOTES_CHARS) return { notes: [], problems: [`${where}: over ${MAX_LINK_NOTES_CHARS / 1024} KiB, not read`] };
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(fromBase64(param, true)));
  } catch (err) {
    return { notes: [], problems: [`${where}: not readable (${(err as Error).message})`] };
  }
  return readNotes(value, where);
}

/** A link's fragment with the notes added (or replaced); no notes leaves it as it was, without any. */
export function withNotesParam(fragment: string, notes: readonly Note[]): string {
  const p = new URLSearchParams(fragment.replace(/^#/, ''));
  p.delete('notes');
  if (notes.length) p.set('notes', notesToParam(notes));
  return p.toString();
}
