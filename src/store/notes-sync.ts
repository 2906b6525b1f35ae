import { useNotes } from './notes.ts';
import { useSession } from './session.ts';

/** The notes store follows the open log: once a log is read whole, its notes (by fingerprint) are read. */
export function startNotesSync(): () => void {
  const follow = () => {
    const summary = useSession.getState().summary;
    if (summary && !summary.partial) void useNotes.getState().openFor({ name: summary.name, fingerprint: summary.notesKey ?? summary.fingerprint });
  };
  follow();
  return useSession.subscribe((s, prev) => { if (s.summary !== prev.summary) follow(); });
}
