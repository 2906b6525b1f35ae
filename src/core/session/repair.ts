import type { Dialect, LogEvent } from '../log/types.ts';
import { isPlainObject } from '../util/json.ts';

/**
 * What DSH appends when it restores a log (dsh-log-rules L8, L1.7): closers for a
 * turn left open by a crash, then a `session/end-seed` marker. They are
 * synthetic — never in the file — and the app marks them so.
 */
const NOT_STARTED_TEXT = 'The tool call was interrupted before the Harness recorded it as started. Retry it if it is still needed.';
const OUTCOME_UNKNOWN_TEXT =
  'The tool call was interrupted after it was recorded, but no result was durably recorded. Its outcome is unknown. Decide whether to retry from the tool semantics: retry only if the operation is read-only or idempotent; if it may have side effects, first verify external state or ask the user. Do not retry blindly.';

interface PendingCall {
  step: number;
  callSeq?: number;
}

/**
 * Closers for an open final turn (error results for pending calls, step/end,
 * turn/end), from the open turn, step and pending tool calls followed one
 * event at a time: a streaming load knows them without keeping the events.
 */
export class OpenTurnTracker {
  private openTurn: number | null = null;
  private openStep: number | null = null;
  // Insertion order is transcript order; a repeated id keeps its first slot.
  private readonly pending = new Map<string, PendingCall>();

  observe(event: LogEvent): void {
    const { pending } = this;
    // A payload of the wrong shape is the reader's payload finding, never a crash here.
    const d: any = isPlainObject(event.data) ? event.data : {};
    switch (event.type) {
      // (A Map's clear allocates a new table even when empty: most steps end with none pending.)
      case 'turn/start': this.openTurn = d.turn; this.openStep = null; if (pending.size) pending.clear(); break;
      case 'turn/end': this.openTurn = null; this.openStep = null; if (pending.size) pending.clear(); break;
      case 'step/start': this.openStep = d.step; break;
      case 'step/end': this.openStep = null; if (pending.size) pending.clear(); break;
      case 'assistant/message':
        for (const block of Array.isArray(d.message?.content) ? d.message.content : []) {
          if (isPlainObject(block) && block.type === 'tool-call') pending.set(block.id as string, { step: d.step });
        }
        break;
      case 'tool/call': {
        const entry = pending.get(d.callId);
        if (entry) entry.callSeq = event.seq;
        break;
      }
      case 'tool/result':
        pending.delete(d?.message?.source?.callId ?? d?.message?.toolCallId);
        break;
    }
  }

  /** What the restore appends after `last` (the last event observed). */
  closers(dialect: Dialect, last: LogEvent | undefined): LogEvent[] {
    const { openTurn, openStep, pending } = this;
    if (openTurn === null || !last) return [];
    let seq = last.seq + 1;
    const time = last.time;
    const closers: LogEvent[] = [];
    for (const [callId, { step, callSeq }] of pending) {
      const started = callSeq !== undefined;
      const text = { type: 'text', text: started ? OUTCOME_UNKNOWN_TEXT : NOT_STARTED_TEXT };
      const id = `interrupted-tool-result-${callId}-${seq}`;
      const message = dialect === 'v4'
        ? { id, role: 'tool', source: { kind: 'tool', callId }, toolCallId: callId, isError: true, content: [text] }
        : { id, role: 'user', source: { kind: 'tool', callId }, content: [{ type: 'tool-result', toolCallId: callId, isError: true, content: [text] }] };
      const event: LogEvent = {
        type: 'tool/result',
        seq: seq++,
        time,
        data: {
          turn: openTurn,
          step,
          message,
          error: started ? { name: 'ToolOutcomeUnknownError', code: 'TOOL_OUTCOME_UNKNOWN' } : { name: 'ToolNotStartedError', code: 'TOOL_NOT_STARTED' },
        },
        surfaceOp: 'append',
      };
      if (started) event.sourceEventSeqs = [callSeq];
      closers.push(event);
    }
    if (openStep !== null) closers.push({ type: 'step/end', seq: seq++, time, data: { turn: openTurn, step: openStep } });
    closers.push({ type: 'turn/end', seq: seq++, time, data: { turn: openTurn, reason: { kind: 'interrupted' } } });
    return closers;
  }
}

/** The end-seed marker every restore appends after the log's last event, unless it already is one (L1.7). */
export function endSeedAfter(last: LogEvent | undefined): LogEvent | null {
  if (last?.type === 'session/end-seed') return null;
  return { type: 'session/end-seed', seq: last ? last.seq + 1 : 0, time: last?.time ?? 0, data: {} };
}
