import { FollowSession, type FollowStatus } from '../../core/follow/follow-session.ts';
import { TailCursor } from '../../core/follow/tail-cursor.ts';
import { MAX_READ, readFileTail } from './file-tail.ts';

/** What `inspect --follow --ndjson` prints: a status after each batch of newly committed events, a notice when the file was re-opened, the final state. */
export type FollowLine =
  | FollowStatus
  | { reopened: 'shrunk' | 'replaced'; message: string }
  | (FollowStatus & { final: true; tornBytes: number; ok: boolean });

/**
 * Follows a log file on disk until `signal` aborts: looks every
 * `intervalMs`, hands the new bytes to the follower, and reports each
 * batch that committed events. A file that shrank or whose start changed
 * is read again from its start. On abort the input ends: the last line is
 * the whole log as a load would give it (torn tail, restore closers).
 */
export async function followFile(file: string, intervalMs: number, signal: AbortSignal, print: (line: FollowLine) => void): Promise<void> {
  let cursor = new TailCursor();
  let session = new FollowSession();
  let reported = -1;
  while (!signal.aborted) {
    const step = cursor.take(readFileTail(file, cursor.offset));
    if (step.kind === 'shrunk' || step.kind === 'replaced') {
      print({ reopened: step.kind, message: step.kind === 'shrunk' ? `${file} shrank from ${step.offset} to ${step.size} bytes; reading it again from the start` : `${file} now holds another log (its first bytes changed); reading it again from the start` });
      await session.stop().catch(() => undefined);
      cursor = new TailCursor();
      session = new FollowSession();
      reported = -1;
      continue;
    }
    if (step.kind === 'grew') {
      const status = await session.append(step.bytes);
      if (status.events !== reported) {
        reported = status.events;
        print(status);
      }
      // More already on disk: read on without waiting.
      if (step.bytes.length === MAX_READ) continue;
    }
    await sleep(intervalMs, signal);
  }
  const fold = await session.stop();
  const logged = fold.loggedCount;
  print({
    events: logged,
    lastSeq: logged ? fold.events.at(logged - 1)!.seq : -1,
    nodes: fold.surface.nodes.length,
    pending: 0,
    findings: fold.diagnostics.length,
    final: true,
    tornBytes: fold.read.tornTail?.bytes ?? 0,
    ok: fold.ok,
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
