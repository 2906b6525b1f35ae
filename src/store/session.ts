import { create } from 'zustand';
import type { SessionHeader } from '../core/log/types.ts';
import { indexOfSeq } from '../core/replay/seq-index.ts';
import type { LoadProgress, LoadSource, LoadSummary } from '../worker/protocol.ts';
import type { WorkerClient } from '../worker/client.ts';
import { useCursor } from './cursor.ts';
import { rememberRecent } from './recent.ts';
import { PartialLog } from './partial-log.ts';

/** One file of the workspace: several logs dropped together (a parent and its children). */
export interface WorkspaceEntry {
  source: LoadSource;
  header: SessionHeader | null;
}

/**
 * The loaded session: what the worker reported about the open log. A failed
 * load keeps the previous log open and shows the error beside it.
 */
export interface SessionStore {
  status: 'idle' | 'loading' | 'ready' | 'error';
  progress: LoadProgress | null;
  loadingName: string | null;
  summary: LoadSummary | null;
  /** The log that was open when a load began: back if the load fails or is cancelled. */
  previous: LoadSummary | null;
  error: string | null;
  demo: boolean;
  client: WorkerClient | null;
  workspace: WorkspaceEntry[];
  /** Index of the open entry in `workspace`. */
  active: number;
  setClient(client: WorkerClient): void;
  /** `cursor` (an event index) or else `cursorSeq` (the event with that seq, or the next) places the cursor; default the last event. */
  open(source: LoadSource, options?: OpenOptions): Promise<void>;
  /** Opens several files as one workspace; the root session (no parent among them) first. */
  openMany(sources: LoadSource[], options?: OpenOptions): Promise<void>;
  /** Switches to another session of the workspace (by entry index or session id). */
  switchTo(target: number | string): Promise<void>;
  cancel(): void;
  dismissError(): void;
}

export interface OpenOptions {
  demo?: boolean;
  cursor?: number;
  cursorSeq?: number;
}

export const useSession = create<SessionStore>((set, get) => ({
  status: 'idle',
  progress: null,
  loadingName: null,
  summary: null,
  previous: null,
  error: null,
  demo: false,
  client: null,
  workspace: [],
  active: 0,
  setClient: (client) => set({ client }),
  async open(source, options = {}) {
    const client = get().client;
    if (!client) return;
    // The open log, shown again if this load fails or is cancelled (a partial one is never kept).
    const previous = get().summary?.partial ? get().previous : get().summary;
    set({ status: 'loading', progress: null, loadingName: source.name, error: null, previous });
    const partial = new PartialLog(source.name);
    try {
      const summary = await client.load(source, (progress) => {
        // The part read so far replaces the open log in the events list, timeline and scrubber.
        if (progress.rows) set({ progress, summary: partial.append(progress.rows) });
        else set({ progress });
      });
      const workspace = get().workspace;
      const inWorkspace = workspace.findIndex((w) => w.source === source);
      set({
        status: 'ready', summary, previous: null, demo: options.demo ?? false, progress: null, loadingName: null,
        ...(inWorkspace >= 0 ? { active: inWorkspace } : { workspace: [{ source, header: summary.header }], active: 0 }),
      });
      const last = summary.count - 1;
      const cursor = options.cursor ?? (options.cursorSeq !== undefined ? indexOfSeq(summary.columns.seq, options.cursorSeq) : last);
      useCursor.getState().reset(Math.min(cursor, last));
      if (!options.demo) rememberRecent(source.name);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const restored = get().previous;
      set({ summary: restored, previous: null, status: restored ? 'ready' : 'error', error: message === 'cancelled' ? null : `Could not open ${source.name}: ${message}`, progress: null, loadingName: null });
    }
  },
  async openMany(sources, options = {}) {
    const client = get().client;
    if (!client || sources.length === 0) return;
    if (sources.length === 1) return get().open(sources[0], options);
    const headers = await Promise.all(sources.map((s) => client.peek(s).catch(() => null)));
    const ids = new Set(headers.map((h) => h?.id).filter(Boolean));
    const entries = sources.map((source, i) => ({ source, header: headers[i] }));
    // Parents first, then by depth: the session switcher reads as a tree.
    entries.sort((a, b) => rank(a, ids) - rank(b, ids) || (a.header?.delegationDepth ?? 0) - (b.header?.delegationDepth ?? 0));
    set({ workspace: entries, active: 0 });
    await get().open(entries[0].source, options);
  },
  async switchTo(target) {
    const { workspace } = get();
    const index = typeof target === 'number' ? target : workspace.findIndex((w) => w.header?.id === target);
    if (index < 0 || index >= workspace.length) return;
    await get().open(workspace[index].source, { demo: get().demo });
  },
  cancel() {
    get().client?.cancel();
    const summary = get().summary?.partial ? get().previous : get().summary;
    set({ summary, previous: null, status: summary ? 'ready' : 'idle', progress: null, loadingName: null });
  },
  dismissError: () => set({ error: null }),
}));

function rank(entry: WorkspaceEntry, ids: Set<string | undefined>): number {
  const parent = entry.header?.parentSession;
  return parent && ids.has(parent) ? 1 : 0;
}
