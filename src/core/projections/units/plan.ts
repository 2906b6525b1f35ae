import { z } from 'zod';
import type { ProjectionUnit } from '../types.ts';

export interface PlanState {
  active: boolean;
  /** A successful `/plan` selection not yet applied by `plan/mode`. */
  wanted: boolean | null;
  /** The `/plan` command in flight, with the mode it asks for. */
  running: { commandId: string; wanted: boolean } | null;
}
export interface PlanView {
  active: boolean;
  pending: boolean;
}

const planStateSchema = z.object({
  active: z.boolean(),
  wanted: z.boolean().nullable(),
  running: z.object({ commandId: z.string(), wanted: z.boolean() }).nullable(),
});

/**
 * `plan` (dsh-log-rules J4.4, v2): `command/run` name `plan` with args arms
 * `running`; its `command/done` keeps a successful selection that differs
 * from the current mode; `plan/mode` applies it. The view is a new object
 * per call (so the seed publishes on every state change, J2.4).
 */
export const planUnit: ProjectionUnit<PlanState, PlanView> = {
  key: 'plan',
  stateVersion: 2,
  stateSchema: planStateSchema,
  viewSchema: z.object({ active: z.boolean(), pending: z.boolean() }),
  reads: ['command/run', 'command/done', 'plan/mode'],
  init: () => ({ active: false, wanted: null, running: null }),
  apply: (state, event) => {
    const data = event.data;
    if (event.type === 'command/run' && data?.name === 'plan') {
      if (data.args === undefined) return state;
      return { ...state, running: { commandId: data.commandId, wanted: String(data.args).trim() !== 'off' } };
    }
    if (event.type === 'command/done' && state.running !== null && data?.commandId === state.running.commandId) {
      const wanted = data.kind === 'success' && state.running.wanted !== state.active ? state.running.wanted : null;
      return { ...state, wanted, running: null };
    }
    if (event.type === 'plan/mode') return { ...state, active: data?.active, wanted: null };
    return state;
  },
  view: (state) => {
    const wanted = state.running?.wanted ?? state.wanted;
    return { active: state.active, pending: wanted !== null && wanted !== state.active };
  },
};
