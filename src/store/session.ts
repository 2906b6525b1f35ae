import { create } from 'zustand';
import type { SessionHeader } from '../core/log/types.ts';
import { indexOfSeq } from '../core/replay/seq-index.ts';
import { childRefOf, linkChildren } from '../core/workspace/forks.ts';
import type { LoadProgress, LoadSource, LoadSummary } from '../worker/protocol.ts';
import type { WorkerClient } from '../worker/client.ts';
import { memoryBudgetFromUrl } from '../worker/memory.ts';
import { useCursor } from './cursor.ts';
import { rememberRecent } from './recent.ts';
import { PartialLog } from './partial-log.ts';
import { useView } from './view.ts';

/** One file of the workspace: several logs dropped together (a parent and its children). */
export interface WorkspaceEntry {
  source: LoadSource;
  header: SessionHeader | null;
  /** Where this session's cursor and selection stood when the user left it, and its search (each log keeps its own). */
  cursor?: number;
  selected?: number;
  search?: string;
}

/** A child of the open session in the workspace, and the event of the open session that started it (null: not found). */
export interface ChildLink {
  entry: number;
  seq: number | null;
}

export interface OpenOptions {
  demo?: boolean;
  /** Event index to put the cursor on (else the log's end). */
  cursor?: number;
  /** Else the event with this seq (or the next): a link's `cs=` (what `dsh-devtools open --at` writes, docs/cli.md). */
  cursorSeq?: number;
  /** The search text to start with (else the entry's own, else none). */
  search?: string;
  /** Where to put the cursor once the log is loaded, as a seq (asked after the load; undefined: as above). */
  at?: (summary: LoadSummary, client: WorkerClient) => Promise<number | undefined>;
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
  /** The open session's children in the workspace (found once the log is loaded). */
  children: ChildLink[];
  /** Counts finished loads, set once a load's cursor and search are in place (what waits for a log watches this). */
  loads: number;
  setClient(client: WorkerClient): void;
  /** `cursor` (an event index) or else `cursorSeq` (the event with that seq, or the next) places the cursor; default the last event. */
  open(source: LoadSource, options?: OpenOptions): Promise<void>;
  /** Opens several files as one workspace; the root session (no parent among them) first. */
  openMany(sources: LoadSource[], options?: OpenOptions): Promise<void>;
  /** Switches to another session of the workspace (by entry index or session id); it comes back where it was left. */
  switchTo(target: number | string, options?: OpenOptions): Promise<void>;
  /** Opens the parent of the open session at the point it started this one. */
  openParent(): Promise<void>;
  /** Opens a child of the open session at its first own event. */
  openChild(entry: number): Promise<void>;
  cancel(): void;
  dismissError(): void;
}

