import type { LogEvent } from '../../src/core/log/types.ts';
import { Engine } from '../../src/worker/engine.ts';

export type RowPair = { other: number; status: string; name: string };

/** What each logged event's row should say of its pair, worked out here from the events alone. */
export function expectedPairs(events: readonly LogEvent[]): Map<number, RowPair> {
  const callIndex = new Map<number, number>();
  const answer = new Map<number, number>();
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    if (e.type === 'tool/call') callIndex.set(e.seq, i);
    if (e.type !== 'tool/result') continue;
    const seq = (e.sourceEventSeqs ?? []).find((s) => callIndex.has(s) && !answer.has(callIndex.get(s)!));
    if (seq !== undefined) answer.set(callIndex.get(seq)!, i);
  }
  const out = new Map<number, RowPair>();
  for (const call of callIndex.values()) {
    const result = answer.get(call);
    const name = typeof events[call].data?.name === 'string' ? events[call].data.name : '';
    const status = result === undefined ? 'pending' : events[result].data?.message?.isError === true ? 'error' : 'ok';
    out.set(call, { other: result ?? -1, status, name });
    if (result !== undefined) out.set(result, { other: call, status, name });
  }
  return out;
}

/** The pairs the engine's events rows carry, by row index, and how many synthetic events the restore added. */
export async function rowPairs(text: string): Promise<{ pairs: Map<number, RowPair>; synthetic: number }> {
  const engine = new Engine();
  const summary = await engine.load({ kind: 'text', text, name: 'pairs.jsonl' }, () => {});
  const pairs = new Map<number, RowPair>();
  for (let from = 0; from < summary.count; from += 500) {
    for (const row of engine.rows(from, 500)) if (row.pair) pairs.set(row.index, { other: row.pair.other, status: row.pair.status, name: row.pair.name });
  }
  return { pairs, synthetic: summary.syntheticCount };
}
