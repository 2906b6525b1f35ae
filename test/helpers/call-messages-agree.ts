import { expect } from 'vitest';
import type { LoadedRun } from '../../src/core/compare/run.ts';
import { surfaceBeforeOf } from '../../src/core/requests/analyze.ts';
import { callMessagesAt, callMessagesInOrder } from '../../src/core/requests/call-messages.ts';

/**
 * Every call's messages read from the forward walk equal those from a seek to
 * the call's surface: the count, the whole list, the tail after the kept
 * prefix and the derived messages. Returns how many calls it checked.
 */
export function expectWalkAgreesWithSeek(loaded: LoadedRun): number {
  const { replay, prompts, run } = loaded;
  const inOrder = callMessagesInOrder(replay, prompts.surfaceTotals);
  for (const r of run.requests) {
    const walked = inOrder(r.cut);
    const sought = callMessagesAt(surfaceBeforeOf(replay), replay.session.eventAt, prompts.surfaceTotals.silent, r.cut);
    const kept = r.prefix.keptMessages;
    expect(walked.count, `call at ${r.cut}`).toBe(sought.count);
    expect(walked.seqsFrom(0)).toEqual(sought.seqsFrom(0));
    expect(walked.seqsFrom(kept)).toEqual(sought.seqsFrom(kept));
    expect(walked.seqsFrom(kept).map(walked.message)).toEqual(sought.seqsFrom(kept).map(sought.message));
  }
  return run.requests.length;
}
