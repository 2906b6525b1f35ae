import type { VerdictKind } from '../diagnostics/verdict.ts';
import type { CompareRun } from './run.ts';

/** One row of the per-run summary: what each run did, in a line. */
export interface RunSummary {
  name: string;
  verdict: VerdictKind;
  calls: number;
  turns: number;
  /** Provider-reported token usage summed over the calls that logged it. */
  tokensIn: number;
  tokensOut: number;
  cacheReads: number;
  /** Compactions that wrote a summary (`compaction/summary`). */
  compactions: number;
  /** How each turn ended (`turn/end` reason kind), or `open` for a turn the log leaves running. */
  turnOutcomes: { turn: number; outcome: string }[];
}

/** Indexes of the events of some types, from the type column (no event is parsed). */
function indexesOfTypes(run: CompareRun, types: readonly string[]): Map<string, number[]> {
  const ids = new Map<number, string>();
  for (const t of types) { const id = run.typeNames.indexOf(t); if (id >= 0) ids.set(id, t); }
  const out = new Map<string, number[]>(types.map((t) => [t, []]));
  if (ids.size === 0) return out;
  const { typeId } = run.columns;
  for (let i = 0; i < run.count; i++) {
    const t = ids.get(typeId[i]);
    if (t !== undefined) out.get(t)!.push(i);
  }
  return out;
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export function summarizeRun(run: CompareRun): RunSummary {
  let tokensIn = 0;
  let tokensOut = 0;
  let cacheReads = 0;
  for (const r of run.requests) {
    tokensIn += num(r.usage?.inputTokens);
    tokensOut += num(r.usage?.outputTokens);
    cacheReads += num(r.usage?.cacheReadTokens);
  }
  const found = indexesOfTypes(run, ['turn/start', 'turn/end', 'compaction/summary']);
  const starts = found.get('turn/start')!;
  const ends = found.get('turn/end')!;
  // Only turn boundaries are parsed (one or two events a turn), in one pass in log order: a log
  // read back from its file is then read once, not once per kind (each pass read it whole).
  const ended = new Map<number, string>();
  const startTurns: number[] = [];
  for (let s = 0, e = 0; s < starts.length || e < ends.length; ) {
    const isStart = e >= ends.length || (s < starts.length && starts[s] < ends[e]);
    const data = run.eventAt(run.seqAt(isStart ? starts[s] : ends[e])!)?.data;
    if (isStart) {
      startTurns.push(typeof data?.turn === 'number' ? data.turn : s + 1);
      s++;
    } else {
      const kind = data?.reason?.kind;
      if (typeof data?.turn === 'number') ended.set(data.turn, typeof kind === 'string' ? kind : 'ended');
      e++;
    }
  }
  const turnOutcomes = startTurns.map((turn) => ({ turn, outcome: ended.get(turn) ?? 'open' }));
  return {
    name: run.name, verdict: run.verdict.kind, calls: run.requests.length, turns: starts.length,
    tokensIn, tokensOut, cacheReads, compactions: found.get('compaction/summary')!.length, turnOutcomes,
  };
}
