import { isNotesFileName, MAX_NOTES_FILE_BYTES, readNotesFile } from '../core/notes/notes-file.ts';
import { useNotes } from './notes.ts';
import { useCompare } from './compare.ts';
import { useSession } from './session.ts';
import type { LoadSource } from '../worker/protocol.ts';

/**
 * Opens dropped or picked files (docs/compare.md): several files are one
 * workspace as before; exactly two that are not parent and child open in
 * compare mode, the first as A (a parent and its child stay a workspace:
 * "Compare with parent" compares them from the fork cut). When the first is
 * not a log, the second is A and the comparison says why the first has
 * nothing to align.
 */
export async function openLogs(all: LoadSource[]): Promise<void> {
  // A notes sidecar dropped or picked with its log joins that log's notes (docs/notes.md); it is not a log.
  const notesFiles = all.filter((s) => s.kind === 'file' && isNotesFileName(s.name));
  const sources = all.filter((s) => !notesFiles.includes(s));
  // With logs, a sidecar waits for the log about to open; alone, it joins the open log's notes.
  for (const s of notesFiles) await importNotesFile(s as Extract<LoadSource, { kind: 'file' }>, sources.length > 0);
  if (!sources.length) return;
  useCompare.getState().exit();
  await useSession.getState().openMany(sources);
  if (sources.length !== 2) return;
  const { workspace } = useSession.getState();
  if (workspace.length !== 2) return;
  const [x, y] = workspace.map((w) => w.header);
  const related = (x?.id !== undefined && y?.parentSession === x.id) || (y?.id !== undefined && x?.parentSession === y.id);
  if (related) return;
  let b = 1;
  if (useSession.getState().summary?.name !== workspace[0].source.name || useSession.getState().error) {
    await useSession.getState().open(workspace[1].source);
    if (useSession.getState().summary?.name !== workspace[1].source.name) return;
    useSession.getState().dismissError();
    b = 0;
  }
  await useCompare.getState().start(b);
}

/** Reads a notes sidecar as untrusted input and hands what it holds to the notes store. */
export async function importNotesFile(source: Extract<LoadSource, { kind: 'file' }>, forNextLog = false): Promise<void> {
  const where = source.name;
  const read = source.file.size > MAX_NOTES_FILE_BYTES
    ? { notes: [], problems: [`${where}: over ${MAX_NOTES_FILE_BYTES / 1024 / 1024} MiB, not read`] }
    : readNotesFile(await source.file.text(), where);
  useNotes.getState().importNotes(read, where, forNextLog);
}
