import { NOTE_ID, NOTE_LIMITS, sortNotes, type Note } from './note.ts';

/** The outcome of reading notes from outside (a link, a file, a stored record): what could be kept, and why the rest was not. */
export interface NotesRead {
  notes: Note[];
  problems: string[];
}

const PROBLEMS_SHOWN = 5;

/**
 * Notes from untrusted input, checked field by field (docs/notes.md): a
 * note with a bad field is left out and said so, the others are kept; text
 * over the limit is cut; no field but the known ones is kept. The page has
 * no schema library (its CSP forbids zod's probe), so the checks are here.
 */
export function readNotes(value: unknown, where: string): NotesRead {
  const problems: string[] = [];
  if (!Array.isArray(value)) return { notes: [], problems: [`${where}: the notes are not a list`] };
  const notes: Note[] = [];
  const ids = new Set<string>();
  let skipped = 0;
  const say = (text: string) => { if (problems.length < PROBLEMS_SHOWN) problems.push(text); else skipped++; };
  value.forEach((raw, i) => {
    if (notes.length >= NOTE_LIMITS.notes) { say(`${where}: note ${i + 1} and after left out (at most ${NOTE_LIMITS.notes} notes a log)`); return; }
    const why = checkNote(raw);
    if (typeof why === 'string') { say(`${where}: note ${i + 1} left out: ${why}`); return; }
    if (ids.has(why.id)) { say(`${where}: note ${i + 1} left out: its id repeats an earlier note's`); return; }
    ids.add(why.id);
    notes.push(why);
  });
  if (skipped) problems.push(`${where}: ${skipped} more problem${skipped === 1 ? '' : 's'}`);
  return { notes: sortNotes(notes), problems: [...new Set(problems)] };
}

const isSeq = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** One note as read, or why it cannot be. */
function checkNote(raw: unknown): Note | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'not an object';
  const r = raw as Record<string, unknown>;
  if (typeof r.id !== 'string' || !NOTE_ID.test(r.id)) return `its id is not 1–${NOTE_LIMITS.id} letters, digits, - or _`;
  if (!isSeq(r.seq)) return 'its seq is not a whole number ≥ 0';
  if (r.endSeq !== undefined && (!isSeq(r.endSeq) || r.endSeq < r.seq)) return 'its endSeq is not a whole number ≥ its seq';
  if (r.call !== undefined && (!isSeq(r.call) || r.call < 1)) return 'its call is not a whole number ≥ 1 (calls are numbered from 1)';
  if (typeof r.text !== 'string') return 'its text is not a string';
  if (!isTime(r.created)) return 'its created time is not a number';
  if (r.updated !== undefined && !isTime(r.updated)) return 'its updated time is not a number';
  const note: Note = { id: r.id, seq: r.seq, text: r.text.slice(0, NOTE_LIMITS.text), created: r.created };
  if (r.endSeq !== undefined && r.endSeq !== r.seq) note.endSeq = r.endSeq as number;
  if (r.call !== undefined) note.call = r.call as number;
  if (r.updated !== undefined) note.updated = r.updated as number;
  return note;
}
