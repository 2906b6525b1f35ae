import { describe, expect, it } from 'vitest';
import { BasePool } from '../../src/core/fuzz/base.ts';
import { caseSeedOf, planCase } from '../../src/core/fuzz/runner.ts';
import { Engine } from '../../src/worker/engine.ts';
import { channelProjector, projectionAnswers } from '../helpers/projector-pair.ts';

/**
 * The helper's skipped chunk lines against mutated rc.8 logs (issue #15): the
 * fuzzer's mutations (cut, repeated, reordered, corrupted rows and bytes)
 * land on chunk lines the helper does not parse, and whether the load trusts
 * the helper's history or folds the units itself, every projection answer is
 * the one the load's own walk gives.
 */
const CASES = 150;

describe('helper skips under mutation', () => {
  it(`${CASES} mutated rc.8 logs: the helped load answers as the walk`, async () => {
    const pool = new BasePool(6, 'tiny');
    const v0 = pool.names.filter((n) => n.startsWith('gen:v0:'));
    const pair = await channelProjector();
    const by = { helper: 0, store: 0, walk: 0 };
    const failures: string[] = [];
    try {
      for (let i = 0; i < CASES; i++) {
        const caseSeed = caseSeedOf(20261203, i);
        const c = planCase(caseSeed, v0, (n) => pool.get(n), { hugeBytes: [1_000, 20_000], maxDepth: 2_000 });
        const bytes = c.mutation.bytes ?? new TextEncoder().encode(c.mutation.text ?? '');
        const file = new Blob([bytes as Uint8Array<ArrayBuffer>]);
        const options = c.mutation.maxLineChars === undefined ? {} : { maxLineChars: c.mutation.maxLineChars };
        let walk, helped;
        try {
          const w = new Engine();
          walk = { engine: w, summary: await w.load({ kind: 'file', file, name: 'a' }, () => {}, options) };
          const h = new Engine({ projector: pair.projector });
          helped = { engine: h, summary: await h.load({ kind: 'file', file, name: 'a' }, () => {}, options) };
        } catch {
          continue; // not a log at all (both refuse it alike; the core fuzzer covers the rest)
        }
        by[helped.summary.projectedBy ?? 'walk']++;
        const n = walk.summary.count;
        const indexes = [...new Set([0, Math.floor(n / 2), n - 1])].filter((k) => k >= 0);
        const a = JSON.stringify(projectionAnswers(walk.engine, walk.summary, indexes));
        const b = JSON.stringify(projectionAnswers(helped.engine, helped.summary, indexes));
        if (a !== b) failures.push(`case ${caseSeed} (${c.baseName}, ${c.mutation.mutator}: ${c.mutation.detail}) by ${helped.summary.projectedBy}`);
      }
    } finally {
      pair.close();
    }
    expect(failures).toEqual([]);
    // Both ways were taken: the helper's history trusted on most cases, refused on some.
    expect(by.helper).toBeGreaterThan(CASES / 3);
    expect(by.store).toBeGreaterThan(0);
  }, 120_000);
});