/** Opens asked for so far: a workspace whose headers are still being read gives way to a later open. */
let opensAsked = 0;

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
  children: [],
  loads: 0,
  setClient: (client) => {
    // The open file changed on disk: the page says so beside the log (its lines read so far stay shown).
    client.onFileLost = (message) => set({ error: message });
    set({ client });
  },
  async open(source, options = {}) {
    const client = get().client;
    if (!client) return;
    opensAsked++;
    // The open log, shown again if this load fails or is cancelled (a partial one is never kept).
    const previous = get().summary?.partial ? get().previous : get().summary;
    set({ status: 'loading', progress: null, loadingName: source.name, error: null, previous });
    const partial = new PartialLog(source.name);
    try {
      const summary = partial.finish(await client.load(source, memoryBudgetFromUrl(globalThis.location?.search), true, (progress) => {
        // The part read so far replaces the open log in the events list, timeline and scrubber.
        if (progress.rows) set({ progress, summary: partial.append(progress.rows) });
        else set({ progress });
      }));
      const workspace = get().workspace;
      const inWorkspace = workspace.findIndex((w) => w.source === source);
      const entry = inWorkspace >= 0 ? workspace[inWorkspace] : null;
      const seq = options.at ? await options.at(summary, client).catch(() => undefined) : undefined;
      set({
        status: 'ready', summary, previous: null, demo: options.demo ?? false, progress: null, loadingName: null, children: [],
        ...(inWorkspace >= 0 ? { active: inWorkspace } : { workspace: [{ source, header: summary.header }], active: 0 }),
      });
      const last = summary.count - 1;
      // The count first: a link's selection (select() clamps to it) may be applied before the page's effect sets it.
      useCursor.getState().setCount(summary.count);
      const bySeq = (q: number) => indexOfSeq(summary.columns.seq, q);
      const cursor = seq !== undefined ? bySeq(seq) : options.cursor ?? (options.cursorSeq !== undefined ? bySeq(options.cursorSeq) : entry?.cursor);
      useCursor.getState().reset(cursor !== undefined ? Math.min(cursor, last) : last);
      if (seq === undefined && options.cursor === undefined && options.cursorSeq === undefined && entry?.selected !== undefined) useCursor.getState().select(Math.min(entry.selected, last));
      // The search belongs to its log: another log starts with its own.
      useView.getState().setSearch(options.search ?? entry?.search ?? '');
      if (!options.demo) rememberRecent(source.name);
      set({ loads: get().loads + 1 });
      if (get().workspace.length > 1) void findChildren(get, set, client, summary);
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
    const asked = ++opensAsked;
    const headers = await Promise.all(sources.map((s) => client.peek(s).catch(() => null)));
    // A log opened while these headers were read (a file picked as the demo starts) is the one the user wants.
    if (asked !== opensAsked) return;
    const ids = new Set(headers.map((h) => h?.id).filter(Boolean));
    const entries = sources.map((source, i) => ({ source, header: headers[i] }));
    // Parents first, then by depth: the session switcher reads as a tree.
    entries.sort((a, b) => rank(a, ids) - rank(b, ids) || (a.header?.delegationDepth ?? 0) - (b.header?.delegationDepth ?? 0));
    set({ workspace: entries, active: 0 });
    await get().open(entries[0].source, options);
  },
  async switchTo(target, options = {}) {
    const { workspace, active, summary } = get();
    const index = typeof target === 'number' ? target : workspace.findIndex((w) => w.header?.id === target);
    if (index < 0 || index >= workspace.length) return;
    // The session left keeps its cursor, selection and search for when it is opened again.
    if (summary && workspace[active]) {
      const { index: cursor, selected } = useCursor.getState();
      const next = workspace.slice();
      next[active] = { ...next[active], cursor, selected, search: useView.getState().search };
      set({ workspace: next });
    }
    await get().open(get().workspace[index].source, { demo: get().demo, ...options });
  },
  async openParent() {
    const { summary, workspace } = get();
    const header = summary?.header;
    const parent = header?.parentSession;
    const index = parent ? workspace.findIndex((w) => w.header?.id === parent) : -1;
    if (!header || index < 0) return;
    const inheritedSeq = summary!.inherited.seq;
    await get().switchTo(index, {
      // The event of the parent that started this child; for a fork with no call found, the last event it inherited.
      at: async (_parent, client) => {
        const seq = linkChildren(await client.spawns(), childrenOf(get().workspace, parent!).map((c) => childRefOf(c.header!))).get(header.id);
        return seq ?? (inheritedSeq > 0 ? inheritedSeq - 1 : undefined);
      },
    });
  },
  async openChild(entry) {
    await get().switchTo(entry, { at: async (child) => (child.inherited.seq > 0 ? child.inherited.seq : undefined) });
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

/** The workspace entries whose parent is the session `id`. */
function childrenOf(workspace: readonly WorkspaceEntry[], id: string): (WorkspaceEntry & { index: number })[] {
  return workspace.flatMap((w, index) => (w.header && w.header.parentSession === id ? [{ ...w, index }] : []));
}

/** The open session's children and the events that started them (the worker finds the spawn points once). */
async function findChildren(get: () => SessionStore, set: (s: Partial<SessionStore>) => void, client: WorkerClient, summary: LoadSummary): Promise<void> {
  const id = summary.header?.id;
  if (!id) return;
  const kids = childrenOf(get().workspace, id);
  if (kids.length === 0) return;
  const links = linkChildren(await client.spawns().catch(() => []), kids.map((k) => childRefOf(k.header!)));
  if (get().summary !== summary) return;
  // An rc.8 fork names its cut in its header: with no call found, the child links to the last event it inherited (dsh-log-rules L1.7).
  const cut = (h: SessionHeader) => (typeof h.seedLength === 'number' && h.seedLength > 0 ? h.seedLength - 1 : null);
  set({ children: kids.map((k) => ({ entry: k.index, seq: links.get(k.header!.id) ?? cut(k.header!) })) });
}
