import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { Engine } from '../../src/worker/engine.ts';

/**
 * The seq column takes 4 bytes an event (issue #15: what a loaded log keeps),
 * and 8 once a seq no longer fits in 32 bits — the values stay exact.
 */
describe('the seq column', () => {
  const log = generateLog({ dialect: 'v4', seed: 2, turns: 2 });
  const seqsOf = (lines: string[]) => lines.slice(1).map((l) => (JSON.parse(l) as { seq: number }).seq);

  it('is 4 bytes an event for a log of ordinary seqs', async () => {
    const summary = await new Engine().load({ kind: 'text', text: log.text, name: 'a' }, () => {});
    expect(summary.columns.seq).toBeInstanceOf(Uint32Array);
    expect(Array.from(summary.columns.seq.subarray(0, summary.count - summary.syntheticCount))).toEqual(seqsOf(log.lines));
  });

  it('holds seqs past 2^32 - 1 exactly, and finds events by them', async () => {
    const shift = 2 ** 32 - 5;
    const lines = log.lines.map((l, i) => (i === 0 ? l : JSON.stringify({ ...JSON.parse(l), seq: (JSON.parse(l) as { seq: number }).seq + shift })));
    const engine = new Engine();
    const summary = await engine.load({ kind: 'text', text: lines.join('\n') + '\n', name: 'b' }, () => {});
    expect(summary.columns.seq).toBeInstanceOf(Float64Array);
    expect(Array.from(summary.columns.seq.subarray(0, summary.count - summary.syntheticCount))).toEqual(seqsOf(lines));
    const i = 10;
    expect(engine.event(i).event.seq).toBe(shift + i);
  });
});
