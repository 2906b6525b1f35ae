import { create } from 'zustand';
import { rowCursors } from '../core/compare/cursors.ts';
import { compareClient } from '../worker/compare-client.ts';
import type { CompareView } from '../worker/compare-protocol.ts';
import type { LoadProgress, LoadSummary } from '../worker/protocol.ts';
import { useCursor } from './cursor.ts';
import { useSession } from './session.ts';

export type CompareTab = 'difference' | 'surface' | 'projections' | 'context';

/** What B is and how it is loaded into the worker's compare slot: a workspace entry, or an edited copy of A (what if). */
export interface CompareB {
  /** B's workspace entry; null for a log that is none (the what-if of A). */
  entry: number | null;
  name: string;
  load(onProgress: (p: LoadProgress) => void): Promise<LoadSummary>;
}

/**
 * Compare mode (docs/compare.md): the open log is A (the app's engine and the
 * ordinary cursor), another entry of the workspace is B (the worker's
 * compare slot and `indexB`). The shared cursor is an aligned row; moving
 * it moves both sides to that row's calls, and each side can be moved
 * alone from there.
 */
export interface CompareStore {
  status: 'off' | 'loading' | 'ready' | 'error';
  /** Workspace entry of B; null when B is no entry (the what-if of A: docs/whatif.md). */
  entry: number | null;
  nameB: string | null;
  progress: LoadProgress | null;
  /** B's load summary; null when B could not be loaded (the view says why). */
  b: LoadSummary | null;
  /** A's summary when the comparison was made: another log opened as A ends compare mode. */
  a: LoadSummary | null;
  view: CompareView | null;
  error: string | null;
  /** The shared cursor: a row of the alignment. */
  row: number;
  /** B's event cursor (A's is the app cursor). */
  indexB: number;
  /** Each row's event index on both sides. */
  positions: { a: Int32Array; b: Int32Array } | null;
  tab: CompareTab;
  /** Compares A with workspace entry `entry`. */
  start(entry: number, link?: { row?: number; b?: number }): Promise<void>;
  /** Compares A with `b`, loaded into the compare slot. */
  open(b: CompareB, link?: { row?: number; b?: number }): Promise<void>;
  exit(): void;
  seekRow(row: number): void;
  stepRow(dir: 1 | -1): void;
  /** Next / previous row that differs (a divergence or a gap). */
  stepDifference(dir: 1 | -1): void;
  moveB(index: number): void;
  setTab(tab: CompareTab): void;
}

const OFF = { status: 'off' as const, entry: null, nameB: null, progress: null, b: null, a: null, view: null, error: null, row: 0, indexB: 0, positions: null };

/** Comparisons asked for so far: one asked for later wins over one still loading. */
let opens = 0;

export const useCompare = create<CompareStore>((set, get) => ({
  ...OFF,
  tab: 'difference',
  async start(entry, link = {}) {
    const { client, workspace } = useSession.getState();
    const source = workspace[entry]?.source;
    if (!client || !source) return;
    await get().open({ entry, name: source.name, load: (onProgress) => compareClient(client)['compare-load'](source, onProgress) }, link);
  },
  async open(target, link = {}) {
    const session = useSession.getState();
    const client = session.client;
    const a = session.summary;
    if (!client || !a) return;
    const compare = compareClient(client);
    const token = ++opens;
    set({ ...OFF, status: 'loading', entry: target.entry, nameB: target.name, a });
    let b: LoadSummary | null = null;
    try {
      b = await target.load((progress) => set({ progress }));
    } catch {
      // B is not a log (or not readable): the comparison still runs and says why B has nothing to align.
    }
    if (token !== opens || get().status !== 'loading') return;
    try {
      const view = await compare.compare({ a: a.name, b: target.name });
      if (token !== opens) return;
      const positions = rowCursors(view.report.rows,
        (call) => a.callCuts[call] ?? 0, (call) => b?.callCuts[call] ?? 0,
        Math.max(0, a.count - 1), Math.max(0, (b?.count ?? 1) - 1));
      set({ status: 'ready', b, view, positions, progress: null });
      const rows = view.report.rows.length;
      // A fork child and its parent start at the cut: the first row after the inherited calls.
      const fork = view.report.fork;
      const first = view.report.rows.findIndex((r) => r.status !== 'same' && !r.inherited);
      const start = link.row ?? (first >= 0 ? first : fork ? Math.min(fork.inheritedCalls, rows - 1) : 0);
      if (rows) get().seekRow(Math.max(0, Math.min(start, rows - 1)));
      if (link.b !== undefined && b) set({ indexB: Math.min(link.b, b.count - 1) });
    } catch (err) {
      set({ status: 'error', error: err instanceof Error ? err.message : String(err), progress: null });
    }
  },
  exit() {
    opens++;
    const client = useSession.getState().client;
    if (client && get().status !== 'off') void compareClient(client)['compare-drop']().catch(() => {});
    set({ ...OFF });
  },
  seekRow(row) {
    const { positions, view } = get();
    if (!positions || !view) return;
    const r = Math.max(0, Math.min(row, view.report.rows.length - 1));
    set({ row: r, indexB: positions.b[r] });
    useCursor.getState().seek(positions.a[r]);
  },
  stepRow(dir) {
    get().seekRow(get().row + dir);
  },
  stepDifference(dir) {
    const { view, row } = get();
    if (!view) return;
    const rows = view.report.rows;
    for (let r = row + dir; r >= 0 && r < rows.length; r += dir) {
      if (rows[r].status !== 'same') { get().seekRow(r); return; }
    }
  },
  moveB(index) {
    const b = get().b;
    if (b) set({ indexB: Math.max(0, Math.min(index, b.count - 1)) });
  },
  setTab: (tab) => set({ tab }),
}));
