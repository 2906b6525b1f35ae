import { describe, expect, it } from 'vitest';
import { foldProjections } from '../../src/core/projections/index.ts';
import { goalLightUnit, goalStrictUnit } from '../../src/core/projections/units/goal.ts';
import { evs, hdr } from './fixtures.ts';

const goal = (revision: number, phase = 'active', extra = {}) => ({ id: 'g1', revision, objective: 'Ship it', phase, maxGoalRounds: 3, ...extra });
const change = (operation: string, g: object, roundsStarted = 0, updatedAt = 10) =>
  ({ kind: 'goal/change', version: 1, operation, goal: g, roundsStarted, createdAt: 10, updatedAt });
const round = (n: number, revision = 1) => ({ id: `r${n}`, role: 'user', content: [{ type: 'text', text: 'go' }], source: { kind: 'goal', goalId: 'g1', revision, round: n } });

// The goal-round-driver shape (spec §4.2): create, two rounds, pause.
const driver = evs(
  ['goal/change', change('create', goal(1))],
  ['user/message', round(1), { surfaceOp: 'append' }],
  ['user/message', round(2), { surfaceOp: 'append' }],
  ['goal/change', change('pause', goal(2, 'paused'), 2, 20)],
);

describe('goal rc.8 (v4, light last-wins)', () => {
  it('ignores rounds, so roundsStarted stays 0 until the next change reports 2', () => {
    const r = foldProjections(hdr(), [], { dialect: 'v0', history: true });
    r.applyAll(driver);
    expect((r.snapshotAt(2).values.goal as any).roundsStarted).toBe(0);
    expect(r.snapshot().values.goal).toEqual({ goal: goal(2, 'paused'), roundsStarted: 2, createdAt: 10, updatedAt: 20 });
    expect(r.cell('goal')!.stateVersion).toBe(4);
  });
  it('ignores a malformed change (same reference) and clears on clear', () => {
    const s = goalLightUnit.apply(null, driver[0]);
    const [bad, clear] = evs(
      ['goal/change', { ...change('edit', goal(2)), extra: 1 }],
      ['goal/change', { kind: 'goal/change', version: 1, operation: 'clear', cleared: { id: 'g1', revision: 2 }, clearedAt: 30 }],
    );
    expect(goalLightUnit.apply(s, bad)).toBe(s);
    expect(goalLightUnit.apply(s, clear)).toBeNull();
  });
});

describe('goal seed (v6, strict)', () => {
  it('advances roundsStarted with each admitted round', () => {
    const r = foldProjections(hdr(), [], { dialect: 'v4', history: true });
    r.applyAll(driver);
    expect([0, 1, 2].map((seq) => (r.snapshotAt(seq).values.goal as any).roundsStarted)).toEqual([0, 1, 2]);
    expect(r.cell('goal')!.state).toMatchObject({ seenGoalIds: ['g1'], failure: null });
  });

  it('records a failure at the offending seq, hides it from the view and ignores later events', () => {
    const events = evs(
      ['goal/change', change('create', goal(1))],
      ['user/message', round(2), { surfaceOp: 'append' }],
      ['goal/change', change('pause', goal(2, 'paused'), 0, 20)],
    );
    const r = foldProjections(hdr(), events, { dialect: 'v4' });
    const state = r.cell('goal')!.state as any;
    expect(state.failure).toBe('goal replay failed at session event 1: goal round at session event 1 is not the next admitted round of the active goal');
    expect(state.current.goal.phase).toBe('active');
    const snap = r.snapshot();
    expect(snap.values.goal).toEqual({ goal: goal(1), roundsStarted: 0, createdAt: 10, updatedAt: 10 });
    expect(snap.failures?.goal).toEqual({ seq: 1, message: state.failure, kind: 'domain' });
    expect(r.cell('goal')!.observedSeq).toBe(2);
  });

  it('rejects a skipped revision and an unsupported version', () => {
    const s = goalStrictUnit.apply(goalStrictUnit.init(null, 0), driver[0]);
    const [skip, v2] = evs(['goal/change', change('pause', goal(3, 'paused'))], ['goal/change', { ...change('edit', goal(2)), version: 2 }]);
    expect(goalStrictUnit.apply(s, skip).failure).toBe('goal replay failed at session event 0: goal pause must advance the current goal by one revision');
    expect(goalStrictUnit.apply(s, v2).failure).toBe('goal replay failed at session event 1: unsupported goal change version 2');
  });

  it('allows create after complete but not a reused id', () => {
    const events = evs(
      ['goal/change', change('create', goal(1))],
      ['goal/change', change('complete', goal(2, 'complete'), 0, 11)],
      ['goal/change', { ...change('create', goal(1)), createdAt: 12, updatedAt: 12 }],
    );
    const s = events.reduce((st, e) => goalStrictUnit.apply(st, e), goalStrictUnit.init(null, 0));
    expect(s.failure).toMatch(/^goal replay failed at session event 2: goal create requires a fresh/);
  });

  it('keeps the same reference for non-goal user messages', () => {
    const s = goalStrictUnit.init(null, 0);
    expect(goalStrictUnit.apply(s, evs(['user/message', { id: 'u', role: 'user', content: [], source: { kind: 'user' } }])[0])).toBe(s);
  });
});
