import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { expectedPairs, rowPairs } from '../helpers/tool-pair-oracle.ts';

describe('tool calls paired by the load walk (issue #19, paired during the load for #15)', () => {
  it.each([['v0', 3], ['v0', 8], ['v4', 12]] as const)('the events list pairs every call of a generated %s log as the log says', async (dialect, seed) => {
    const text = generateLog({ dialect, seed, turns: 4 }).text;
    const events = readLogText(text).events;
    const got = await rowPairs(text);
    const expected = expectedPairs(events);
    expect(expected.size).toBeGreaterThan(0);
    expect(got.pairs).toEqual(expected);
  });

  it('a call cut off by the end of the log stays pending: the result the restore adds is not the log\'s', async () => {
    const lines = generateLog({ dialect: 'v4', seed: 5, turns: 3 }).text.trimEnd().split('\n');
    const lastCall = lines.findLastIndex((l) => l.includes('"type":"tool/call"'));
    expect(lastCall).toBeGreaterThan(0);
    const text = lines.slice(0, lastCall + 1).join('\n') + '\n';
    const events = readLogText(text).events;
    const got = await rowPairs(text);
    // The restore answers the open call with a synthetic result; the pair still reads pending.
    expect(got.synthetic).toBeGreaterThan(0);
    expect(got.pairs.get(events.length - 1)).toMatchObject({ other: -1, status: 'pending' });
    expect(got.pairs).toEqual(expectedPairs(events));
  });
});
