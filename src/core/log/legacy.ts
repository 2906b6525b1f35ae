import type { Dialect, JsonObject, LogEvent } from './types.ts';
import { countAtOrBelow } from '../util/sorted.ts';

/**
 * Legacy shapes DSH rc.8 upgrades in its read view (dsh-log-rules L2.3; the upgrade
 * lives in DSH's persistence coordinator, not the session core). Storage is
 * never rewritten: the reader keeps the stored row on the event's origin.
 * V3+ logs went through DSH's format migrations, so only V0 is upgraded.
 */
export interface Upgrade {
  event: LogEvent;
  /** The row as stored, when it was upgraded. */
  legacy?: JsonObject;
  note?: string;
  /** Why DSH refuses this row outright (retired or malformed legacy shape). */
  refusal?: string;
}

type Data = Record<string, unknown>;
const isObject = (v: unknown): v is Data => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (o: Data, k: string) => Object.hasOwn(o, k);
const keysWithin = (o: Data, allowed: string[]) => Object.keys(o).every((k) => allowed.includes(k));
const isTurn = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 1;

export class LegacyUpgrader {
  /**
   * Message id per seq, so a legacy tool-result rewrite keeps its target's id:
   * two parallel lists in seq order (events come in ascending seq), looked up
   * by binary search — a hash map of every message's seq cost more than the rest of the upgrade.
   */
  private readonly messageSeqs: number[] = [];
  private readonly messageIds: string[] = [];

  constructor(private readonly sessionId: string, private readonly dialect: Dialect) {}

  /** The deterministic id DSH gives a message stored without one. */
  private legacyId(seq: number): string {
    return `legacy-message:${this.sessionId}:${seq}`;
  }

  upgrade(event: LogEvent): Upgrade {
    const result = this.dialect === 'v0' ? this.upgradeV0(event) : { event };
    const message = messageOf(result.event);
    if (message && typeof message.id === 'string') this.rememberId(result.event.seq, message.id);
    return result;
  }

  /** The reader upgrades events in ascending seq (it refuses a seq that repeats or goes back): an append keeps the order. */
  private rememberId(seq: number, id: string): void {
    this.messageSeqs.push(seq);
    this.messageIds.push(id);
  }

  private idAt(seq: number): string | undefined {
    const at = countAtOrBelow(this.messageSeqs, seq);
    return at > 0 && this.messageSeqs[at - 1] === seq ? this.messageIds[at - 1] : undefined;
  }

  private upgradeV0(event: LogEvent): Upgrade {
    const d = event.data;
    switch (event.type) {
      case 'request/header-delta':
        return { event, refusal: 'unsupported legacy request/header-delta event' };
      case 'mode/set':
        return { event, refusal: 'unsupported legacy mode/set event' };
      case 'request/header':
        return isObject(d) && d.reason === 'fallback' ? { event, refusal: 'unsupported legacy request/header reason "fallback"' } : { event };
      case 'turn/start':
        if (!isObject(d) || !has(d, 'trigger')) return { event };
        if (!isTurn(d.turn) || !keysWithin(d, ['turn', 'trigger']) || !isObject(d.trigger) || typeof d.trigger.kind !== 'string' || !d.trigger.kind) {
          return { event, refusal: 'malformed pre-react-loop turn/start' };
        }
        return this.changed(event, { ...event, data: { turn: d.turn } }, 'turn/start trigger dropped');
      case 'turn/end':
        return this.turnEnd(event);
      case 'steering/message':
        return this.steering(event);
      case 'user/message':
        if (isObject(d) && !has(d, 'id') && !has(d, 'role') && !has(d, 'message') && has(d, 'content') && has(d, 'source')) {
          return this.changed(event, { ...event, data: { ...d, id: this.legacyId(event.seq), role: 'user' } }, 'pre-identity user/message given an id');
        }
        return { event };
      case 'assistant/message':
        if (isObject(d) && !has(d, 'message') && has(d, 'content') && has(d, 'provenance')) {
          const { content, provenance, ...rest } = d;
          const source = { ...(isObject(provenance) ? provenance : {}), kind: 'model' };
          const message = { id: this.legacyId(event.seq), role: 'assistant', content, source };
          return this.changed(event, { ...event, data: { ...rest, message } }, 'pre-identity assistant/message upgraded');
        }
        return { event };
      case 'tool/result':
        if (isObject(d) && !has(d, 'message') && has(d, 'callId') && has(d, 'content') && has(d, 'isError')) {
          const { callId, content, isError, ...rest } = d;
          const op = event.surfaceOp;
          // A content-only rewrite keeps the identity of the result it replaces.
          const id = typeof op === 'object' && 'start' in op ? this.idAt(op.start) : this.legacyId(event.seq);
          const message = {
            id,
            role: 'user',
            content: [{ type: 'tool-result', toolCallId: callId, content, isError }],
            source: { kind: 'tool', callId },
          };
          return this.changed(event, { ...event, data: { ...rest, message } }, 'pre-identity tool/result upgraded');
        }
        return { event };
      default:
        return { event };
    }
  }

