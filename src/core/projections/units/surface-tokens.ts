import { surfaceEventTypes } from '../../log/event-types.ts';
import type { Dialect, LogEvent } from '../../log/types.ts';
import { eventMessage } from '../../messages/derive.ts';
import { estimateMessage } from '../../messages/estimate.ts';

/**
 * The O(1) running surface-token total shared by contextPressure and
 * contextBreakdown (dsh-log-rules J4.9; DSH surface-projection.ts). Units keep only a
 * total plus at most one armed shadow-price claim, never per-node prices, so
 * a replace is priced by the `compaction/summary|prune` right before it.
 */
export interface ShadowClaim {
  start: number;
  end: number;
  tokens: number;
}
export interface SurfaceTokensStep {
  deltaTokens: number;
  /** The claim carried into the next event; undefined when none survives. */
  claim: ShadowClaim | undefined;
}

/** Replace endpoints: `start/end` in V0–V2, `startSeq/endSeq` in V3+. */
function endpoints(op: any): { start: number; end: number } {
  return 'startSeq' in op ? { start: op.startSeq, end: op.endSeq } : { start: op.start, end: op.end };
}

/** Most events move nothing: one shared answer, no allocation per event. */
const NO_CHANGE: SurfaceTokensStep = Object.freeze({ deltaTokens: 0, claim: undefined });

/**
 * Each surface event's price, once: contextPressure and contextBreakdown fold
 * the same event one after the other, so the last event's price is kept (a
 * weak map of every surface event cost more than pricing it twice).
 */
let pricedEvent: LogEvent | null = null;
let pricedAt = 0;
function priceOf(event: LogEvent): number {
  if (pricedEvent !== event) {
    const message = eventMessage(event);
    pricedAt = message === null ? 0 : estimateMessage(message);
    pricedEvent = event;
  }
  return pricedAt;
}

export function surfaceTokensStep(dialect: Dialect, claim: ShadowClaim | undefined, event: LogEvent): SurfaceTokensStep {
  if (event.type === 'compaction/summary' || event.type === 'compaction/prune') {
    const { shadowedRange, shadowedTokenCount } = event.data;
    return { deltaTokens: 0, claim: { start: shadowedRange.start, end: shadowedRange.end, tokens: shadowedTokenCount } };
  }
  if (!surfaceEventTypes(dialect).has(event.type) || event.surfaceOp === undefined) return NO_CHANGE;
  const price = priceOf(event);
  const op = event.surfaceOp;
  if (op === 'append') return { deltaTokens: price, claim: undefined };
  // A replace logged without a shadow price (older logs) folds neutrally: the total drifts.
  if (claim === undefined) return { deltaTokens: 0, claim: undefined };
  const { start, end } = endpoints(op);
  if (claim.start !== start || claim.end !== end) {
    throw new Error(
      `token surface: replace at seq ${event.seq} over range ${start}-${end} has no adjacent shadow price (armed claim covers ${claim.start}-${claim.end})`,
    );
  }
  return { deltaTokens: price - claim.tokens, claim: undefined };
}
