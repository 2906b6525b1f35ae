import { create } from 'zustand';
import { generationIndex, isOlderGeneration } from '../core/folder/generations.ts';
import type { EventQuery, SearchHit } from '../core/folder/search.ts';
import type { LogSummary } from '../core/folder/summary.ts';
import { folderPool, type FolderPool } from '../worker/folder-pool.ts';
import type { LoadSource } from '../worker/protocol.ts';
import { useCompare } from './compare.ts';
import { useSession } from './session.ts';

/** A file of the opened folder: its path under the folder and the file itself. */
export interface FolderFile {
  rel: string;
  file: File;
}

export interface SessionSearchResult {
  /** Index into `files`. */
  file: number;
  hits: SearchHit[];
  more: boolean;
}

/**
 * A sessions folder (docs/sessions-folder.md): its files, a summary per file filled in
 * as the pool's workers finish them, and a search across them. The table
 * is a view of this store; the main view opens one session at a time.
 */
export interface FolderStore {
  /** The folder view is shown (else the main view; the table is kept). */
  shown: boolean;
  name: string | null;
  files: FolderFile[];
  /** By file index; null until summarised (or after a cancel). */
  summaries: (LogSummary | null)[];
  done: number;
  status: 'idle' | 'scanning' | 'done' | 'cancelled';
  search: { query: EventQuery; status: 'running' | 'done' | 'cancelled'; done: number; results: SessionSearchResult[] } | null;
  openFolder(name: string, files: FolderFile[]): Promise<void>;
  cancel(): void;
  show(shown: boolean): void;
  searchAll(query: EventQuery): Promise<void>;
  /** Opens a session in the main view (at `seq` when given), with its parent and children as the workspace. */
  openSession(file: number, seq?: number, search?: string): Promise<void>;
  /** Two sessions in compare mode, the first as A. */
  compare(a: number, b: number): Promise<void>;
}

let pool: FolderPool | null = null;
const thePool = () => (pool ??= folderPool());
const HITS_PER_SESSION = 50;

const sourceOf = (f: FolderFile): LoadSource => ({ kind: 'file', file: f.file, name: f.rel.split('/').pop() || f.rel });

export const useFolder = create<FolderStore>((set, get) => ({
  shown: false,
  name: null,
  files: [],
  summaries: [],
  done: 0,
  status: 'idle',
  search: null,
  async openFolder(name, files) {
    pool?.cancel();
    const sorted = files.slice().sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
    set({ shown: true, name, files: sorted, summaries: sorted.map(() => null), done: 0, status: 'scanning', search: null });
    const p = thePool();
    // Summaries land in batches (one store write per animation frame, not per file).
    let pending: [number, LogSummary][] = [];
    let scheduled = false;
    const flush = () => {
      scheduled = false;
      if (get().files !== sorted) return;
      const summaries = get().summaries.slice();
      for (const [i, s] of pending) summaries[i] = s;
      set({ summaries, done: get().done + pending.length });
      pending = [];
    };
    await Promise.all(sorted.map(async (f, i) => {
      try {
        const s = await p.run({ op: 'summary', file: f.file, rel: f.rel });
        pending.push([i, s]);
        if (!scheduled) { scheduled = true; setTimeout(flush, 50); }
      } catch { /* cancelled: the row stays unread */ }
    }));
    if (pending.length) flush();
    if (get().files === sorted && get().status === 'scanning') set({ status: 'done' });
  },
  cancel() {
    pool?.cancel();
    const s = get();
    set({ status: s.status === 'scanning' ? 'cancelled' : s.status, search: s.search && s.search.status === 'running' ? { ...s.search, status: 'cancelled' } : s.search });
  },
  show: (shown) => set({ shown }),
  async searchAll(query) {
    if (get().status === 'scanning') return;
    const { files, summaries } = get();
    set({ search: { query, status: 'running', done: 0, results: [] } });
    const started = get().search;
    const p = thePool();
    const targets = files.map((_, i) => i).filter((i) => summaries[i]?.isLog);
    await Promise.all(targets.map(async (i) => {
      try {
        const found = await p.run({ op: 'search', file: files[i].file, rel: files[i].rel, query, limit: HITS_PER_SESSION });
        const now = get().search;
        if (!now || now.query !== query) return;
        const results = found.hits.length ? [...now.results, { file: i, hits: found.hits, more: found.more }].sort((a, b) => a.file - b.file) : now.results;
        set({ search: { ...now, done: now.done + 1, results } });
      } catch { /* cancelled */ }
    }));
    const now = get().search;
    if (now && now.query === started?.query && now.status === 'running') set({ search: { ...now, status: 'done' } });
  },
  async openSession(index, seq, search) {
    const { files, summaries } = get();
    const me = summaries[index];
    // The session's parent and children come along, so the main view's subagent links work;
    // each by its live generation only (an older one shares its id, dsh-log-rules L1.2).
    const generations = generationIndex(files.map((f) => f.rel));
    const related = files.map((_, i) => i).filter((i) => {
      const s = summaries[i];
      if (!s?.isLog || !me?.id || i === index || isOlderGeneration(generations, files[i].rel)) return false;
      return s.id === me.parentSession || s.parentSession === me.id;
    });
    const entries = [index, ...related].map((i) => ({ source: sourceOf(files[i]), header: null }));
    useCompare.getState().exit();
    useSession.setState({ workspace: entries, active: 0 });
    set({ shown: false });
    await useSession.getState().open(entries[0].source, { ...(seq !== undefined ? { cursorSeq: seq } : {}), ...(search ? { search } : {}) });
    // The headers let the main view link parent and children.
    const client = useSession.getState().client;
    if (client) {
      const headers = await Promise.all(entries.map((e) => client.peek(e.source).catch(() => null)));
      useSession.setState({ workspace: useSession.getState().workspace.map((w, i) => (entries[i] && w.source === entries[i].source ? { ...w, header: headers[i] } : w)) });
    }
  },
  async compare(a, b) {
    const { files } = get();
    const entries = [a, b].map((i) => ({ source: sourceOf(files[i]), header: null }));
    useCompare.getState().exit();
    useSession.setState({ workspace: entries, active: 0 });
    set({ shown: false });
    await useSession.getState().open(entries[0].source);
    if (useSession.getState().summary) await useCompare.getState().start(1);
  },
}));
