import type { LogEvent } from '../log/types.ts';
import { deriveEventMessage, eventMessage } from '../messages/derive.ts';
import type { Message } from '../messages/types.ts';
import type { Replay } from '../replay/replay-index.ts';
import type { SurfaceTotals } from '../surface/surface-totals.ts';
import type { SurfaceState } from '../surface/types.ts';
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
  /** How many messages the call was sent. */
  count: number;
  /** The seqs of the call's messages from message `from` on, read from the surface's end. */
  seqsFrom(from: number): number[];
  message(seq: number): Message;
}

type CallSurface = Pick<SurfaceState, 'nodes' | 'projected'>;

/** A call's messages from one seek to its surface (a request's detail, a copy). */
export function callMessagesAt(surfaceBefore: SurfaceBefore, eventAt: (seq: number) => LogEvent | undefined, silent: ReadonlySet<number> | null, cut: number): CallMessages {
  const state = surfaceBefore(cut);
  const seqs = state.nodes.filter((s) => (silent ? !silent.has(s) : eventMessage(eventAt(s)!, state.projected) !== null));
  return { count: seqs.length, seqsFrom: (from) => seqs.slice(from), message: messageOf(state, eventAt) };
}

/**
 * Every call's messages in cut order, from one forward walk of the surface
 * (Replay.surfaceWalk) and only the tail each caller asks for: a trace of a
 * session that grows its surface for thousands of calls would otherwise copy
 * and scan the whole surface once a call (docs/long-sessions.md). The
 * count is the surface totals' message count before the cut. What a call
 * returns is good until the next call is asked for.
 */
export function callMessagesInOrder(replay: Replay, totals: SurfaceTotals): (cut: number) => CallMessages {
  const walk = replay.surfaceWalk();
  const eventAt = replay.session.eventAt;
  return (cut) => {
    const state = walk(replay.indexOfSeq(cut) - 1);
    const count = totals.at(cut - 1).messages;
    return {
      count,
      seqsFrom: (from) => {
        const wanted = Math.max(0, count - from);
        const out: number[] = [];
        for (let i = state.nodes.length - 1; i >= 0 && out.length < wanted; i--) {
          const seq = state.nodes[i];
          if (!totals.silent.has(seq)) out.push(seq);
        }
        return out.reverse();
      },
      message: messageOf(state, eventAt),
    };
  };
}

function messageOf(state: CallSurface, eventAt: (seq: number) => LogEvent | undefined): (seq: number) => Message {
  return (s) => deriveEventMessage(eventAt(s)!, state.projected)!;
}
