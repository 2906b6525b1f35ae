import type { ProjectedLog } from '../core/projections/project-log.ts';

/**
 * A helper that folds the projection units over a log on another core while
 * the load reads, folds and indexes it (docs/performance.md). The load hands it the
 * file it reads (a Blob is shared, not copied) and imports the history it
 * sends back; with no helper, or one that fails, the load folds the units
 * itself — the result is the same either way.
 */
export interface Projector {
  /** Throws when the helper is known to be gone (a job of it fell silent): the load folds the units itself. */
  project(file: Blob, options: { maxLineChars?: number }): ProjectionJob;
}

export interface ProjectionJob {
  /** Settles with the history, or with `error` set; never rejects. */
  result: Promise<ProjectedLog>;
  /** `silent`: the load gave up on a helper that said nothing for HELPER_SILENCE_MS (it is not asked again). */
  cancel(why?: 'silent'): void;
  /** When the helper last said it was working on this job (Date.now(); the job's start before it says anything). */
  lastHeard(): number;
}

/** What a load sends its helper, and what comes back. */
export type ProjectorRequest =
  | { projector: 'project'; id: number; file: Blob; maxLineChars?: number }
  | { projector: 'cancel'; id: number };
export type ProjectorReply =
  | { projector: 'ready' }
  | { projector: 'alive'; id: number }
  | { projector: 'done'; id: number; projected: ProjectedLog };

/** How often a working helper says so (a load gives up on one silent for HELPER_SILENCE_MS). */
export const HELPER_HEARTBEAT_MS = 250;
export const HELPER_SILENCE_MS = 3000;

/** One end of a message channel, as a browser MessagePort or a Node worker port is adapted to it. */
export interface PortLike {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onMessage(listener: (data: unknown) => void): void;
}

/** A browser MessagePort (or a Worker) as a PortLike. */
export function browserPort(port: MessagePort | Worker): PortLike {
  return {
    postMessage: (message, transfer) => port.postMessage(message, transfer ?? []),
    onMessage: (listener) => { port.onmessage = (e: MessageEvent) => listener(e.data); },
  };
}

/** The buffers of a history's change logs: moved to the load, not copied. */
export function historyTransfer(projected: ProjectedLog): Transferable[] {
  const logs = projected.history?.cells.flatMap((c) => [c.log.seqs.buffer, c.log.same.buffer] as ArrayBuffer[]) ?? [];
  return projected.skips ? [...logs, projected.skips.lines.buffer as ArrayBuffer] : logs;
}

/** The page hands each of two load workers one end of a channel: one serves, one uses the helper. */
export interface ProjectorPortMessage { projectorPort: 'serve' | 'use'; port: MessagePort }

export const isProjectorPortMessage = (data: unknown): data is ProjectorPortMessage =>
  typeof data === 'object' && data !== null && 'projectorPort' in data && 'port' in data;
