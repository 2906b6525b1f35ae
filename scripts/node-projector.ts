import { Worker } from 'node:worker_threads';
import type { PortLike, Projector } from '../src/worker/projector.ts';
import { portProjector } from '../src/worker/projector-client.ts';

/**
 * The app's projection helper for Node (the bench): a worker thread running
 * the same host as the app's second load worker. Started once, before any
 * timing, as the app starts its helper with the page.
 */
export async function nodeProjector(): Promise<{ projector: Projector; lastPeakBytes(): number; lastPeakOldBytes(): number; twin(file: Blob, inMemory: Blob): void; close(): Promise<void> }> {
  const worker = new Worker(new URL('./node-projector-worker.mjs', import.meta.url));
  let peakBytes = 0;
  let peakOldBytes = 0;
  const listeners: ((data: unknown) => void)[] = [];
  worker.on('message', (m) => {
    if (m?.projectorMemory) ({ peakBytes, peakOldBytes } = m.projectorMemory);
    else for (const l of listeners) l(m);
  });
  // Node cannot post a file-backed Blob to a worker thread, where a browser hands the same File to
  // both workers: a job for a file registered with `twin` sends its in-memory twin instead, so the
  // load itself still reads the file from disk in small chunks, as the app's load worker does.
  const twins = new WeakMap<Blob, Blob>();
  const substitute = (m: unknown) => {
    const file = (m as { file?: unknown })?.file;
    const other = file instanceof Blob ? twins.get(file) : undefined;
    return other ? { ...(m as object), file: other } : m;
  };
  const port: PortLike = { postMessage: (m, t) => worker.postMessage(substitute(m), t as never), onMessage: (l) => void listeners.push(l) };
  const projector = portProjector(port);
  await Promise.race([projector.whenReady, new Promise((_resolve, reject) => worker.once('error', reject))]);
  return { projector, lastPeakBytes: () => peakBytes, lastPeakOldBytes: () => peakOldBytes, twin: (file, inMemory) => void twins.set(file, inMemory), close: async () => { await worker.terminate(); } };
}
