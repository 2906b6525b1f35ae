import type { LogEvent, SessionHeader } from '../log/types.ts';

/**
 * Where the model calls are in a log (prompt-and-requests.md §7.3, §8.1–8.2).
 * rc.8: the first `assistant/chunk` of each attempt run — the first chunk of
 * a (turn, step), and again after an error/aborted finish. V2+: every
 * settlement (`assistant/attempt`, `assistant/message`) whose step started.
 */
export type CutMode = 'chunk' | 'settlement';

export interface RequestCut {
  seq: number;
  turn: number;
  step: number;
  /** 1-based attempt within the (turn, step). */
  attempt: number;
  kind: 'chunk' | 'assistant/attempt' | 'assistant/message';
}

/** Streams are chunk events in rc.8 (format 0/1); embedded in settlements from format 2 (§3.1). */
export function cutModeOf(header: SessionHeader | null, events: readonly LogEvent[]): CutMode {
  if (events.some((e) => e.type === 'assistant/chunk')) return 'chunk';
  return (header?.version ?? 0) >= 2 ? 'settlement' : 'chunk';
}

const key = (turn: unknown, step: unknown) => `${String(turn)}:${String(step)}`;

/** Incremental cut detector: feed every event in order; returns the cut it starts, if any. */
export class CutDetector {
  private readonly attempts = new Map<string, number>();
  private readonly rerequest = new Set<string>();
  private readonly started = new Set<string>();

  constructor(readonly mode: CutMode) {}

  next(event: LogEvent): RequestCut | null {
    const d = event.data;
    if (event.type === 'step/start') {
      this.started.add(key(d?.turn, d?.step));
      return null;
    }
    if (this.mode === 'chunk') {
      if (event.type !== 'assistant/chunk') return null;
      const k = key(d?.turn, d?.step);
      let cut: RequestCut | null = null;
      if (!this.attempts.has(k) || this.rerequest.has(k)) {
        const attempt = (this.attempts.get(k) ?? 0) + 1;
        this.attempts.set(k, attempt);
        this.rerequest.delete(k);
        cut = { seq: event.seq, turn: d.turn, step: d.step, attempt, kind: 'chunk' };
      }
      const chunk = d?.chunk;
      if (chunk?.type === 'finish' && (chunk.reason?.kind === 'error' || chunk.reason?.kind === 'aborted')) this.rerequest.add(k);
      return cut;
    }
    if (event.type !== 'assistant/attempt' && event.type !== 'assistant/message') return null;
    const k = key(d?.turn, d?.step);
    if (!this.started.has(k)) return null;
    const attempt = (this.attempts.get(k) ?? 0) + 1;
    this.attempts.set(k, attempt);
    return { seq: event.seq, turn: d.turn, step: d.step, attempt, kind: event.type };
  }
}
