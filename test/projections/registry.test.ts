import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { LogEvent } from '../../src/core/log/types.ts';
import { foldProjections, ProjectionRegistry, unitsFor, type ProjectionUnit } from '../../src/core/projections/index.ts';
import { planUnit } from '../../src/core/projections/units/plan.ts';
import { titleUnit } from '../../src/core/projections/units/title.ts';
import { MAX_WALK_BACK } from '../../src/core/projections/view-verdicts.ts';
import { evs, hdr } from './fixtures.ts';

const counter = (key: string, on: string, extra: Partial<ProjectionUnit<{ n: number }, number>> = {}): ProjectionUnit<{ n: number }, number> => ({
  key, stateVersion: 1, stateSchema: z.object({ n: z.number() }), viewSchema: z.number(), reads: [on],
  init: () => ({ n: 0 }),
  apply: (s, e) => (e.type === on ? { n: s.n + 1 } : s),
  view: (s) => s.n,
  ...extra,
});
const log = evs(['a', {}], ['b', {}], ['a', {}], ['c', {}]);

describe('cells and watermarks (spec §2.1, §2.4)', () => {
  it('observedSeq advances on every event; the state reference only on owned ones', () => {
    const r = new ProjectionRegistry(hdr(), [counter('k', 'a')]);
    expect(r.cell('k')!.observedSeq).toBe(-1);
    const refs: unknown[] = [];
    for (const e of log) {
      r.apply(e);
      refs.push(r.cell('k')!.state);
      expect(r.cell('k')!.observedSeq).toBe(e.seq);
    }
    expect(refs[1]).toBe(refs[0]);
    expect(refs[2]).not.toBe(refs[1]);
    expect(r.snapshot()).toEqual({ asOfSeq: 3, values: { k: 2 } });
    expect(new ProjectionRegistry(hdr(), [counter('k', 'a')]).snapshot().asOfSeq).toBe(-1);
  });

  it('states are frozen', () => {
    const r = foldProjections(hdr(), log, { units: [counter('k', 'a')] });
    expect(Object.isFrozen(r.cell('k')!.state)).toBe(true);
  });
});

describe('change feed (spec §2.4 step 4, §2.6)', () => {
  it('emits (key, view, seq) per change; the seed gates on view identity, rc.8 does not', () => {
    // A view that returns the same reference for equal content.
    const cached = { v: 'same' };
    const unit = counter('k', 'a', { view: () => cached as any, viewSchema: z.any() });
    const seed = new ProjectionRegistry(hdr(), [unit], { generation: 'seed' });
    const frames: unknown[] = [];
    seed.onChanged((f) => frames.push(f));
    seed.applyAll(log);
    expect(frames).toEqual([{ key: 'k', value: cached, seq: 0 }]);
    const rc8 = new ProjectionRegistry(hdr(), [unit], { generation: 'rc8' });
    rc8.applyAll(log);
    // apply() also returns its frames.
    expect(rc8.apply({ type: 'a', seq: 4, time: 0, data: {} })).toEqual([{ key: 'k', value: cached, seq: 4 }]);
  });

  it('plan publishes a deep-equal view again (new object per view call)', () => {
    const r = new ProjectionRegistry(hdr(), [planUnit]);
    const frames = evs(
      ['command/run', { commandId: 'c', name: 'plan', args: '' }],
      ['plan/mode', { active: true }],
      ['command/done', { commandId: 'c', kind: 'success' }],
    ).flatMap((e) => r.apply(e));
    expect(frames.map((f) => f.seq)).toEqual([0, 1, 2]);
    expect(frames[2].value).toEqual(frames[1].value);
  });

  it('the disposer stops delivery', () => {
    const r = new ProjectionRegistry(hdr(), [counter('k', 'a')]);
    const seen: number[] = [];
    const off = r.onChanged((f) => seen.push(f.seq));
    r.apply(log[0]);
    off();
    r.apply(log[1]);
    r.apply(log[2]);
    expect(seen).toEqual([0]);
  });
});

describe('lazy build (spec §2.3.2)', () => {
  it('a unit registered after events flowed folds the history silently, then drives normally', () => {
    const r = new ProjectionRegistry(hdr(), [counter('early', 'a')]);
    r.apply(log[0]);
    r.apply(log[1]);
    r.register(counter('late', 'a'));
    const frames = r.apply(log[2]);
    expect(r.cell('late')).toMatchObject({ observedSeq: 2, state: { n: 2 } });
    expect(frames.map((f) => f.key)).toEqual(['early', 'late']);
    r.register(counter('later', 'c'));
    expect(r.snapshot().values).toEqual({ early: 2, late: 2, later: 0 });
    expect(r.cell('later')!.observedSeq).toBe(2);
  });
});

