import type { ProjectedLog } from '../core/projections/project-log.ts';
import type { PortLike, Projector, ProjectorReply, ProjectorRequest } from './projector.ts';

/** The load's side of a helper reached through a port: one job at a time is live, a new one cancels the last. */
export function portProjector(port: PortLike): Projector {
  let nextId = 1;
  const waiting = new Map<number, (p: ProjectedLog) => void>();
  port.onMessage((data) => {
    const reply = data as ProjectorReply;
    if (reply?.projector !== 'done') return;
    waiting.get(reply.id)?.(reply.projected);
    waiting.delete(reply.id);
  });
  const send = (request: ProjectorRequest) => port.postMessage(request);
  return {
    project(file, options) {
      const id = nextId++;
      const result = new Promise<ProjectedLog>((resolve) => waiting.set(id, resolve));
      send({ projector: 'project', id, file, ...(options.maxLineChars !== undefined ? { maxLineChars: options.maxLineChars } : {}) });
      return {
        result,
        cancel() {
          if (!waiting.has(id)) return;
          send({ projector: 'cancel', id });
          waiting.get(id)!({ history: null, error: 'cancelled' });
          waiting.delete(id);
        },
      };
    },
  };
}
