import { eventsPanelMatcher, searchLog, type LogSearch } from '../core/folder/search.ts';
import { summarizeLog, type LogSummary } from '../core/folder/summary.ts';
import type { FolderJob, FolderRequest } from './folder-protocol.ts';
import { streamChunks } from './stream-chunks.ts';

/** What a folder worker does with one job: the file summarised, or searched (streamed from the Blob). */
export function runFolderJob(job: FolderJob): Promise<LogSummary | LogSearch> {
  const chunks = () => streamChunks(job.file.stream() as ReadableStream<Uint8Array>);
  return job.op === 'summary'
    ? summarizeLog(chunks, { file: job.rel, size: job.file.size })
    : searchLog(chunks(), eventsPanelMatcher(job.query), { limit: job.limit });
}

/** Answers one folder request with its id (the folder worker, and the load worker of the single-file app). */
export async function answerFolderRequest(req: FolderRequest, post: (msg: unknown) => void): Promise<void> {
  const { id, ...job } = req;
  try {
    post({ id, ok: true, result: await runFolderJob(job as FolderJob) });
  } catch (err) {
    post({ id, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
}