describe('registration (spec §2.2)', () => {
  it('validates stateVersion and refuses to share a key across versions', () => {
    const r = new ProjectionRegistry(hdr());
    expect(() => r.register(counter('k', 'a', { stateVersion: -1 }))).toThrow('session projection "k" stateVersion must be a non-negative integer, got -1');
    r.register(counter('k', 'a'));
    expect(() => r.register(counter('k', 'a', { stateVersion: 2 }))).toThrow('session projection key "k" is already registered at stateVersion 1; refusing to share it with stateVersion 2');
  });
  it('counts registrants of the same key; the last disposer removes it', () => {
    const r = new ProjectionRegistry(hdr());
    const first = counter('k', 'a');
    const off1 = r.register(first);
    const off2 = r.register(counter('k', 'b'));
    r.apply(log[0]);
    expect(r.snapshot().values).toEqual({ k: 1 }); // the first definition stays in use
    off1();
    off1();
    expect(r.snapshot().values).toHaveProperty('k');
    off2();
    expect(r.snapshot().values).toEqual({});
    expect(r.cell('k')).toBeUndefined();
  });
});

describe('failure isolation (spec §2.7, §5.2)', () => {
  it('a throwing unit records the seq and stops; the others keep folding', () => {
    const boom = counter('boom', 'b', { apply: (s, e) => { if (e.type === 'b') throw new Error('bad b'); return s; } });
    const r = new ProjectionRegistry(hdr(), [boom, counter('k', 'a')]);
    r.applyAll(log);
    expect(r.cell('boom')).toMatchObject({ observedSeq: 0, failure: { seq: 1, message: 'bad b', kind: 'threw' } });
    expect(r.cell('k')!.observedSeq).toBe(3);
    expect(r.snapshot()).toEqual({ asOfSeq: 3, values: { boom: 0, k: 2 }, failures: { boom: { seq: 1, message: 'bad b', kind: 'threw' } } });
  });

  it("a throwing unit keeps the watermark of the event before, also where it is called only for the types it reads (the load's registry)", () => {
    const boom = counter('boom', 'b', { apply: (s, e) => { if (e.type === 'b') throw new Error('bad b'); return s; } });
    const later = evs(['a', {}], ['a', {}], ['c', {}], ['b', {}], ['a', {}]);
    for (const purity of [true, false]) {
      const r = new ProjectionRegistry(hdr(), [boom, counter('k', 'a')], { purity });
      r.applyAll(later);
      expect(r.cell('boom'), `purity ${purity}`).toMatchObject({ observedSeq: 2, failure: { seq: 3, kind: 'threw' } });
      expect(r.cell('k')!.observedSeq).toBe(4);
    }
  });

  it('a unit that mutates its frozen state in place fails instead of corrupting history', () => {
    const mutator = counter('m', 'a', { apply: (s, e) => { if (e.type === 'a' && s.n > 0) (s as any).n += 1; return e.type === 'a' && s.n === 0 ? { n: 1 } : s; } });
    const r = new ProjectionRegistry(hdr(), [mutator]);
    r.applyAll(log);
    expect(r.cell('m')!.failure).toMatchObject({ seq: 2, kind: 'threw' });
    expect(r.cell('m')!.state).toEqual({ n: 1 });
  });

  it('a view that fails its schema is reported at read time', () => {
    const r = new ProjectionRegistry(hdr(), [titleUnit]);
    r.apply(evs(['session/title', { title: '' }])[0]);
    expect(r.snapshot().failures?.title).toMatchObject({ seq: 0, kind: 'schema' });
  });
});

