import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadBothWays, projectionAnswers } from '../helpers/projector-pair.ts';
import { corpusLogs } from './corpus-dir.ts';

/**
 * The projection helper on every real log (issue #15): the app's load with a
 * helper worker folding the units answers every projection query — each
 * unit's change and equal-write seqs, failure, and its view, state, watermark
 * and diff at sampled cursors — exactly as the load that folds them itself.
 */
const logs = corpusLogs();
let helped = 0;

describe('the projection helper agrees with the load\'s own fold on real logs', () => {
  it.each(logs.map((l) => [l.name, l] as const))('%s', async (_name, log) => {
    const both = await loadBothWays(fs.readFileSync(log.file, 'utf8'), log.name);
    const { count } = both.walk.summary;
    const indexes = [...new Set([0, Math.floor(count / 4), Math.floor(count / 2), Math.floor((3 * count) / 4), count - 1])].filter((i) => i >= 0);
    expect(both.helped.summary.count).toBe(count);
    expect(projectionAnswers(both.helped.engine, both.helped.summary, indexes)).toEqual(projectionAnswers(both.walk.engine, both.walk.summary, indexes));
    if (both.helped.summary.projectedBy === 'helper') helped++;
  });

  // Not a vacuous pass: the helper's history was the one used on (nearly) every log.
  it('used the helper\'s history on the logs that have events', () => expect(helped).toBeGreaterThanOrEqual(logs.length - 5));
});
