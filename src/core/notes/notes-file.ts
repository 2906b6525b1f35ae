import { FINGERPRINT_PATTERN } from '../log/fingerprint.ts';
import type { Note } from './note.ts';
import { readNotes, type NotesRead } from './notes-read.ts';

/**
 * The notes sidecar (`<log>.notes.json`, docs/notes.md): a log's notes in
 * a file the user keeps beside the log, drops on the app with it, or gives
 * `dsh-devtools open --notes`. It names its log; it never holds the log's content.
 */
export const NOTES_FORMAT = 'dsh-devtools-notes';
export const NOTES_FILE_VERSION = 1;
/** The largest sidecar read (the note limits fit well inside it). */
export const MAX_NOTES_FILE_BYTES = 4 * 1024 * 1024;

export interface NotesFileLog {
  name: string;
  fingerprint: string;
}

export interface NotesFile extends NotesRead {
  /** The log the file was saved for (null: it does not say, or says it badly). */
  log: NotesFileLog | null;
}

export function notesFileText(log: NotesFileLog, notes: readonly Note[]): string {
  return `${JSON.stringify({ format: NOTES_FORMAT, version: NOTES_FILE_VERSION, log, notes }, null, 2)}\n`;
}

/** The sidecar's file name for a log's (`session.jsonl` → `session.jsonl.notes.json`). */
export function notesFileName(logName: string): string {
  return `${logName.split(/[\\/]/).pop() || 'session'}.notes.json`;
}

export function isNotesFileName(name: string): boolean {
  return /\.notes\.json$/i.test(name);
}

/** A sidecar's text read as untrusted input: what it holds, and every reason a part of it was left out. */
export function readNotesFile(text: string, where = 'notes file'): NotesFile {
  if (text.length > MAX_NOTES_FILE_BYTES) return { log: null, notes: [], problems: [`${where}: over ${MAX_NOTES_FILE_BYTES / 1024 / 1024} MiB, not read`] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { log: null, notes: [], problems: [`${where}: not JSON (${(err as Error).message})`] };
  }
  if (typeof value !== 'object' || value === null || (value as { format?: unknown }).format !== NOTES_FORMAT) {
    return { log: null, notes: [], problems: [`${where}: not a DSH Devtools notes file (its "format" is not "${NOTES_FORMAT}")`] };
  }
  const v = value as { version?: unknown; log?: unknown; notes?: unknown };
  if (v.version !== NOTES_FILE_VERSION) return { log: null, notes: [], problems: [`${where}: version ${JSON.stringify(v.version)} is not one this app reads (${NOTES_FILE_VERSION})`] };
  const read = readNotes(v.notes, where);
  return { ...read, log: fileLog(v.log) };
}

function fileLog(value: unknown): NotesFileLog | null {
  if (typeof value !== 'object' || value === null) return null;
  const { name, fingerprint } = value as Record<string, unknown>;
  if (typeof name !== 'string' || typeof fingerprint !== 'string' || name.length > 1000 || !FINGERPRINT_PATTERN.test(fingerprint)) return null;
  return { name, fingerprint };
}
