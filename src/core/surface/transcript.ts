import { isAppendSurfaceEvent } from '../log/event-types.ts';
import type { Dialect, LogEvent } from '../log/types.ts';
import { deriveEventMessage } from '../messages/derive.ts';
import type { Message } from '../messages/types.ts';
import type { SurfaceState } from './types.ts';

/**
 * The human transcript (dsh-log-rules L7): append-origin surface events in log order.
 * Replacements are model-only; they annotate what they shadowed rather than
 * appear as new bubbles.
 */
export interface TranscriptEntry {
  seq: number;
  type: string;
  message: Message | null;
  /** Where the node stands now: on the surface, shadowed by a replace, or never a node (rejected). */
  status: { kind: 'on-surface' } | { kind: 'shadowed'; by: number } | { kind: 'not-a-node' };
}

export function buildTranscript(events: Iterable<LogEvent>, state: SurfaceState, dialect: Dialect): TranscriptEntry[] {
  const onSurface = new Set(state.nodes);
  const shadowedBy = new Map<number, number>();
  for (const r of state.replacements) for (const s of r.shadowedSeqs) shadowedBy.set(s, r.seq);
  const out: TranscriptEntry[] = [];
  for (const event of events) {
    if (!isAppendSurfaceEvent(event, dialect)) continue;
    const by = shadowedBy.get(event.seq);
    const status: TranscriptEntry['status'] = onSurface.has(event.seq)
      ? { kind: 'on-surface' }
      : by !== undefined ? { kind: 'shadowed', by } : { kind: 'not-a-node' };
    out.push({ seq: event.seq, type: event.type, message: deriveEventMessage(event, state.projected), status });
  }
  return out;
}
