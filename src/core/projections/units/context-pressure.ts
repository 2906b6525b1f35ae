import { z } from 'zod';
import type { Dialect } from '../../log/types.ts';
import { surfaceEventTypes } from '../../log/event-types.ts';
import type { ProjectionUnit } from '../types.ts';
import { surfaceTokensStep, type ShadowClaim } from './surface-tokens.ts';
import { usageSample } from './token-usage.ts';

export interface PressureState {
  contextWindow?: number;
  pressureTokens?: number;
  /** Running heuristic total of the surface. */
  surfaceTokens: number;
  /** `surfaceTokens` when the newest usage sample landed. */
  sampledSurfaceTokens?: number;
  claim?: ShadowClaim;
}
export interface PressureView {
  pressureTokens?: number;
  projectedTokens?: number;
  contextWindow?: number;
}

const claimSchema = z.object({ start: z.number(), end: z.number(), tokens: z.number() }).strict();
const int = z.number().int().nonnegative();

/** Prompt-side pressure of one request: input plus cache traffic, no output. */
const pressureOf = (usage: any): number => usage.inputTokens + (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0);

function without<T extends object, K extends keyof T>(o: T, key: K): Omit<T, K> {
  const { [key]: _dropped, ...rest } = o;
  return rest;
}

/**
 * A new state with the same members (an absent one stays absent), made field
 * by field: every surface event moves the total, and a spread with fields
 * after it is twenty times slower in Node 20 (see session-stats.ts).
 */
function copyOf(s: PressureState): PressureState {
  const next: PressureState = { surfaceTokens: s.surfaceTokens };
  if (s.contextWindow !== undefined) next.contextWindow = s.contextWindow;
  if (s.pressureTokens !== undefined) next.pressureTokens = s.pressureTokens;
  if (s.sampledSurfaceTokens !== undefined) next.sampledSurfaceTokens = s.sampledSurfaceTokens;
  if (s.claim !== undefined) next.claim = s.claim;
  return next;
}

/**
 * `contextPressure` (dsh-log-rules J4.9, rc.8 v4): newest `request/context`
 * window, pressure of the newest usage sample (stamped before the same event
 * joins the surface), and projected = pressure + surface movement since that
 * sample, floored at 0.
 */
export function contextPressureUnit(dialect: Dialect): ProjectionUnit<PressureState, PressureView> {
  return {
    key: 'contextPressure',
    stateVersion: 4,
    stateSchema: z.object({
      contextWindow: z.number().optional(), pressureTokens: z.number().optional(), surfaceTokens: z.number(),
      sampledSurfaceTokens: z.number().optional(), claim: claimSchema.optional(),
    }).strict(),
    viewSchema: z.object({ pressureTokens: int.optional(), projectedTokens: int.optional(), contextWindow: z.number().int().positive().optional() }).strict(),
    // Surface events move the total, compaction events arm a shadow price, usage samples and the route; an
    // armed claim is disarmed by any next event, so then every event is read.
    reads: [...surfaceEventTypes(dialect), 'compaction/summary', 'compaction/prune', 'request/context', 'assistant/chunk:usage', 'assistant/message'],
    alsoReads: (state) => (state.claim !== undefined ? 'all' : null),
    init: () => ({ surfaceTokens: 0 }),
    apply: (state, event) => {
      const fold = surfaceTokensStep(dialect, state.claim, event);
      // The copy this event writes to, made at its first change (`state` is never written).
      let next: PressureState | null = null;
      if (event.type === 'request/context') {
        const contextWindow = event.data?.contextWindow;
        if (contextWindow !== state.contextWindow) {
          if (contextWindow !== undefined) (next ??= copyOf(state)).contextWindow = contextWindow;
          else next = without(state, 'contextWindow');
        }
      }
      const sample = usageSample(event);
      if (sample) {
        const pressureTokens = pressureOf(sample.usage);
        const at = next ?? state;
        if (pressureTokens !== at.pressureTokens || at.sampledSurfaceTokens !== at.surfaceTokens) {
          next ??= copyOf(state);
          next.pressureTokens = pressureTokens;
          next.sampledSurfaceTokens = next.surfaceTokens;
        }
      }
      if (fold.deltaTokens !== 0) (next ??= copyOf(state)).surfaceTokens += fold.deltaTokens;
      if (state.claim === undefined && fold.claim === undefined) return next ?? state;
      const bare = without(next ?? state, 'claim');
      return fold.claim === undefined ? bare : { ...bare, claim: fold.claim };
    },
    // Keys in DSH's order (J4.9: {pressureTokens?, projectedTokens?, contextWindow?}), as its JSON shows them.
    view: ({ contextWindow, pressureTokens, surfaceTokens, sampledSurfaceTokens }) => ({
      ...(pressureTokens === undefined ? {} : { pressureTokens }),
      ...(pressureTokens === undefined || sampledSurfaceTokens === undefined
        ? {}
        : { projectedTokens: Math.max(0, pressureTokens + surfaceTokens - sampledSurfaceTokens) }),
      ...(contextWindow === undefined ? {} : { contextWindow }),
    }),
  };
}
