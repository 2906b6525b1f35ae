import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { runMember, type PackedRun } from '../../src/core/log/packed-rows.ts';
import type { LogEvent } from '../../src/core/log/types.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { foldProjections } from '../../src/core/projections/fold.ts';
import { unitsFor } from '../../src/core/projections/units/index.ts';
import { kindOf, unitReads } from '../../src/core/projections/reads.ts';

// The load calls a unit only for the event types it `reads` (and for every event while its
// `alsoReads` says so); that is only the same fold if apply really returns the state it got
// for every other event. Checked on every state each unit passes through.
describe('projection units keep their `reads` promise', () => {
  it.each([['v0', false, 31], ['v4', false, 31], ['v4', true, 31], ['v0', false, 7]] as const)('%s (0.2.1 shape: %s, seed %s): an event of a type a unit does not read leaves it unchanged', (dialect, dsh021, seed) => {
    const session = foldSession(readLogText(generateLog({ dialect, dsh021, seed, turns: 6, compactEvery: 2 }).text));
    const registry = foldProjections(session.read.header, session.events, { dialect, history: true });
    const run: PackedRun = { rowType: 'text-chunks', seq0: 10_000_000, times: [1, 2], turn: 1, step: 1, index: 0, pieces: ['a', ''], data: {} };
    const deltas = [runMember(run, 0), runMember(run, 1), { ...runMember({ ...run, rowType: 'tool-call-chunks', data: { id: 'c1', name: 'bash' } }, 0) }];
    // One event of every type in the log, plus chunk deltas: the others a unit may be skipped for.
    const byType = new Map<string, LogEvent>();
    for (const e of session.events) if (!byType.has(e.type)) byType.set(e.type, e);
    // …and one chunk of each kind the log has (a unit may read some chunk kinds only).
    const byKind = new Map<string, LogEvent>();
    for (const e of session.events) if (!byKind.has(kindOf(e))) byKind.set(kindOf(e), e);
    const samples = [...byType.values(), ...byKind.values(), ...deltas];
    let checked = 0;
    let eager = 0;
    for (const unit of unitsFor(dialect)) {
      if (!unit.reads) continue;
      const states = [unit.init(session.read.header, 0), ...registry.changeSeqs(unit.key).map((seq) => registry.stateAt(unit.key, seq))];
      for (const state of states) {
        if (unit.alsoReads?.(state as never)) eager++;
        for (const event of samples) {
          if (unitReads(unit, state, kindOf(event))) continue;
          expect(Object.is(unit.apply(state as never, event), state), `${unit.key} on ${event.type}`).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
    // Compactions arm the token meters' shadow price, steps wait for a first token: the alsoReads path is exercised too.
    expect(eager).toBeGreaterThan(0);
  });
});
