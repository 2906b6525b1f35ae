import { inlineWorker } from './inline-worker.ts';
import type { FolderJob, FolderJobResult, FolderResponse } from './folder-protocol.ts';

type Port = { postMessage(msg: unknown): void; onmessage: ((e: MessageEvent<FolderResponse>) => void) | null; onerror?: ((e: Event) => void) | null; terminate(): void };
interface Queued { job: FolderJob; resolve: (v: unknown) => void; reject: (e: Error) => void }

/** Workers for a folder: one fewer than the cores (the page keeps one), at least one. */
export const poolSize = (cores = globalThis.navigator?.hardwareConcurrency ?? 2) => Math.max(1, Math.min(8, cores - 1));

/**
 * A small pool of folder workers (docs/sessions-folder.md): jobs queue, each idle worker
 * takes the next. Cancelling ends the workers (a job in flight stops at
 * once) and rejects what was queued; the next job starts fresh workers.
 */
export class FolderPool {
  private workers: { port: Port; busy: Queued | null }[] = [];
  private readonly queue: Queued[] = [];
  private nextId = 1;

  constructor(private readonly make: () => Port, private readonly size = poolSize()) {}

  run<J extends FolderJob>(job: J): Promise<FolderJobResult<J>> {
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve: resolve as (v: unknown) => void, reject });
      this.pump();
    });
  }

  cancel(): void {
    for (const w of this.workers) {
      w.port.terminate();
      w.busy?.reject(new Error('cancelled'));
    }
    this.workers = [];
    for (const q of this.queue.splice(0)) q.reject(new Error('cancelled'));
  }

  private pump(): void {
    while (this.workers.length < this.size && this.workers.length < this.queue.length + this.busyCount()) this.spawn();
    for (const w of this.workers) {
      if (w.busy || this.queue.length === 0) continue;
      const next = this.queue.shift()!;
      w.busy = next;
      w.port.postMessage({ ...next.job, id: this.nextId++ });
    }
  }

  private busyCount(): number {
    return this.workers.filter((w) => w.busy).length;
  }

  private spawn(): void {
    const port = this.make();
    const slot = { port, busy: null as Queued | null };
    port.onmessage = (e) => {
      const done = slot.busy;
      slot.busy = null;
      if (done) {
        const msg = e.data;
        if (msg.ok) done.resolve(msg.result);
        else done.reject(new Error(msg.error));
      }
      this.pump();
    };
    // A worker that dies (out of memory on a huge file) fails its job, not the folder: it is replaced.
    port.onerror = (e) => {
      e.preventDefault?.();
      slot.busy?.reject(new Error('the worker stopped (out of memory?)'));
      port.terminate();
      this.workers = this.workers.filter((w) => w !== slot);
      this.pump();
    };
    this.workers.push(slot);
  }
}

/**
 * The app's pool: module workers built by Vite from folder.worker.ts; in the
 * single-file app (which can load no other file) copies of its inline load
 * worker, which answers folder jobs too.
 */
export function folderPool(): FolderPool {
  return new FolderPool(() => (inlineWorker() ?? new Worker(new URL('./folder.worker.ts', import.meta.url), { type: 'module' })) as unknown as Port);
}
