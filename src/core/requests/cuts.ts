// Section ids (P…) are those of docs/dsh-log-rules.md.
import { stepKey } from '../util/step-key.ts';
import type { LogEvent, SessionHeader } from '../log/types.ts';

/**
 * Where the model calls are in a log (P7.3, P8.1–P8.2).
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

/** The cut mode once it is known whether the log has chunk events. */
export function cutModeFor(header: SessionHeader | null, hasChunks: boolean): CutMode {
  if (hasChunks) return 'chunk';
  return (header?.version ?? 0) >= 2 ? 'settlement' : 'chunk';
}

const key = stepKey;

/** Incremental cut detector: feed every event in order; returns the cut it starts, if any. */
export class CutDetector {
  private readonly attempts = new Map<string, number>();
  private readonly rerequest = new Set<string>();
  private readonly started = new Set<string>();
  /** Settlement mode: step/start events no settlement has followed yet, by (turn, step). */
  private readonly awaiting = new Map<string, { seq: number; turn: unknown; step: unknown }[]>();
  /** Chunk mode: the (turn, step) of the last chunk when it left no retry pending — its next chunk cuts nothing. */
  private streamingKey: string | null = null;

  constructor(readonly mode: CutMode) {}

  /**
   * Settlement mode: every step/start that no later settlement of the same
   * (turn, step) answers (P8.1 item 2) — an interrupted model call whose
   * request cannot be rebuilt. Read it after the last event.
   */
  unsettled(): { seq: number; turn: unknown; step: unknown }[] {
    return [...this.awaiting.values()].flat().sort((a, b) => a.seq - b.seq);
  }

  next(event: LogEvent): RequestCut | null {
    const d = event.data;
    if (event.type === 'step/start') {
      // Only a settlement asks whether its step started: chunk mode needs no record of it.
      if (this.mode === 'settlement') {
        const k = key(d?.turn, d?.step);
        this.started.add(k);
        const list = this.awaiting.get(k) ?? [];
        list.push({ seq: event.seq, turn: d?.turn, step: d?.step });
        this.awaiting.set(k, list);
      }
      return null;
    }
    if (this.mode === 'chunk') {
      if (event.type !== 'assistant/chunk') return null;
      const k = key(d?.turn, d?.step);
      let cut: RequestCut | null = null;
      // Deltas of one attempt come by the thousand: the same step as the last chunk, with no failed finish since, continues it.
      if (k !== this.streamingKey && (!this.attempts.has(k) || this.rerequest.has(k))) {
        const attempt = (this.attempts.get(k) ?? 0) + 1;
        this.attempts.set(k, attempt);
        this.rerequest.delete(k);
        cut = { seq: event.seq, turn: d?.turn, step: d?.step, attempt, kind: 'chunk' };
      }
      const chunk = d?.chunk;
      const failed = chunk?.type === 'finish' && (chunk.reason?.kind === 'error' || chunk.reason?.kind === 'aborted');
      if (failed) this.rerequest.add(k);
      this.streamingKey = failed ? null : k;
      return cut;
    }
    if (event.type !== 'assistant/attempt' && event.type !== 'assistant/message') return null;
    const k = key(d?.turn, d?.step);
    this.awaiting.delete(k);
    if (!this.started.has(k)) return null;
    const attempt = (this.attempts.get(k) ?? 0) + 1;
    this.attempts.set(k, attempt);
    return { seq: event.seq, turn: d.turn, step: d.step, attempt, kind: event.type };
  }
}
