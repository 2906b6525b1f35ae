import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { runMember, type PackedRun } from '../../src/core/log/packed-rows.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { foldProjections } from '../../src/core/projections/fold.ts';
import { unitsFor } from '../../src/core/projections/units/index.ts';

// The streaming load skips chunk runs for units whose `reads` leave out assistant/chunk;
// that is only the same fold if apply really returns the state it got for those events.
describe('projection units keep their `reads` promise', () => {
  it.each([['v0', false], ['v4', false], ['v4', true]] as const)('%s (0.2.1 shape: %s): a chunk delta changes no unit that does not read assistant/chunk', (dialect, dsh021) => {
    const session = foldSession(readLogText(generateLog({ dialect, dsh021, seed: 31, turns: 6, compactEvery: 2 }).text));
    const registry = foldProjections(session.read.header, session.events, { dialect, history: true });
    const run: PackedRun = { rowType: 'text-chunks', seq0: 10_000_000, times: [1, 2], turn: 1, step: 1, index: 0, pieces: ['a', ''], data: {} };
    const deltas = [runMember(run, 0), runMember(run, 1), { ...runMember({ ...run, rowType: 'tool-call-chunks', data: { id: 'c1', name: 'bash' } }, 0) }];
    let checked = 0;
    for (const unit of unitsFor(dialect)) {
      if (!unit.reads || unit.reads.includes('assistant/chunk')) continue;
      // Every state the unit passed through, plus its initial one.
      const states = [unit.init(session.read.header, 0), ...registry.changeSeqs(unit.key).map((seq) => registry.stateAt(unit.key, seq))];
      for (const state of states) for (const delta of deltas) { expect(Object.is(unit.apply(state as never, delta), state)).toBe(true); checked++; }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
