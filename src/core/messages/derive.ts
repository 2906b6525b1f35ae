import type { LogEvent } from '../log/types.ts';
import { deepFreeze } from '../util/freeze.ts';
import { isPlainObject } from '../util/json.ts';
import type { Message } from './types.ts';

/**
 * The message an event contributes to the model's context (dsh-log-rules L6.1), or
 * null. V4 projections win over the stored message. The returned object is
 * the event's own (frozen) message, so identity is stable per node.
 */
export function deriveEventMessage(event: LogEvent, projected?: ReadonlyMap<number, Message>): Message | null {
  const message = eventMessage(event, projected);
  return message && deepFreeze(message);
}

/**
 * The same message without freezing it, for a caller that only reads it and
 * lets it go (the load's surface ledger measures every message once).
 */
export function eventMessage(event: LogEvent, projected?: ReadonlyMap<number, Message>): Message | null {
  const projection = projected?.get(event.seq);
  if (projection) return projection;
  switch (event.type) {
    // A payload of the wrong shape (the reader's finding) contributes no message.
    case 'user/message':
      return isPlainObject(event.data) ? (event.data as Message) : null;
    case 'system/message':
    case 'developer/message':
    case 'assistant/message': {
      const message = event.data?.message as Message | undefined;
      return isPlainObject(message) && Array.isArray(message.content) && message.content.length > 0 ? message : null;
    }
    case 'tool/result': {
      const message = event.data?.message as Message | undefined;
      return isPlainObject(message) ? message : null;
    }
    default:
      return null;
  }
}

/** The model-context view: the surface's messages in node order, nulls dropped (L6.2). */
export function deriveMessages(state: { nodes: Iterable<number>; projected?: ReadonlyMap<number, Message> }, eventAt: (seq: number) => LogEvent | undefined): Message[] {
  const out: Message[] = [];
  for (const seq of state.nodes) {
    const event = eventAt(seq);
    const message = event && deriveEventMessage(event, state.projected);
    if (message) out.push(message);
  }
  return out;
}
