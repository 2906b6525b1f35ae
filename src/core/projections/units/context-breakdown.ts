import { z } from 'zod';
import type { Dialect } from '../../log/types.ts';
import { surfaceEventTypes } from '../../log/event-types.ts';
import type { ProjectionUnit } from '../types.ts';
import { canonicalHeader, estimateSystemTokens, estimateToolsTokens } from '../../messages/estimate.ts';
import { surfaceTokensStep, type ShadowClaim } from './surface-tokens.ts';

export interface BreakdownView {
  systemTokens: number;
  toolsTokens: number;
  messageTokens: number;
}
export interface BreakdownState extends BreakdownView {
  claim?: ShadowClaim;
}

const int = z.number().int().nonnegative();

/**
 * `contextBreakdown` (dsh-log-rules J4.9, v2): system and tool estimates from the
 * newest `request/header`, message estimate from the running surface total.
 * V3+ logs move the system prompt into `system/message` surface events, so
 * there it is counted in messageTokens.
 */
export function contextBreakdownUnit(dialect: Dialect): ProjectionUnit<BreakdownState, BreakdownView> {
  return {
    key: 'contextBreakdown',
    stateVersion: 2,
    stateSchema: z.object({
      systemTokens: z.number(), toolsTokens: z.number(), messageTokens: z.number(),
      claim: z.object({ start: z.number(), end: z.number(), tokens: z.number() }).strict().optional(),
    }).strict(),
    viewSchema: z.object({ systemTokens: int, toolsTokens: int, messageTokens: int }).strict(),
    // As contextPressure: surface events, shadow prices, and the header's system and tools.
    reads: [...surfaceEventTypes(dialect), 'compaction/summary', 'compaction/prune', 'request/header'],
    alsoReads: (state) => (state.claim !== undefined ? 'all' : null),
    init: () => ({ systemTokens: 0, toolsTokens: 0, messageTokens: 0 }),
    apply: (state, event) => {
      const fold = surfaceTokensStep(dialect, state.claim, event);
      let { systemTokens, toolsTokens } = state;
      if (event.type === 'request/header') {
        const header = canonicalHeader(event.data.header);
        systemTokens = estimateSystemTokens(header);
        toolsTokens = estimateToolsTokens(header);
      }
      if (systemTokens === state.systemTokens && toolsTokens === state.toolsTokens
        && fold.deltaTokens === 0 && fold.claim === undefined && state.claim === undefined) return state;
      return {
        systemTokens,
        toolsTokens,
        messageTokens: state.messageTokens + fold.deltaTokens,
        ...(fold.claim === undefined ? {} : { claim: fold.claim }),
      };
    },
    view: ({ systemTokens, toolsTokens, messageTokens }) => ({ systemTokens, toolsTokens, messageTokens }),
  };
}
