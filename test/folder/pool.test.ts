// The folder view's worker pool (issue #23) with in-process workers that run
// the real folder jobs: every file is summarised, no more jobs run at once
// than the pool has workers, and a cancel fails what is queued or running.
import { describe, expect, it } from 'vitest';
import type { LogSummary } from '../../src/core/folder/summary.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { runFolderJob } from '../../src/worker/folder-jobs.ts';
import { FolderPool, poolSize } from '../../src/worker/folder-pool.ts';
import type { FolderRequest, FolderResponse } from '../../src/worker/folder-protocol.ts';

/** A worker in this thread: it answers each message with the job's real result. */
function inProcessWorker(track: { running: number; most: number; ended: number }) {
  const port = {
    onmessage: null as ((e: MessageEvent<FolderResponse>) => void) | null,
    ended: false,
    postMessage(msg: unknown) {
      const { id, ...job } = msg as FolderRequest;
      track.running++;
      track.most = Math.max(track.most, track.running);
      void runFolderJob(job as FolderRequest).then((result) => {
        track.running--;
        if (!port.ended) port.onmessage?.({ data: { id, ok: true, result } } as MessageEvent<FolderResponse>);
      });
    },
    terminate() { port.ended = true; track.ended++; },
  };
  return port;
}

const logs = Array.from({ length: 9 }, (_, i) => new Blob([generateLog({ dialect: i % 2 ? 'v4' : 'v0', seed: 40 + i, turns: 2 }).text]));

describe('the folder pool', () => {
  it('is one worker fewer than the cores, at least one', () => {
    expect([poolSize(1), poolSize(2), poolSize(4), poolSize(16)]).toEqual([1, 1, 3, 8]);
  });

  it('summarises every file with at most `size` jobs at once', async () => {
    const track = { running: 0, most: 0, ended: 0 };
    const pool = new FolderPool(() => inProcessWorker(track), 3);
    const rows = await Promise.all(logs.map((file, i) => pool.run({ op: 'summary', file, rel: `s${i}.jsonl` })));
    expect(rows.map((r: LogSummary) => r.file)).toEqual(logs.map((_, i) => `s${i}.jsonl`));
    expect(rows.every((r) => r.isLog && r.events > 0 && r.calls > 0)).toBe(true);
    expect(track.most).toBe(3);
  });

  it('cancel fails the queued and running jobs and ends the workers; the next job starts afresh', async () => {
    const track = { running: 0, most: 0, ended: 0 };
    const pool = new FolderPool(() => inProcessWorker(track), 2);
    const pending = logs.map((file, i) => pool.run({ op: 'summary', file, rel: `s${i}.jsonl` }).then(() => 'done', (e: Error) => e.message));
    pool.cancel();
    expect(await Promise.all(pending)).toEqual(logs.map(() => 'cancelled'));
    expect(track.ended).toBe(2);
    const after = await pool.run({ op: 'search', file: logs[0], rel: 's0.jsonl', query: { text: 'turn/start' }, limit: 5 });
    expect(after.hits.length).toBeGreaterThan(0);
    expect(after.hits.every((h) => h.type === 'turn/start')).toBe(true);
  });
});
