import { z } from 'zod';
import type { Generation, ProjectionUnit } from '../types.ts';

type Pending = { id: string; [key: string]: unknown }[];
export interface InboxView {
  'next-turn': Pending;
  'next-step': Pending;
}
/** The view plus, for rc.8, the fork boundary below which splices are skipped. */
export interface InboxState extends InboxView {
  skipBelow?: number;
}

const TARGETS = ['next-turn', 'next-step'] as const;
const messages = z.array(z.object({ id: z.string() }).passthrough());
const viewSchema = z.object({ 'next-turn': messages, 'next-step': messages }).strict();

/** Thrown on a splice DSH would refuse; the registry isolates it (dsh-log-rules J2.7). */
function invalid(seq: number, cause: string): Error {
  return new Error(`invalid persisted inbox splice at session seq ${seq}: ${cause}`);
}

/** One validated splice on a copy; the untouched list keeps its reference. */
function splice(state: InboxState, seq: number, data: any): InboxState {
  const target = data?.target as (typeof TARGETS)[number];
  if (!TARGETS.includes(target)) throw invalid(seq, 'invalid inbox splice');
  const list = state[target];
  const start = data.start;
  const removed = data.removedCount ?? 0;
  const ok = Number.isSafeInteger(start) && start >= 0 && start <= list.length
    && Number.isSafeInteger(removed) && removed >= 0 && start + removed <= list.length;
  if (!ok || !Array.isArray(data.inserted)) throw invalid(seq, 'invalid inbox splice');
  const next = list.toSpliced(start, removed, ...data.inserted);
  const other = state[target === 'next-turn' ? 'next-step' : 'next-turn'];
  const ids = new Set<string>();
  for (const message of target === 'next-turn' ? [...next, ...other] : [...other, ...next]) {
    if (ids.has(message.id)) throw invalid(seq, `message "${message.id}" is already pending`);
    ids.add(message.id);
  }
  return { ...state, [target]: next };
}

/**
 * `inbox` (dsh-log-rules J4.6): the pending-input queues folded from
 * `agent/inbox/spliced` deltas. rc.8 keeps it as a private fold that skips a
 * fork's inherited prefix (`seedLength`); the seed unit (v1) folds every
 * splice. Any invalid splice throws, as DSH does.
 */
export function inboxUnit(generation: Generation): ProjectionUnit<InboxState, InboxView> {
  return {
    key: 'inbox',
    stateVersion: 1,
    stateSchema: viewSchema.extend({ skipBelow: z.number().int().optional() }),
    viewSchema,
    reads: ['agent/inbox/spliced'],
    init: (_header, inherited) =>
      generation === 'rc8' && inherited > 0
        ? { 'next-turn': [], 'next-step': [], skipBelow: inherited }
        : { 'next-turn': [], 'next-step': [] },
    apply: (state, event) => {
      if (event.type !== 'agent/inbox/spliced') return state;
      if (state.skipBelow !== undefined && event.seq < state.skipBelow) return state;
      return splice(state, event.seq, event.data);
    },
    view: (state) => ({ 'next-turn': state['next-turn'], 'next-step': state['next-step'] }),
    // rc.8 has no inbox unit, only a private fold of the same events (dsh-log-rules J4.1, J4.6): shown
    // here as the host's, so the values read as DSH's snapshot does.
    ...(generation === 'rc8' ? { hostOnly: true } : {}),
  };
}
