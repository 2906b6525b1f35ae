import type { Inspection } from '../inspect.ts';

/** What was in force at a seq, as `dsh-devtools state --at` answers: the surface, every projection, the prompt, the runtime context. */
export interface StateAt {
  asOfSeq: number;
  surface: { count: number; ids: number[]; replaceGeneration: number; contentGeneration: number; messages: number };
  projections: Record<string, { observedSeq: number; value: unknown; failure?: unknown }>;
  systemPrompt: { setBySeq: number | null; setBy: string | null; chars: number | null; text: string | null };
  /** The runtime-context snapshot in force (null: none yet). */
  runtimeContext: { seq: number; sections: { name: string; text: string }[] } | null;
  /** The last model call cut at or before the seq. */
  lastCall: { call: number; seq: number; turnStep: string } | null;
}

export function stateAt(inspection: Inspection): StateAt {
  const at = inspection.asOfSeq;
  const projections: StateAt['projections'] = {};
  for (const [key, p] of Object.entries(inspection.projections)) projections[key] = { observedSeq: p.observedSeq, value: p.value, ...(p.failure ? { failure: p.failure } : {}) };
  const snapshot = inspection.runtimeContext.snapshots.find((s) => s.seq === inspection.runtimeContext.effectiveSeq);
  const prompt = inspection.systemPrompt;
  let last: Inspection['requests'][number] | undefined;
  let lastIndex = -1;
  inspection.requests.forEach((r, i) => { if (r.cut <= at) { last = r; lastIndex = i; } });
  return {
    asOfSeq: at,
    surface: { count: inspection.surface.nodes.length, ids: inspection.surface.nodes, replaceGeneration: inspection.surface.replaceGeneration, contentGeneration: inspection.surface.contentGeneration, messages: inspection.messages.length },
    projections,
    systemPrompt: { setBySeq: prompt.setBySeq, setBy: prompt.setBy, chars: typeof prompt.text === 'string' ? prompt.text.length : null, text: typeof prompt.text === 'string' ? prompt.text : null },
    runtimeContext: snapshot ? { seq: snapshot.seq, sections: snapshot.sections.map((s) => ({ name: s.name, text: s.text })) } : null,
    lastCall: last ? { call: lastIndex + 1, seq: last.cut, turnStep: `${last.turn}.${last.step}` } : null,
  };
}
