import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { factsOf, startPromptAnalysis, surfaceBeforeOf } from '../../src/core/requests/analyze.ts';
import { Replay, ReplayBuilder } from '../../src/core/replay/replay-index.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { eventLookup, walkSurface } from '../../src/core/surface/walk.ts';

/**
 * Issue #15: on a session that never compacts, every model call sees the
 * whole growing surface, so per-call work that walks it is quadratic. The
 * analysis must touch a bounded number of messages per event instead: this
 * counts the log lookups and the messages serialized during the walk.
 */
function workOf(turns: number) {
  const session = foldSession(readLogText(generateLog({ dialect: 'v0', seed: 5, turns, long: true }).text));
  const run = startPromptAnalysis(session.read, factsOf(session.events));
  const lookup = eventLookup(session.events);
  let lookups = 0;
  const counted = (seq: number) => { lookups++; return lookup(seq); };
  const index = new ReplayBuilder({ capacity: session.events.length });
  const finalState = walkSurface(session.events, session.read.dialect, [index, ...run.visitors], counted);
  const { sized, compared } = run.ledger.work;
  const replay = new Replay(session, index.finish(session.loggedCount));
  const analysis = run.finish(finalState, surfaceBeforeOf(replay), lookup);
  const calls = analysis.requests.requests;
  return {
    events: session.events.length,
    calls: calls.length,
    work: lookups + sized + compared,
    // What re-deriving each call's messages from the surface would touch.
    naive: calls.reduce((n, c) => n + c.messageCount, 0),
  };
}

describe('request analysis work on a long never-compacted session', () => {
  it('grows with the events read, not with calls × surface', () => {
    const small = workOf(6);
    const big = workOf(24);
    const eventGrowth = big.events / small.events;
    expect(big.calls).toBeGreaterThan(3 * small.calls);
    // The log really is quadratic-shaped: the naive cost grows far faster than the events.
    expect(big.naive / small.naive).toBeGreaterThan(2.5 * eventGrowth);
    // Ours stays within a constant per event.
    // (measured: about 0.02 per event, and 1/300 of the naive cost at 24 turns)
    expect(big.work / big.events).toBeLessThan(0.5);
    expect(big.work).toBeLessThan(big.naive / 50);
    expect(big.work / small.work).toBeLessThan(1.3 * eventGrowth);
  });
});
