import { create } from 'zustand';
import { addNote, deleteNote, editNote, mergeNotes, type Note, type NoteDraft } from '../core/notes/note.ts';
import { readNotes, type NotesRead } from '../core/notes/notes-read.ts';
import type { NotesFileLog } from '../core/notes/notes-file.ts';
import { indexedDbNotes, memoryNotes, type NotesRepository } from './notes-db.ts';

/** The log the notes belong to: its name and fingerprint, as a sidecar file names it. */
export type NotesLog = NotesFileLog;

/** Notes waiting for a log's own to be read (a link's, given before its log opened). */
interface PendingImport {
  read: NotesRead;
  from: string;
}

export interface NotesStore {
  log: NotesLog | null;
  notes: Note[];
  /** Reading the log's notes from the repository. */
  loading: boolean;
  /** What the last import or save said (added, left out, why), for the Notes tab. */
  notice: string | null;
  /** Where notes are kept (IndexedDB, or this tab only); a failed save says so in `notice`. */
  kept: NotesRepository['kind'];
  /** Reads the notes of the log now open (by fingerprint), then adds what waits to be imported. */
  openFor(log: NotesLog): Promise<void>;
  add(draft: NoteDraft): Note | null;
  edit(id: string, text: string): void;
  remove(id: string): void;
  /** Notes from a link or a file: merged now if a log's notes are read (unless they are for the log about to open), else when the next one's are. */
  importNotes(read: NotesRead, from: string, forNextLog?: boolean): void;
}

let repository: NotesRepository = indexedDbNotes() ?? memoryNotes();
let pending: PendingImport[] = [];

/** Another repository (tests; a page whose IndexedDB refused to open). */
export function setNotesRepository(next: NotesRepository): void {
  repository = next;
}

/** A note id: random, letters and digits (crypto.getRandomValues works where randomUUID needs a secure page). */
export function newNoteId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(36).padStart(2, '0')).join('').slice(0, 20);
}

function describeImport(from: string, merged: ReturnType<typeof mergeNotes>, problems: string[]): string {
  const parts = [`${merged.added} note${merged.added === 1 ? '' : 's'} added from ${from}`];
  if (merged.updated) parts.push(`${merged.updated} updated`);
  if (merged.dropped) parts.push(`${merged.dropped} left out (the log holds the most notes it may)`);
  return [parts.join(', '), ...problems].join('; ');
}

export const useNotes = create<NotesStore>((set, get) => {
  /** Keeps the list; a refused save leaves the notes in the tab and says why. */
  const persist = (notes: Note[]) => {
    const log = get().log;
    if (!log) return;
    repository.save(log.fingerprint, { name: log.name, notes, saved: Date.now() }).catch((err: unknown) => {
      set({ notice: `notes not saved in the browser (${err instanceof Error ? err.message : String(err)}): they last while this tab is open` });
    });
  };
  const merge = ({ read, from }: PendingImport) => {
    const merged = mergeNotes(get().notes, read.notes);
    set({ notes: merged.notes, notice: describeImport(from, merged, read.problems) });
    if (merged.added || merged.updated) persist(merged.notes);
  };
  /** Merges every import that waited for a log's notes to be read. */
  const flushPending = () => {
    const waiting = pending;
    pending = [];
    for (const p of waiting) merge(p);
  };
  return {
    log: null,
    notes: [],
    loading: false,
    notice: null,
    kept: repository.kind,
    async openFor(log) {
      const current = get().log;
      if (current?.fingerprint === log.fingerprint) {
        // The same log opened again: what waited for it joins its notes now.
        if (!get().loading) flushPending();
        return;
      }
      set({ log, notes: [], loading: true, notice: null, kept: repository.kind });
      let notes: Note[] = [];
      let notice: string | null = null;
      try {
        const record = await repository.load(log.fingerprint);
        if (record) {
          const read = readNotes(record.notes, 'the saved notes');
          notes = read.notes;
          if (read.problems.length) notice = read.problems.join('; ');
        }
      } catch (err) {
        // A browser that refuses IndexedDB here (a private mode, a local file's origin): this tab keeps them.
        repository = memoryNotes();
        notice = `notes are kept for this tab only: the browser's storage refused (${err instanceof Error ? err.message : String(err)})`;
      }
      // Another log opened meanwhile: its own read is the one that counts.
      if (get().log !== log) return;
      // A note added while the saved ones were read is kept beside them.
      const added = get().notes;
      if (added.length) { notes = mergeNotes(notes, added).notes; persist(notes); }
      set({ notes, loading: false, notice, kept: repository.kind });
      flushPending();
    },
    add(draft) {
      const id = newNoteId();
      const notes = addNote(get().notes, draft, id, Date.now());
      if (!notes) { set({ notice: 'this log already has the most notes it may keep (500): delete one first' }); return null; }
      set({ notes });
      persist(notes);
      return notes.find((n) => n.id === id) ?? null;
    },
    edit(id, text) {
      const notes = editNote(get().notes, id, text, Date.now());
      set({ notes });
      persist(notes);
    },
    remove(id) {
      const notes = deleteNote(get().notes, id);
      set({ notes });
      persist(notes);
    },
    importNotes(read, from, forNextLog = false) {
      if (get().log && !get().loading && !forNextLog) merge({ read, from });
      else pending.push({ read, from });
    },
  };
});
