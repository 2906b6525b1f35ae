import { z } from 'zod';
import type { LogEvent } from '../../log/types.ts';
import type { ProjectionUnit } from '../types.ts';

export interface UsageBuckets {
  uncachedInputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}
export interface TokenUsageState {
  totals: UsageBuckets;
  /** The newest sample: a later sample of the same turn/step replaces it. */
  last: { turn: number; step: number; buckets: UsageBuckets } | null;
}

const int = z.number().int().nonnegative();
const bucketsSchema = z.object({ uncachedInputTokens: int, outputTokens: int, cacheReadTokens: int, cacheWriteTokens: int }).strict();
const BUCKETS = ['uncachedInputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const;

/** The usage a usage chunk or a finished `assistant/message` reports, with its turn/step. */
export function usageSample(event: LogEvent): { turn: number; step: number; usage: any } | undefined {
  const data = event.data;
  if (event.type === 'assistant/chunk' && data?.chunk?.type === 'usage') return { turn: data.turn, step: data.step, usage: data.chunk.usage };
  if (event.type === 'assistant/message' && data?.usage !== undefined) return { turn: data.turn, step: data.step, usage: data.usage };
  return undefined;
}

const bucketsOf = (usage: any): UsageBuckets => ({
  uncachedInputTokens: usage.inputTokens,
  outputTokens: usage.outputTokens,
  cacheReadTokens: usage.cacheReadTokens ?? 0,
  cacheWriteTokens: usage.cacheWriteTokens ?? 0,
});

/**
 * `tokenUsage` (dsh-log-rules J4.9, v1): cumulative provider usage. A usage chunk and
 * the later `assistant/message.usage` of the same turn/step share one `last`
 * slot and replace each other; an identical repeat keeps the reference.
 */
export const tokenUsageUnit: ProjectionUnit<TokenUsageState, UsageBuckets> = {
  key: 'tokenUsage',
  stateVersion: 1,
  stateSchema: z.object({
    totals: bucketsSchema,
    last: z.object({ turn: z.number(), step: z.number(), buckets: bucketsSchema }).nullable(),
  }).strict(),
  viewSchema: bucketsSchema,
  // Usage chunks only: the deltas that make most of an rc.8 log carry none.
  reads: ['assistant/chunk:usage', 'assistant/message'],
  init: () => ({ totals: { uncachedInputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, last: null }),
  apply: (state, event) => {
    const sample = usageSample(event);
    if (!sample) return state;
    const { turn, step } = sample;
    const buckets = bucketsOf(sample.usage);
    const previous = state.last !== null && state.last.turn === turn && state.last.step === step ? state.last.buckets : undefined;
    if (previous && BUCKETS.every((k) => previous[k] === buckets[k])) return state;
    const totals = {} as UsageBuckets;
    for (const k of BUCKETS) totals[k] = state.totals[k] - (previous?.[k] ?? 0) + buckets[k];
    return { totals, last: { turn, step, buckets } };
  },
  view: (state) => state.totals,
};
