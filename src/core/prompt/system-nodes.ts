import type { LogEvent } from '../log/types.ts';
import { systemText } from '../messages/classify.ts';
import { currentMessage } from '../surface/message-projections.ts';
import type { SurfaceContext, SurfaceState } from '../surface/types.ts';

/**
 * System nodes on a folded surface (dsh-log-rules P5.1), for the
 * mid/newest dialects where the prompt lives in `system/message` events.
 */
export { systemText };

export interface SystemNode {
  seq: number;
  /** Surface index of the node. */
  index: number;
  /** '' dormant; a string: one text block; undefined: active but opaque content. */
  text: string | undefined;
}

export interface SystemNodes {
  nodes: SystemNode[];
  /** The first system node wherever it sits (need not be node 0). */
  head: SystemNode | undefined;
  /** The last node whose text is not '' — or head when every node is dormant. */
  latest: SystemNode | undefined;
}

export function systemNodes(state: SurfaceState, ctx: SurfaceContext): SystemNodes {
  const nodes: SystemNode[] = [];
  state.nodes.forEach((seq, index) => {
    const event: LogEvent | undefined = ctx.eventAt(seq);
    if (event?.type !== 'system/message') return;
    nodes.push({ seq, index, text: systemText(currentMessage(seq, state, ctx)?.content) });
  });
  return { nodes, head: nodes[0], latest: latestSystemNode(nodes) };
}

/** The effective prompt's node (dsh-log-rules P5.4): the last one that is not dormant, or the head when all are. */
export function latestSystemNode<T extends { text: string | undefined }>(nodes: readonly T[]): T | undefined {
  let latest: T | undefined;
  for (const n of nodes) if (n.text !== '') latest = n;
  return latest ?? nodes[0];
}