  private steering(event: LogEvent): Upgrade {
    const d = event.data;
    if (isObject(d) && keysWithin(d, ['turn', 'message']) && Object.keys(d).length === 2 && Number.isSafeInteger(d.turn) && isObject(d.message)) {
      return this.changed(event, { ...event, type: 'user/message', data: d.message }, 'steering/message read as user/message');
    }
    if (isObject(d) && Object.keys(d).length === 3 && keysWithin(d, ['turn', 'content', 'source']) && Number.isSafeInteger(d.turn)) {
      const { turn: _turn, ...rest } = d;
      return this.changed(event, { ...event, type: 'user/message', data: { ...rest, id: this.legacyId(event.seq), role: 'user' } }, 'steering/message read as user/message');
    }
    return { event, refusal: 'malformed pre-react-loop steering/message' };
  }

  /** Every turn/end passes this shape check in rc.8, not only old ones. */
  private turnEnd(event: LogEvent): Upgrade {
    const d = event.data;
    const malformed: Upgrade = { event, refusal: 'malformed pre-react-loop turn/end' };
    if (!isObject(d) || !isTurn(d.turn) || !keysWithin(d, ['turn', 'reason']) || !isObject(d.reason) || typeof d.reason.kind !== 'string') return malformed;
    const reason = d.reason;
    const exactlyKind = Object.keys(reason).length === 1;
    switch (reason.kind) {
      case 'completed': case 'blocked': case 'max-tokens': case 'interrupted':
        return exactlyKind ? { event } : malformed;
      case 'aborted':
        if (has(reason, 'reason')) return { event };
        return exactlyKind ? this.withReason(event, { kind: 'aborted', reason: { kind: 'legacy' } }) : malformed;
      case 'disposed':
        return exactlyKind ? this.withReason(event, { kind: 'aborted', reason: { kind: 'disposed' } }) : malformed;
      case 'error': {
        if (has(reason, 'error')) return { event };
        if (!Number.isSafeInteger(reason.step) || (reason.step as number) < 0) return malformed;
        const f = reason.failure;
        if (isObject(f) && typeof f.message === 'string' && typeof f.code === 'string') return this.withReason(event, { kind: 'error', error: f });
        if (typeof reason.message === 'string' && (reason.code === undefined || typeof reason.code === 'string')) {
          return this.withReason(event, { kind: 'error', error: { message: reason.message, code: reason.code ?? 'UNKNOWN' } });
        }
        return malformed;
      }
      default:
        return { event }; // plugin-defined kinds pass unchanged
    }
  }

  /** The turn/end with its reason upgraded. A method: as a closure made per turn/end (tsx names each one it makes) it cost the real-shaped 1M load 37 ms. */
  private withReason(event: LogEvent, next: Data): Upgrade {
    const d = event.data as Data;
    return this.changed(event, { ...event, data: { ...d, reason: next } }, `turn/end reason "${(d.reason as Data).kind}" upgraded`);
  }

  private changed(original: LogEvent, event: LogEvent, note: string): Upgrade {
    return { event, legacy: original as unknown as JsonObject, note };
  }
}

/** The message a surface event carries: user/message data is the message itself. */
function messageOf(event: LogEvent): Data | null {
  if (!isObject(event.data)) return null;
  if (event.type === 'user/message') return event.data;
  return isObject(event.data.message) ? event.data.message : null;
}
