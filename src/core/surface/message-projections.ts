import type { LogEvent } from '../log/types.ts';
import type { ContentBlock, Message } from '../messages/types.ts';
import { deepFreeze } from '../util/freeze.ts';
import { hasExactKeys, isPlainObject, isSeq } from '../util/json.ts';
import type { SurfaceContext, SurfaceState } from './types.ts';

/**
 * Message-projection interpreters (dsh-log-rules L6.4): a log-only event that rewrites
 * the content of earlier nodes' messages, keeping their identity. An
 * interpreter validates the whole decision first and returns seq → new
 * message, or a reason string. DSH's first-party list is image-offload alone.
 */
export type MessageInterpreter = (event: LogEvent, state: SurfaceState, ctx: SurfaceContext) => Map<number, Message> | string;

/** The message a node currently shows: its projection if any, else the event's own. */
export function currentMessage(seq: number, state: SurfaceState, ctx: SurfaceContext): Message | undefined {
  const projected = state.projected.get(seq);
  if (projected) return projected;
  const event = ctx.eventAt(seq);
  if (!event) return undefined;
  return (event.type === 'user/message' ? event.data : event.data?.message) as Message | undefined;
}

const imageOffload: MessageInterpreter = (event, state, ctx) => {
  const data = event.data;
  if (!isPlainObject(data) || !hasExactKeys(data, ['targets']) || !Array.isArray(data.targets) || data.targets.length === 0) {
    return 'data must be exactly {targets} with a non-empty array';
  }
  const out = new Map<number, Message>();
  const nodes = new Set(state.nodes);
  for (const target of data.targets as unknown[]) {
    if (!isPlainObject(target) || !hasExactKeys(target, ['seq', 'imageIndexes'])) return 'each target must be exactly {seq, imageIndexes}';
    const { seq, imageIndexes } = target;
    if (!isSeq(seq)) return 'target seq must be a seq';
    if (out.has(seq)) return `target seq ${seq} appears twice`;
    if (!nodes.has(seq)) return `target seq ${seq} is not a current surface node`;
    const type = ctx.eventAt(seq)?.type;
    if (type !== 'user/message' && type !== 'tool/result') return `target seq ${seq} is a ${type}, not a user/message or tool/result`;
    if (!Array.isArray(imageIndexes) || imageIndexes.length === 0) return `imageIndexes of seq ${seq} must be a non-empty array`;
    for (let i = 0; i < imageIndexes.length; i++) {
      if (!isSeq(imageIndexes[i]) || (i > 0 && imageIndexes[i] <= imageIndexes[i - 1])) return `imageIndexes of seq ${seq} must be strictly increasing non-negative integers`;
    }
    const message = currentMessage(seq, state, ctx);
    if (!message || !Array.isArray(message.content)) return `seq ${seq} has no message content`;
    const selected = new Set(imageIndexes as number[]);
    let imageIndex = -1;
    const content: ContentBlock[] = message.content.map((block) => {
      if (!isPlainObject(block) || block.type !== 'image') return block;
      imageIndex++;
      return selected.has(imageIndex) ? { ...block, offloaded: true } : block;
    });
    const imageCount = imageIndex + 1;
    for (const index of selected) {
      if (index >= imageCount) return `seq ${seq} has no image ${index} (it has ${imageCount})`;
    }
    let k = -1;
    for (const block of message.content) {
      if (isPlainObject(block) && block.type === 'image' && selected.has(++k) && block.offloaded === true) return `image ${k} of seq ${seq} is already offloaded`;
    }
    out.set(seq, deepFreeze({ ...message, content }));
  }
  return out;
};

export const messageInterpreters: ReadonlyMap<string, MessageInterpreter> = new Map([['image/offload', imageOffload]]);
