import { create } from 'zustand';
import { TailCursor } from '../../core/follow/tail-cursor.ts';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import { followClient } from '../../worker/follow-client.ts';
import type { FollowUpdateOnWire } from '../../worker/follow-protocol.ts';
import { summaryFromWire, type WireSummary } from '../../worker/request-rows-wire.ts';
import type { LoadSource, LoadSummary } from '../../worker/protocol.ts';
import { fileAccessSupported, handleFor } from './handles.ts';
import { FollowedRows } from './followed-rows.ts';
import { handleTail, urlTail, type TailReader } from './tail-readers.ts';

/** How often a followed log is looked at (and at once when the tab regains focus). */
export const FOLLOW_INTERVAL_MS = 500;

export interface FollowStore {
  status: 'off' | 'on' | 'unavailable' | 'error';
  /** Why following is unavailable or stopped, or what happened (a file re-opened from its start). */
  note: string | null;
  /** Bytes read but not committed yet (a line waiting for its newline). */
  pending: number;
  /** Logged events that arrived while the cursor was not at the end. */
  newEvents: number;
  /** Findings that arrived since following started (announced as a count). */
  newFindings: number;
  start(): void;
  stop(): Promise<void>;
  /** Back to the tail: the cursor on the last event, following it again. */
  jumpToTail(): void;
}

/** Why the open log cannot be followed (null: it can). */
function readerFor(source: LoadSource | undefined): TailReader | string {
  if (!source) return 'No log is open.';
  if (source.kind === 'url') return urlTail(source.url);
  if (source.kind === 'file') {
    const handle = handleFor(source.file);
    if (handle) return handleTail(handle);
    return fileAccessSupported()
      ? 'This file was opened without a handle the page may read again: open it with "Open log" or drop it, then Follow.'
      : 'This browser gives the page a one-time copy of a local file (no File System Access API), so it cannot see lines added later. Re-open the file to read them, or serve its folder with `npm run serve-logs -- <dir>` and open ?url=…&follow=1.';
  }
  return 'A pasted log cannot grow: open the file or its URL to follow it.';
}

const logged = (s: LoadSummary) => s.count - s.syntheticCount;

/** One follow run: its reader, where it stands in the file, and its timer. */
interface Run {
  reader: TailReader;
  cursor: TailCursor;
  reset: boolean;
  /** The file was re-opened from its start: its next state lands the cursor on its end. */
  reopened: boolean;
  name: string;
  timer: ReturnType<typeof setTimeout> | null;
  busy: boolean;
  stopped: boolean;
  /** Time to the next look: FOLLOW_INTERVAL_MS, or twice the last refresh when a big append made it long (the worker stays mostly free). */
  pace: number;
  findingsAtStart: number;
  /** The summary this run last put in place (at first the one it started on): another one in the session means another log was opened. */
  shown: LoadSummary;
  /** The followed log's rows the worker sent so far (each refresh sends the new ones). */
  rows: FollowedRows;
  /** Whose notes the followed log shows: the log's key when following began (a re-opened file's own after). */
  notesKey: string;
  onFocus: () => void;
}

let run: Run | null = null;

/** An update's summary as the page shows it: its rows put after those the run holds. */
const shownOf = (r: Run, update: FollowUpdateOnWire, wire: WireSummary): LoadSummary => r.rows.take({ from: update.from, listsFrom: update.listsFrom, summary: summaryFromWire(wire) });

