// The app's memory while a log opens, as Chromium counts it (issue #15): the JS heap in use and the
// ArrayBuffer backing stores of the page and of each of its workers, sampled over the DevTools
// protocol. Peaks are over the level when sampling started; figures, not assertions.
import type { CDPSession, Page } from 'playwright-core';

interface Usage { usedSize: number; backingStorageSize?: number }
export interface MemoryPeaks {
  /** Peak of heap in use + backing stores, per thread, over its level at the start. */
  page: number;
  workers: number[];
  /** The same after the open, once each thread has collected its garbage: what stays. */
  retained: number;
}

const total = (u: Usage | null) => (u ? u.usedSize + (u.backingStorageSize ?? 0) : 0);

/** Starts sampling the page and its workers every few ms; `stop` gives the peaks. */
export async function sampleMemory(page: Page): Promise<{ stop(): Promise<MemoryPeaks> }> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  const workers: string[] = [];
  const waiting = new Map<number, (r: Usage | null) => void>();
  let nextId = 1;
  cdp.on('Target.attachedToTarget', (e) => { if (e.targetInfo.type === 'worker') workers.push(e.sessionId); });
  cdp.on('Target.receivedMessageFromTarget', (e) => {
    const m = JSON.parse(e.message) as { id?: number; result?: Usage };
    if (m.id !== undefined) { waiting.get(m.id)?.(m.result ?? null); waiting.delete(m.id); }
  });
  // Not flattened: a worker is spoken to through this session, which Playwright's API allows.
  const inWorker = (sessionId: string, method: string) => new Promise<Usage | null>((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
    cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) }).catch(() => resolve(null));
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  const collect = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    await Promise.all(workers.map((w) => inWorker(w, 'HeapProfiler.collectGarbage')));
  };
  const usages = async () => [total(await cdp.send('Runtime.getHeapUsage') as Usage), ...await Promise.all(workers.map(async (w) => total(await inWorker(w, 'Runtime.getHeapUsage'))))];
  await collect();
  const base = await usages();
  const peaks = base.map(() => 0);
  let sampling = true;
  const loop = (async () => {
    while (sampling) {
      // A worker that starts meanwhile counts from nothing.
      (await usages()).forEach((u, i) => { peaks[i] = Math.max(peaks[i] ?? 0, u - (base[i] ?? 0)); });
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  return {
    async stop() {
      sampling = false;
      await loop;
      await collect();
      const after = await usages();
      const retained = after.reduce((n, u, i) => n + u - (base[i] ?? 0), 0);
      await cdp.detach();
      return { page: peaks[0], workers: peaks.slice(1), retained };
    },
  };
}
