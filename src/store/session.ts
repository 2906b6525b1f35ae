import { create } from 'zustand';
import type { LoadProgress, LoadSource, LoadSummary } from '../worker/protocol.ts';
import type { WorkerClient } from '../worker/client.ts';
import { useCursor } from './cursor.ts';
import { rememberRecent } from './recent.ts';

/**
 * The loaded session: what the worker reported about the open log. A failed
 * load keeps the previous log open and shows the error beside it.
 */
export interface SessionStore {
  status: 'idle' | 'loading' | 'ready' | 'error';
  progress: LoadProgress | null;
  loadingName: string | null;
  summary: LoadSummary | null;
  error: string | null;
  demo: boolean;
  client: WorkerClient | null;
  setClient(client: WorkerClient): void;
  open(source: LoadSource, options?: { demo?: boolean; cursor?: number }): Promise<void>;
  cancel(): void;
  dismissError(): void;
}

export const useSession = create<SessionStore>((set, get) => ({
  status: 'idle',
  progress: null,
  loadingName: null,
  summary: null,
  error: null,
  demo: false,
  client: null,
  setClient: (client) => set({ client }),
  async open(source, options = {}) {
    const client = get().client;
    if (!client) return;
    set({ status: 'loading', progress: null, loadingName: source.name, error: null });
    try {
      const summary = await client.load(source, (progress) => set({ progress }));
      set({ status: 'ready', summary, demo: options.demo ?? false, progress: null, loadingName: null });
      const last = summary.count - 1;
      useCursor.getState().reset(options.cursor !== undefined ? Math.min(options.cursor, last) : last);
      if (!options.demo) rememberRecent(source.name);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      set({ status: get().summary ? 'ready' : 'error', error: message === 'cancelled' ? null : `Could not open ${source.name}: ${message}`, progress: null, loadingName: null });
    }
  },
  cancel() {
    get().client?.cancel();
    set({ status: get().summary ? 'ready' : 'idle', progress: null, loadingName: null });
  },
  dismissError: () => set({ error: null }),
}));