describe('a view failing its schema, dated where it began (spec §5.2)', () => {
  // The count's view passes below `limit`: a run of failing changes begins at the `limit`-th `a`.
  const limited = (limit: number) => counter('k', 'a', { viewSchema: z.number().max(limit - 1) });
  const many = (n: number) => evs(...Array.from({ length: n }, (_, i) => [i % 3 === 2 ? 'b' : 'a', {}] as [string, unknown]));

  for (const eventAt of [false, true]) {
    it(`at the change where the run of failing views began, kept states ${eventAt ? 'one per block (folded again)' : 'all'}`, () => {
      const events = many(300);
      const r = new ProjectionRegistry(hdr(), [limited(100)], { history: true, ...(eventAt ? { eventAt: (seq: number) => events[seq] } : {}) });
      r.applyAll(events);
      const changes = r.changeSeqs('k');
      const began = changes[99];
      expect(r.schemaFailureAt('k', began - 1)).toBeNull();
      for (const seq of [began, began + 1, changes[150], 299]) expect(r.schemaFailureAt('k', seq)).toMatchObject({ seq: began, kind: 'schema' });
      expect(r.snapshot().failures?.k).toMatchObject({ seq: began, kind: 'schema' });
      expect(r.schemaFailureAt('k', began)!.message).toMatch(/view of "k" fails its schema/);
    });
  }

  it('a run that passes again ends the failure; a later run is dated at its own start', () => {
    // Counts after each event: 1 2 2 3 3 4 5 6. The view fails at 2 and 3, passes at 4, fails again from 5.
    const events = evs(['a', {}], ['a', {}], ['b', {}], ['a', {}], ['b', {}], ['a', {}], ['a', {}], ['a', {}]);
    const gappy = counter('k', 'a', { viewSchema: z.number().refine((n) => n < 2 || n === 4) });
    for (const order of ['forward', 'backward'] as const) {
      const r = new ProjectionRegistry(hdr(), [gappy], { history: true });
      r.applyAll(events);
      const expected: [number, number | null][] = [[0, null], [1, 1], [2, 1], [3, 1], [4, 1], [5, null], [6, 6], [7, 6]];
      for (const [seq, since] of order === 'forward' ? expected : expected.slice().reverse()) {
        const failure = r.schemaFailureAt('k', seq);
        expect(failure === null ? null : failure.seq, `${order} at seq ${seq}`).toBe(since);
      }
      expect(r.snapshot().failures?.k).toMatchObject({ seq: 6, kind: 'schema' });
    }
  });

  it('walks back at most MAX_WALK_BACK changes, and says so', () => {
    const events = many(MAX_WALK_BACK * 2);
    const r = new ProjectionRegistry(hdr(), [limited(1)], { history: true, eventAt: (seq) => events[seq] });
    r.applyAll(events);
    const changes = r.changeSeqs('k');
    const failure = r.schemaFailureAt('k', events.length - 1)!;
    expect(failure.seq).toBe(changes[changes.length - 1 - MAX_WALK_BACK]);
    expect(failure.message).toMatch(new RegExp(`each of the ${MAX_WALK_BACK} changes before; earlier ones were not checked`));
    // Nearer the start the whole run is walked: it began at the first change.
    expect(r.schemaFailureAt('k', changes[10])).toMatchObject({ seq: changes[0] });
  });

  it('without history, at the read (the watermark)', () => {
    const r = new ProjectionRegistry(hdr(), [limited(1)]);
    r.applyAll(log);
    expect(r.snapshot().failures?.k).toMatchObject({ seq: 3, kind: 'schema' });
    expect(r.schemaFailureAt('k', 3)).toBeNull();
  });
});

describe('purity audit (spec §1.2 rule 2, §5.3.5)', () => {
  it('reports a new-but-equal state, flagging events the unit does not read', () => {
    const sloppy = counter('s', 'a', { apply: (s, e) => (e.type === 'a' ? { n: s.n + 1 } : { ...s }) });
    const r = foldProjections(hdr(), log, { units: [sloppy] });
    expect(r.purityFindings.map((f) => [f.seq, f.ignoredEvent])).toEqual([[1, true], [3, true]]);
    expect(foldProjections(hdr(), log, { units: [sloppy], purity: false }).purityFindings).toEqual([]);
  });
});

describe('time travel (spec §5.4)', () => {
  it('snapshotAt(N) equals a fresh fold up to N', () => {
    const events: LogEvent[] = evs(
      ['turn/start', { turn: 1 }],
      ['todo/write', { todos: [{ content: 'x', status: 'pending' }] }],
      ['session/title', { title: 'T' }],
      ['turn/end', { turn: 1 }],
      ['turn/start', { turn: 2 }],
    );
    const r = foldProjections(hdr(), events, { history: true });
    for (const e of events) {
      expect(r.snapshotAt(e.seq)).toEqual(foldProjections(hdr(), events, { upTo: e.seq }).snapshot());
    }
    expect(unitsFor('v0').map((u) => u.key)).toContain('turnBoundary');
  });
});
