import { describe, expect, it } from 'vitest';
import { foldProjections } from '../../src/core/projections/index.ts';
import { inboxUnit } from '../../src/core/projections/units/inbox.ts';
import { planUnit } from '../../src/core/projections/units/plan.ts';
import { todosUnit } from '../../src/core/projections/units/todos.ts';
import { turnBoundaryUnit } from '../../src/core/projections/units/turn-boundary.ts';
import { evs, hdr, valueAfter } from './fixtures.ts';

const todo = (content: string, status = 'pending') => ({ content, status });

describe('todos (spec §4.3)', () => {
  it('takes the written list and keeps it after turn/end, until the next turn/start clears it', () => {
    const events = evs(
      ['turn/start', { turn: 1 }],
      ['todo/write', { todos: [todo('a', 'in_progress'), todo('b')] }],
      ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
      ['turn/start', { turn: 2 }],
    );
    const r = foldProjections(hdr(), events.slice(0, 3));
    expect(r.snapshot().values.todos).toEqual([todo('a', 'in_progress'), todo('b')]);
    expect(r.cell('todos')!.state).toBe(events[1].data.todos);
    r.apply(events[3]);
    expect(r.snapshot().values.todos).toBeNull();
  });

  it('keeps the reference for null → null and unrelated events', () => {
    const s = todosUnit.init(null, 0);
    for (const e of evs(['turn/start', { turn: 1 }], ['step/start', { turn: 1, step: 1 }])) expect(todosUnit.apply(s, e)).toBe(s);
  });
});

describe('plan (spec §4.4, the plan-review sequence)', () => {
  const events = evs(
    ['command/run', { commandId: 'c1', name: 'plan', args: '', source: { kind: 'user' } }],
    ['plan/mode', { active: true }],
    ['command/done', { commandId: 'c1', kind: 'success' }],
    ['plan/mode', { active: false }],
  );
  it('pending after /plan, active after plan/mode, equal view after done, off after plan/mode false', () => {
    const r = foldProjections(hdr(), [], { history: true });
    const views = events.map((e) => (r.apply(e), r.snapshot().values.plan));
    expect(views).toEqual([
      { active: false, pending: true },
      { active: true, pending: false },
      { active: true, pending: false },
      { active: false, pending: false },
    ]);
  });
  it('ignores /plan without args and a done for another command', () => {
    const s = planUnit.init(null, 0);
    const [noArgs, other] = evs(['command/run', { commandId: 'c', name: 'plan' }], ['command/done', { commandId: 'x', kind: 'success' }]);
    expect(planUnit.apply(s, noArgs)).toBe(s);
    expect(planUnit.apply(s, other)).toBe(s);
  });
  it('"/plan off" while inactive is not pending; a failed /plan leaves nothing wanted', () => {
    expect(valueAfter('plan', evs(['command/run', { commandId: 'c', name: 'plan', args: ' off ' }], ['command/done', { commandId: 'c', kind: 'success' }])))
      .toEqual({ active: false, pending: false });
    expect(valueAfter('plan', evs(['command/run', { commandId: 'c', name: 'plan', args: 'on' }], ['command/done', { commandId: 'c', kind: 'error' }])))
      .toEqual({ active: false, pending: false });
  });
});

describe('title (spec §4.5)', () => {
  it('is last-wins and may come from a fork’s inherited prefix', () => {
    const events = evs(
      ['session/title', { title: 'first', messageSeqs: [0], source: { kind: 'fallback' } }],
      ['session/end-seed', {}],
      ['session/title', { title: 'second', messageSeqs: [0], source: { kind: 'provider', provider: 'p' } }],
    );
    expect(valueAfter('title', events.slice(0, 2), {}, hdr({ seedLength: 1 }))).toBe('first');
    expect(valueAfter('title', events)).toBe('second');
  });
});

describe('inbox (spec §4.6)', () => {
  const msg = (id: string) => ({ id, role: 'user', content: [{ type: 'text', text: id }], source: { kind: 'user' } });
  const events = evs(
    ['agent/inbox/spliced', { target: 'next-turn', start: 0, inserted: [msg('inherited')] }],
    ['session/end-seed', {}],
    ['agent/inbox/spliced', { target: 'next-step', start: 0, inserted: [msg('own')] }],
  );
  it('rc.8 skips a fork’s inherited splices; the seed unit folds them', () => {
    const h = hdr({ seedLength: 2 });
    expect(valueAfter('inbox', events, { dialect: 'v0' }, h)).toEqual({ 'next-turn': [], 'next-step': [msg('own')] });
    expect(valueAfter('inbox', events, { dialect: 'v4' }, h)).toEqual({ 'next-turn': [msg('inherited')], 'next-step': [msg('own')] });
  });
  it('reuses the untouched list and claims with removedCount', () => {
    const unit = inboxUnit('seed');
    const s1 = unit.apply(unit.init(null, 0), events[0]);
    const s2 = unit.apply(s1, events[2]);
    expect(s2['next-turn']).toBe(s1['next-turn']);
    const [claim] = evs(['agent/inbox/spliced', { target: 'next-turn', start: 0, removedCount: 1, inserted: [] }]);
    expect(unit.apply(s2, claim)['next-turn']).toEqual([]);
  });
  it('throws on a bad range or a duplicate pending id (isolated by the registry)', () => {
    const unit = inboxUnit('seed');
    const s = unit.apply(unit.init(null, 0), events[0]);
    const [bad, dup] = evs(
      ['agent/inbox/spliced', { target: 'next-turn', start: 2, inserted: [] }],
      ['agent/inbox/spliced', { target: 'next-step', start: 0, inserted: [msg('inherited')] }],
    );
    expect(() => unit.apply(s, bad)).toThrow('invalid persisted inbox splice at session seq 0: invalid inbox splice');
    expect(() => unit.apply(s, dup)).toThrow('message "inherited" is already pending');
  });
});

describe('turnBoundary (spec §4.7, host-only)', () => {
  it('tracks the open turn and the last step boundary, and never appears in snapshots', () => {
    const events = evs(
      ['turn/start', { turn: 3 }],
      ['step/start', { turn: 3, step: 1 }],
      ['step/end', { turn: 3, step: 1 }],
      ['turn/end', { turn: 3 }],
    );
    const r = foldProjections(hdr(), events);
    expect(r.cell('turnBoundary')!.state).toEqual({ openTurnStartSeq: null, lastStepStartSeq: 1, lastStepBoundary: { kind: 'end', seq: 2 }, lastTurn: 3 });
    expect(r.snapshot().values).not.toHaveProperty('turnBoundary');
    expect(r.checkpoint()).toHaveProperty('turnBoundary');
    const s = turnBoundaryUnit.init(null, 0);
    expect(turnBoundaryUnit.apply(s, evs(['user/message', {}])[0])).toBe(s);
  });
});
