import type { ProjectedLog } from '../core/projections/project-log.ts';
import type { PortLike, Projector, ProjectorReply, ProjectorRequest } from './projector.ts';

/**
 * The load's side of a helper reached through a port: one job at a time is
 * live, a new one cancels the last. A job sent before the helper has started
 * waits in its port; a helper that never starts (or crashed) falls silent,
 * the load gives up on it once, and it is not asked again.
 */
export function portProjector(port: PortLike): Projector & { whenReady: Promise<void> } {
  let nextId = 1;
  let gone = false;
  let markReady = () => {};
  const whenReady = new Promise<void>((resolve) => { markReady = resolve; });
  const waiting = new Map<number, { resolve: (p: ProjectedLog) => void; heard: number }>();
  port.onMessage((data) => {
    const reply = data as ProjectorReply;
    if (reply?.projector === 'ready') { gone = false; markReady(); }
    else if (reply?.projector === 'alive') { const job = waiting.get(reply.id); if (job) job.heard = Date.now(); }
    else if (reply?.projector === 'done') {
      waiting.get(reply.id)?.resolve(reply.projected);
      waiting.delete(reply.id);
    }
  });
  const send = (request: ProjectorRequest) => port.postMessage(request);
  return {
    whenReady,
    project(file, options) {
      if (gone) throw new Error('the projection helper fell silent');
      const id = nextId++;
      const job = { resolve: (_p: ProjectedLog) => {}, heard: Date.now() };
      const result = new Promise<ProjectedLog>((resolve) => { job.resolve = resolve; });
      waiting.set(id, job);
      send({ projector: 'project', id, file, ...(options.maxLineChars !== undefined ? { maxLineChars: options.maxLineChars } : {}) });
      return {
        result,
        lastHeard: () => job.heard,
        cancel(why) {
          if (why === 'silent') gone = true;
          if (!waiting.has(id)) return;
          send({ projector: 'cancel', id });
          job.resolve({ history: null, error: 'cancelled' });
          waiting.delete(id);
        },
      };
    },
  };
}
