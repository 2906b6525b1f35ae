import type { LogEvent } from '../log/types.ts';
import { deriveEventMessage, eventMessage } from '../messages/derive.ts';
import type { Message } from '../messages/types.ts';
import type { SurfaceBefore } from './build.ts';

/**
 * The messages a model call was sent, as the surface before its cut holds
 * them: the message-bearing nodes (found without deriving a message when the
 * surface totals know which nodes are silent) and a way to derive one. A
 * caller that needs a window of a long context derives only that window:
 * deriving every message of every call is quadratic on a session that is
 * never compacted.
 */
export interface CallMessages {
  seqs: number[];
  message(seq: number): Message;
}

export function callMessagesAt(surfaceBefore: SurfaceBefore, eventAt: (seq: number) => LogEvent | undefined, silent: ReadonlySet<number> | null, cut: number): CallMessages {
  const state = surfaceBefore(cut);
  const seqs = state.nodes.filter((s) => (silent ? !silent.has(s) : eventMessage(eventAt(s)!, state.projected) !== null));
  return { seqs, message: (s) => deriveEventMessage(eventAt(s)!, state.projected)! };
}
