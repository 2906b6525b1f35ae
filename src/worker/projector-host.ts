import { projectLog, type ProjectedLog } from '../core/projections/project-log.ts';
import { HELPER_HEARTBEAT_MS, historyTransfer, type PortLike, type ProjectorReply, type ProjectorRequest } from './projector.ts';
import { OwnedChunks } from './owned-chunks.ts';
import { streamChunks } from './stream-chunks.ts';
import { PAUSE_EVERY_MS, yieldEvery } from './yield-every.ts';

/**
 * The helper's side: folds the projection units over each file it is sent
 * (src/core/projections/project-log.ts) and sends the history back. A newer
 * job or a cancel stops the running one at its next chunk.
 */
export function serveProjections(port: PortLike, hooks: { onDone?(projected: ProjectedLog): void } = {}): void {
  let current = 0;
  const reply = (message: ProjectorReply, transfer?: Transferable[]) => port.postMessage(message, transfer);
  port.onMessage((data) => {
    const request = data as ProjectorRequest;
    if (request?.projector === 'cancel') { if (current === request.id) current = 0; return; }
    if (request?.projector !== 'project') return;
    const { id } = request;
    current = id;
    const pauses = yieldEvery(PAUSE_EVERY_MS);
    // Each pause is a chance to say the job is alive (a load gives up on a silent helper).
    let said = Date.now();
    const pause = () => {
      const now = Date.now();
      if (now - said >= HELPER_HEARTBEAT_MS) { said = now; reply({ projector: 'alive', id }); }
      return pauses.pause();
    };
    // The file's chunks are the helper's own: each is freed once read, as the load worker frees its own.
    const own = new OwnedChunks();
    void projectLog(own.track(streamChunks(request.file.stream())), { cancelled: () => current !== id, pause, maxLineChars: request.maxLineChars, onLetGo: own.letGo })
      .catch((err: unknown): ProjectedLog => ({ history: null, error: err instanceof Error ? err.message : String(err) }))
      .then((projected) => {
        pauses.close();
        // A cancelled job's reply is dropped by the load; no need to send its history.
        const sent = current === id ? projected : { history: null, error: 'cancelled' };
        hooks.onDone?.(sent);
        reply({ projector: 'done', id, projected: sent }, historyTransfer(sent));
        if (current === id) current = 0;
      });
  });
  reply({ projector: 'ready' });
}
