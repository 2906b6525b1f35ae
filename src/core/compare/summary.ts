import type { VerdictKind } from '../session/verdict.ts';
import type { CompareRun } from './run.ts';
import type { TurnOutcome } from '../session/turn-outcomes.ts';

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
  turnOutcomes: TurnOutcome[];
}

/** How many events of a type there are, from the type column (no event is parsed). */
function countOfType(run: CompareRun, type: string): number {
  const id = run.typeNames.indexOf(type);
  if (id < 0) return 0;
  const { typeId } = run.columns;
  let n = 0;
  for (let i = 0; i < run.count; i++) if (typeId[i] === id) n++;
  return n;
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
  // The turns' outcomes were noted as the log was walked, compactions are counted from the type column: no event is read here.
  return {
    name: run.name, verdict: run.verdict.kind, calls: run.requests.length, turns: run.turnOutcomes.length,
    tokensIn, tokensOut, cacheReads, compactions: countOfType(run, 'compaction/summary'), turnOutcomes: run.turnOutcomes.slice(),
  };
}
