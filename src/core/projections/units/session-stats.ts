import { z } from 'zod';
import type { ProjectionUnit } from '../types.ts';

export interface StatsView {
  turns: number;
  steps: number;
  llmMs: number;
  toolMs: number;
  ttftMs: number;
  ttftSteps: number;
  decodeMs: number;
  decodeTokens: number;
}
export interface StatsState extends StatsView {
  lastTurn: number | null;
  openStep: { turn: number; step: number; startTime: number; firstTokenTime: number | null } | null;
  /** Dispatch time per tool callId awaiting its result. */
  pendingCalls: Record<string, number>;
}

const n = z.number().nonnegative();
const viewShape = {
  turns: z.number().int().nonnegative(), steps: z.number().int().nonnegative(), llmMs: n, toolMs: n,
  ttftMs: n, ttftSteps: z.number().int().nonnegative(), decodeMs: n, decodeTokens: n,
};

const CHUNKS: readonly string[] = ['assistant/chunk'];

/** A chunk with visible model output: the first-token boundary (DSH `isTokenDelta`). */
function isTokenDelta(chunk: any): boolean {
  switch (chunk?.type) {
    case 'text-delta':
    case 'reasoning-delta':
      return chunk.text !== '';
    case 'tool-call-delta':
      return chunk.argumentsDelta !== '' || chunk.name !== undefined;
    default:
      return false;
  }
}

function outputTokens(usage: any): number | null {
  if (typeof usage !== 'object' || usage === null) return null;
  const v = usage.outputTokens;
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
}

/** `assistant/message` closes the open step: model time, TTFT, decode time/tokens. */
function closeStep(state: StatsState, time: number, usage: unknown): StatsState {
  const open = state.openStep!;
  const next = { ...state, llmMs: state.llmMs + Math.max(0, time - open.startTime), openStep: null };
  if (open.firstTokenTime !== null) {
    next.ttftMs += Math.max(0, open.firstTokenTime - open.startTime);
    next.ttftSteps += 1;
    const tokens = outputTokens(usage);
    if (tokens !== null) {
      next.decodeMs += Math.max(0, time - open.firstTokenTime);
      next.decodeTokens += tokens;
    }
  }
  return next;
}

const sameStep = (open: StatsState['openStep'], data: any): boolean =>
  open !== null && open.turn === data?.turn && open.step === data?.step;

/**
 * `sessionStats` (spec §4.8, v1): whole-log counts and wall times from
 * `event.time`. `step/end` counts steps (and a turn when the turn number
 * changes); tool time pairs `tool/call` with the `tool/result` whose
 * `source.callId` is an own key of the pending map.
 */
export const sessionStatsUnit: ProjectionUnit<StatsState, StatsView> = {
  key: 'sessionStats',
  stateVersion: 1,
  stateSchema: z.object({
    ...viewShape,
    lastTurn: z.number().nullable(),
    openStep: z.object({ turn: z.number(), step: z.number(), startTime: z.number(), firstTokenTime: z.number().nullable() }).nullable(),
    pendingCalls: z.record(z.string(), z.number()),
  }),
  viewSchema: z.object(viewShape).strict(),
  reads: ['step/start', 'assistant/message', 'tool/call', 'tool/result', 'step/end', 'turn/end'],
  // Chunks matter only until the open step's first token (the TTFT boundary).
  alsoReads: (state) => (state.openStep !== null && state.openStep.firstTokenTime === null ? CHUNKS : null),
  init: () => ({
    turns: 0, steps: 0, llmMs: 0, toolMs: 0, ttftMs: 0, ttftSteps: 0, decodeMs: 0, decodeTokens: 0,
    lastTurn: null, openStep: null, pendingCalls: {},
  }),
  apply: (state, event) => {
    const data = event.data;
    switch (event.type) {
      case 'step/start':
        return { ...state, openStep: { turn: data.turn, step: data.step, startTime: event.time, firstTokenTime: null } };
      case 'assistant/chunk': {
        const open = state.openStep;
        if (!sameStep(open, data) || open!.firstTokenTime !== null || !isTokenDelta(data.chunk)) return state;
        return { ...state, openStep: { ...open!, firstTokenTime: event.time } };
      }
      case 'assistant/message':
        return sameStep(state.openStep, data) ? closeStep(state, event.time, data.usage) : state;
      case 'tool/call':
        return { ...state, pendingCalls: { ...state.pendingCalls, [data.callId]: event.time } };
      case 'tool/result': {
        const callId = data?.message?.source?.callId;
        if (!Object.hasOwn(state.pendingCalls, callId)) return state;
        const dispatched = state.pendingCalls[callId];
        const { [callId]: _settled, ...pendingCalls } = state.pendingCalls;
        return { ...state, toolMs: state.toolMs + Math.max(0, event.time - dispatched), pendingCalls };
      }
      case 'step/end':
        return {
          ...state,
          turns: state.lastTurn === data.turn ? state.turns : state.turns + 1,
          steps: state.steps + 1,
          lastTurn: data.turn,
          openStep: null,
        };
      case 'turn/end':
        return Object.keys(state.pendingCalls).length === 0 ? state : { ...state, pendingCalls: {} };
      default:
        return state;
    }
  },
  view: (s) => ({
    turns: s.turns, steps: s.steps, llmMs: s.llmMs, toolMs: s.toolMs,
    ttftMs: s.ttftMs, ttftSteps: s.ttftSteps, decodeMs: s.decodeMs, decodeTokens: s.decodeTokens,
  }),
};
