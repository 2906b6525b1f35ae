import { describe, expect, it } from 'vitest';
import { loadRun } from '../../src/core/compare/run.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { surfaceBeforeOf } from '../../src/core/requests/analyze.ts';
import { callMessagesAt, callMessagesInOrder } from '../../src/core/requests/call-messages.ts';
import { expectWalkAgreesWithSeek } from '../helpers/call-messages-agree.ts';

/** core/requests/call-messages.ts: the forward walk an export reads each call's input from. */
describe('call messages in cut order', () => {
  it.each([
    ['format-0, compacting', { dialect: 'v0' as const, seed: 3, turns: 8, compactEvery: 2 }],
    ['format-4, never compacted', { dialect: 'v4' as const, seed: 5, turns: 10, compactEvery: 0 }],
    ['format-4, compacting', { dialect: 'v4' as const, seed: 9, turns: 12, compactEvery: 3 }],
  ])('%s: the walk gives what a seek to each call gives', (_name, opts) => {
    const loaded = loadRun(readLogText(generateLog(opts).text), 'g.jsonl');
    expect(expectWalkAgreesWithSeek(loaded)).toBeGreaterThan(5);
  });

  it('a step back to an earlier call starts over from a seek and still agrees', () => {
    const loaded = loadRun(readLogText(generateLog({ dialect: 'v4', seed: 2, turns: 6, compactEvery: 2 }).text), 'g.jsonl');
    const { replay, prompts, run } = loaded;
    const inOrder = callMessagesInOrder(replay, prompts.surfaceTotals);
    const late = run.requests[run.requests.length - 1];
    const early = run.requests[2];
    expect(inOrder(late.cut).count).toBeGreaterThan(inOrder(early.cut).count);
    const sought = callMessagesAt(surfaceBeforeOf(replay), replay.session.eventAt, prompts.surfaceTotals.silent, early.cut);
    expect(inOrder(early.cut).seqsFrom(0)).toEqual(sought.seqsFrom(0));
  });
});