export const useFollow = create<FollowStore>((set, get) => {
  const end = (r: Run) => {
    r.stopped = true;
    if (r.timer) clearTimeout(r.timer);
    window.removeEventListener('focus', r.onFocus);
    document.removeEventListener('visibilitychange', r.onFocus);
    if (run === r) run = null;
  };

  /** A new state of the open log: the cursor follows the tail if it was there, else the new events are counted. */
  const show = (r: Run, summary: LoadSummary) => {
    const before = useSession.getState().summary;
    // Another log was opened while the worker read this one: it stays.
    if (before !== r.shown) { end(r); set({ status: 'off', note: null, pending: 0, newEvents: 0 }); return; }
    const cursor = useCursor.getState();
    const atTail = !before || cursor.index >= before.count - 1 || r.reopened;
    // Notes stay under the key the follow started on, unless the file now holds another log.
    const notesKey = r.reopened ? summary.fingerprint : r.notesKey;
    r.notesKey = notesKey;
    summary = { ...summary, notesKey };
    useSession.setState({ summary });
    cursor.setCount(summary.count);
    r.shown = summary;
    if (atTail) useCursor.getState().seek(summary.count - 1);
    const grown = before && !atTail ? Math.max(0, logged(summary) - logged(before)) : 0;
    set({ newEvents: atTail ? 0 : get().newEvents + grown, newFindings: Math.max(0, summary.diagnostics.length - r.findingsAtStart) });
  };

  const tick = async (r: Run) => {
    if (r.stopped || r.busy) return;
    // One chain of looks: a look on focus replaces the one the timer would make.
    if (r.timer) { clearTimeout(r.timer); r.timer = null; }
    const session = useSession.getState();
    // Another log was opened (or a load is running): this follow is over.
    if (session.status === 'loading' || session.summary !== r.shown) { end(r); set({ status: 'off', note: null, pending: 0, newEvents: 0 }); return; }
    r.busy = true;
    let again = false;
    try {
      const step = r.cursor.take(await r.reader.read(r.cursor.offset));
      if (r.stopped) return;
      if (step.kind === 'shrunk' || step.kind === 'replaced') {
        set({ note: step.kind === 'shrunk' ? `The log shrank (from ${step.offset.toLocaleString()} to ${step.size.toLocaleString()} bytes): re-opened from its start.` : 'The file now holds another log (its first line changed): re-opened from its start.' });
        r.cursor = new TailCursor();
        r.reset = true;
        r.reopened = true;
        again = true;
      } else if (step.kind === 'grew') {
        const asked = performance.now();
        const first = r.reset;
        const update = await followClient(session.client!)['follow-append'](step.bytes, r.reset, r.name);
        if (r.stopped) return;
        if (update.summary) show(r, shownOf(r, update, update.summary));
        // A refresh costs what was appended; the first one reads the whole file, which says nothing of the next.
        r.pace = Math.max(FOLLOW_INTERVAL_MS, update.summary && !first ? 2 * (performance.now() - asked) : 0);
        r.reset = false;
        if (update.summary) r.reopened = false;
        set({ pending: update.status.pending });
      }
    } catch (err) {
      end(r);
      const message = err instanceof Error ? err.message : String(err);
      // Cancelled: another log was opened meanwhile, which ends following without a fault.
      set(message === 'cancelled' ? { status: 'off', note: null, pending: 0, newEvents: 0 } : { status: 'error', note: `Following stopped: ${message}` });
      return;
    } finally {
      r.busy = false;
    }
    if (!r.stopped) r.timer = setTimeout(() => void tick(r), again ? 0 : r.pace);
  };

  return {
    status: 'off',
    note: null,
    pending: 0,
    newEvents: 0,
    newFindings: 0,
    start() {
      if (run) return;
      const session = useSession.getState();
      const summary = session.summary;
      const reader = readerFor(session.workspace[session.active]?.source);
      if (typeof reader === 'string' || !summary || summary.partial) {
        set({ status: 'unavailable', note: typeof reader === 'string' ? reader : 'Wait for the log to finish loading, then Follow.' });
        return;
      }
      const r: Run = {
        reader, cursor: new TailCursor(), reset: true, reopened: false, name: summary.name, timer: null, busy: false, stopped: false, pace: FOLLOW_INTERVAL_MS,
        findingsAtStart: summary.diagnostics.length, shown: summary, rows: new FollowedRows(), notesKey: summary.notesKey ?? summary.fingerprint, onFocus: () => { if (!document.hidden) void tick(r); },
      };
      run = r;
      window.addEventListener('focus', r.onFocus);
      document.addEventListener('visibilitychange', r.onFocus);
      set({ status: 'on', note: null, pending: 0, newEvents: 0, newFindings: 0 });
      void tick(r);
    },
    async stop() {
      const r = run;
      if (!r) { set({ status: 'off', note: null }); return; }
      end(r);
      set({ status: 'off', pending: 0, newEvents: 0 });
      // The input ends: a line still without its newline is now a torn tail, as in any file.
      const session = useSession.getState();
      if (session.summary !== r.shown) return;
      const update = await followClient(session.client!)['follow-stop']().catch(() => null);
      if (update?.summary && useSession.getState().summary === r.shown) show(r, shownOf(r, update, update.summary));
    },
    jumpToTail() {
      const summary = useSession.getState().summary;
      if (summary) useCursor.getState().seek(summary.count - 1);
      set({ newEvents: 0 });
    },
  };
});
