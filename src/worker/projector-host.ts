import { projectLog, type ProjectedLog } from '../core/projections/project-log.ts';
import { historyTransfer, type PortLike, type ProjectorRequest } from './projector.ts';
import { streamChunks } from './stream-chunks.ts';
import { yieldEvery } from './yield-every.ts';

/** How long the helper folds before it lets a cancel or a newer job in. */
const PAUSE_EVERY_MS = 40;

/**
 * The helper's side: folds the projection units over each file it is sent
 * (src/core/projections/project-log.ts) and sends the history back. A newer
 * job or a cancel stops the running one at its next chunk.
 */
export function serveProjections(port: PortLike, hooks: { onDone?(projected: ProjectedLog): void } = {}): void {
  let current = 0;
  port.onMessage((data) => {
    const request = data as ProjectorRequest;
    if (request?.projector === 'cancel') { if (current === request.id) current = 0; return; }
    if (request?.projector !== 'project') return;
    const { id } = request;
    current = id;
    const pauses = yieldEvery(PAUSE_EVERY_MS);
    void projectLog(streamChunks(request.file.stream()), { cancelled: () => current !== id, pause: pauses.pause, maxLineChars: request.maxLineChars })
      .catch((err: unknown): ProjectedLog => ({ history: null, error: err instanceof Error ? err.message : String(err) }))
      .then((projected) => {
        pauses.close();
        // A cancelled job's reply is dropped by the load; no need to send its history.
        const sent = current === id ? projected : { history: null, error: 'cancelled' };
        hooks.onDone?.(sent);
        port.postMessage({ projector: 'done', id, projected: sent }, historyTransfer(sent));
        if (current === id) current = 0;
      });
  });
}
