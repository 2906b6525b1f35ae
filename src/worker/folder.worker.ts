/// <reference lib="webworker" />
import { z } from 'zod';
import { eventsPanelMatcher, searchLog } from '../core/folder/search.ts';
import { summarizeLog } from '../core/folder/summary.ts';
import type { FolderRequest } from './folder-protocol.ts';
import { streamChunks } from './stream-chunks.ts';

// The page's CSP forbids eval; zod must not JIT its parsers.
z.config({ jitless: true });

declare const self: DedicatedWorkerGlobalScope;

const chunks = (file: Blob) => streamChunks(file.stream());

// One job at a time: the pool gives each worker its next file when it answers.
self.onmessage = async (e: MessageEvent<FolderRequest>) => {
  const job = e.data;
  try {
    const result = job.op === 'summary'
      ? await summarizeLog(chunks(job.file), { file: job.rel, size: job.file.size })
      : await searchLog(chunks(job.file), eventsPanelMatcher(job.query), { limit: job.limit });
    self.postMessage({ id: job.id, ok: true, result });
  } catch (err) {
    self.postMessage({ id: job.id, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
};
