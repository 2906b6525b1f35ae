import type { EventQuery, LogSearch } from '../core/folder/search.ts';
import type { LogSummary } from '../core/folder/summary.ts';

/** A job for a folder worker (docs/sessions-folder.md): one file summarised, or searched. */
export type FolderJob =
  | { op: 'summary'; file: Blob; rel: string }
  | { op: 'search'; file: Blob; rel: string; query: EventQuery; limit: number };

export type FolderJobResult<J extends FolderJob> = J extends { op: 'summary' } ? LogSummary : LogSearch;

export type FolderRequest = FolderJob & { id: number };
export type FolderResponse = { id: number; ok: true; result: LogSummary | LogSearch } | { id: number; ok: false; error: string };

/** A folder job, told from the load worker's own requests (an engine search has no file). */
export function isFolderRequest(msg: unknown): msg is FolderRequest {
  const m = msg as Partial<FolderRequest> | null;
  return !!m && (m.op === 'summary' || m.op === 'search') && typeof m.rel === 'string' && typeof Blob !== 'undefined' && m.file instanceof Blob;
}
