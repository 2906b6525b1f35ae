/// <reference lib="webworker" />
import { z } from 'zod';
import { runFolderJob } from './folder-jobs.ts';
import type { FolderRequest } from './folder-protocol.ts';

// The page's CSP forbids eval; zod must not JIT its parsers.
z.config({ jitless: true });

declare const self: DedicatedWorkerGlobalScope;

// One job at a time: the pool gives each worker its next file when it answers.
self.onmessage = async (e: MessageEvent<FolderRequest>) => {
  const { id, ...job } = e.data;
  try {
    self.postMessage({ id, ok: true, result: await runFolderJob(job as typeof e.data) });
  } catch (err) {
    self.postMessage({ id, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
};
