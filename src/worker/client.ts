import type { Response } from './protocol.ts';
import { OPERATIONS, type LogClient } from './operations.ts';
import { clientOf } from './operation-table.ts';
import { inlineWorker } from './inline-worker.ts';

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void; onProgress?: (p: unknown) => void };
type Target = { postMessage(msg: unknown): void; onmessage: ((e: MessageEvent) => void) | null; terminate?(): void };

/**
 * Promise-based calls into the load worker (or any object that speaks its
 * protocol): one method per operation of its table (operations.ts), derived
 * from it, plus `send` for the worker's other tables (compare, follow).
 */
export class WorkerClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Told when the open file can no longer be read back (it changed on disk after it was opened). */
  onFileLost: ((message: string) => void) | null = null;

  constructor(private readonly target: Target) {
    target.onmessage = (e: MessageEvent<Response>) => {
      const msg = e.data;
      const p = this.pending.get(msg.id);
      if (!p) return;
      if ('progress' in msg) { p.onProgress?.(msg.progress); return; }
      this.pending.delete(msg.id);
      if (msg.lost) this.onFileLost?.(msg.lost);
      if (msg.ok) p.resolve(msg.result);
      else p.reject(Object.assign(new Error(msg.error), msg.finding ? { finding: msg.finding } : {}));
    };
    Object.assign(this, clientOf(OPERATIONS, (req, onProgress) => this.send(req, onProgress)));
  }

  /** One request of any table the worker speaks, and its answer as posted. */
  send<T = unknown>(req: { op: string } & Record<string, unknown>, onProgress?: (p: any) => void): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onProgress });
      this.target.postMessage({ ...req, id });
    });
  }
}

// The load worker's operations, as methods of the client (assigned in the constructor from the table).
export interface WorkerClient extends LogClient {}

let shared: WorkerClient | null = null;

/** A load worker: the single-file app carries the worker's code in the page (docs/share-and-privacy.md); the built app loads its file. */
const loadWorker = (): Worker => inlineWorker() ?? new Worker(new URL('./load.worker.ts', import.meta.url), { type: 'module' });

/**
 * Cores a load keeps busy besides the helper: the page (it draws the part read
 * so far), the load worker, and the engines' own collector threads. On a
 * 2-core machine a helper only takes turns with them (measured in the perf
 * browser case: no faster), so it starts from 4 cores.
 */
export const HELPER_MIN_CORES = 4;

/** Cores to spare, unless the link says otherwise (`?helper=0` or `?helper=1`: to compare the two loads). */
function helperWanted(): boolean {
  if (typeof MessageChannel !== 'function') return false;
  const asked = new URLSearchParams(globalThis.location?.search ?? '').get('helper');
  if (asked === '0' || asked === '1') return asked === '1';
  return (globalThis.navigator?.hardwareConcurrency ?? 1) >= HELPER_MIN_CORES;
}

/**
 * The app's one load worker, created on first use, with a second copy of it
 * as its projection helper when the machine has cores to spare (docs/performance.md):
 * the two talk over their own channel, the page only introduces them.
 */
export function workerClient(): WorkerClient {
  if (shared) return shared;
  const worker = loadWorker();
  shared = new WorkerClient(worker);
  if (helperWanted()) {
    const helper = loadWorker();
    const channel = new MessageChannel();
    helper.postMessage({ projectorPort: 'serve', port: channel.port1 }, [channel.port1]);
    worker.postMessage({ projectorPort: 'use', port: channel.port2 }, [channel.port2]);
  }
  return shared;
}
