import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { foldProjections } from '../../src/core/projections/index.ts';
import { subagentCatalogUnit } from '../../src/core/projections/units/subagent-catalog.ts';
import { unitsFor } from '../../src/core/projections/units/index.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { events, header, jsonl, userMessage, type Row } from '../helpers/log-builder.ts';
import { evs } from './fixtures.ts';

/** DSH 0.2.1-alpha.2's subagent units in format 4: the parent's catalog, and timing's last-turn flag. */
const v4 = (extra: Row = {}) => header({ version: 4, isSeeded: false, ...extra });
const fact = (fields: Row) => ({ version: 0, childId: 'child-1', childCreatedAt: 1700, mode: 'continuable', label: 'reviewer', ...fields });
const foldV4 = (rows: Row[], head: Row = v4()) => {
  const session = foldSession(readLogText(jsonl([head, ...rows])));
  return { session, registry: foldProjections(session.read.header, session.events, { dialect: 'v4', history: true }) };
};
type Spec = [string, unknown, Row?];
/** A turn's event specs (`events(...)` numbers them: one call per log). */
const turnSpecs = (n: number, kind: string | null, ...middle: Spec[]): Spec[] => [
  ['turn/start', { turn: n }],
  ['user/message', userMessage(`u${n}`, 'go'), { surfaceOp: 'append' }],
  ...middle,
  ['turn/end', kind === null ? { turn: n } : { turn: n, reason: { kind } }],
];
const turn = (n: number, kind: string | null, ...middle: Spec[]) => events(...turnSpecs(n, kind, ...middle));

describe('subagentCatalog (0.2.1-alpha.2 catalog.ts)', () => {
  it('is registered for format 4, before the child identity and timing; not before', () => {
    const keys = unitsFor('v4').map((u) => u.key);
    expect(keys.indexOf('subagentCatalog')).toBeGreaterThan(-1);
    expect(keys.indexOf('subagentCatalog')).toBeLessThan(keys.indexOf('subagent'));
    expect(unitsFor('v3').map((u) => u.key)).not.toContain('subagentCatalog');
    expect(unitsFor('v0').map((u) => u.key)).not.toContain('subagentCatalog');
  });

  it('lists each fact as a row {id, createdAt, mode, label?} in log order, a child listed twice twice', () => {
    const { registry, session } = foldV4(turn(1, 'completed',
      ['subagent/catalog', { label: 'reviewer', mode: 'continuable', childCreatedAt: 1700, childId: 'child-1', version: 0 }],
      ['subagent/catalog', fact({ version: 2, childId: 'ext-9', mode: 'external', label: undefined })],
      ['subagent/catalog', fact({ version: 1, childId: 'lost', mode: 'unknown', label: 'gone' })],
      ['subagent/catalog', fact({})],
    ));
    const rows = registry.snapshot().values.subagentCatalog;
    // Compared as text: the key order is DSH's too.
    expect(JSON.stringify(rows)).toBe(JSON.stringify([
      { id: 'child-1', createdAt: 1700, mode: 'continuable', label: 'reviewer' },
      { id: 'ext-9', createdAt: 1700, mode: 'external' },
      { id: 'lost', createdAt: 1700, mode: 'unknown', label: 'gone' },
      { id: 'child-1', createdAt: 1700, mode: 'continuable', label: 'reviewer' },
    ]));
    expect(registry.changeSeqs('subagentCatalog')).toEqual(session.events.filter((e) => e.type === 'subagent/catalog').map((e) => e.seq));
    expect(registry.snapshot().failures).toBeUndefined();
  });

  it('skips the facts a fork inherited (seq below the seed length)', () => {
    const rows = turn(1, 'completed', ['subagent/catalog', fact({ childId: 'parents' })], ['subagent/catalog', fact({ childId: 'own' })]);
    const { registry } = foldV4(rows, v4({ isSeeded: true, seedLength: 3 }));
    expect((registry.snapshot().values.subagentCatalog as { id: string }[]).map((r) => r.id)).toEqual(['own']);
    const state = subagentCatalogUnit.init(null, 3);
    expect(subagentCatalogUnit.apply(state, evs(['subagent/catalog', fact({})])[0])).toBe(state);
  });

  it.each([
    ['an unknown version', { version: 9 }],
    ['v0 with mode unknown', { mode: 'unknown' }],
    ['v1 with mode external', { version: 1, mode: 'external' }],
    ['v2 with a mode other than external', { version: 2, mode: 'continuable' }],
    ['a continuable child without a label', { label: undefined }],
    ['an extra key', { external: true }],
    ['a negative creation time', { childCreatedAt: -1 }],
  ])('%s stops the unit at its seq, as DSH\'s strict parse throws; the rows before stay, other units go on', (_name, fields) => {
    const { registry, session } = foldV4(events(
      ...turnSpecs(1, 'completed', ['subagent/catalog', fact({ childId: 'good' })]),
      ...turnSpecs(2, 'completed', ['subagent/catalog', fact(fields)]),
    ));
    const bad = session.events.filter((e) => e.type === 'subagent/catalog')[1].seq;
    const cell = registry.cell('subagentCatalog')!;
    expect(cell.failure).toMatchObject({ seq: bad, kind: 'threw' });
    expect(cell.observedSeq).toBe(bad - 1);
    expect((cell.view as { id: string }[]).map((r) => r.id)).toEqual(['good']);
    expect(registry.cell('sessionStats')!.observedSeq).toBe(session.events[session.events.length - 1].seq);
  });

  it('follows the generated 0.2.1-shaped log', () => {
    const log = generateLog({ dialect: 'v4', dsh021: true, seed: 7, turns: 6 });
    const session = foldSession(readLogText(log.text));
    const registry = foldProjections(session.read.header, session.events, { dialect: 'v4' });
    const facts = log.events.filter((e) => e.type === 'subagent/catalog');
    expect(facts.length).toBeGreaterThan(0);
    expect(registry.snapshot().values.subagentCatalog).toEqual(facts.map((e) => ({ id: e.data.childId, createdAt: e.data.childCreatedAt, mode: e.data.mode, label: e.data.label })));
  });
});

describe('subagentTiming in format 4: lastTurnCompleted', () => {
  const descriptor = { version: 3, mode: 'one-shot', provider: 'in-process' };
  const timing = (rows: Row[], head?: Row) => foldV4(rows, head).registry;

  it('says whether the turn a turn/end settles completed, and drops it at the next turn/start', () => {
    const completed = timing([...turn(1, 'completed', ['subagent/descriptor', descriptor])]);
    expect(JSON.stringify(completed.snapshot().values.subagentTiming)).toMatch(/^\{"settledMs":\d+,"lastTurnCompleted":true\}$/);
    const interrupted = timing([...turn(1, 'interrupted', ['subagent/descriptor', descriptor])]);
    expect(interrupted.snapshot().values.subagentTiming).toMatchObject({ lastTurnCompleted: false });
    const { registry: reopened, session } = foldV4(events(...turnSpecs(1, 'completed', ['subagent/descriptor', descriptor]), ['turn/start', { turn: 2 }]));
    const second = session.events.filter((e) => e.type === 'turn/start')[1].seq;
    const open = reopened.snapshotAt(second).values.subagentTiming as Record<string, unknown>;
    expect(open.lastTurnCompleted).toBeUndefined();
    expect(open.active).toBeDefined();
    // The restore closes the open turn as interrupted (its repair events): not completed.
    expect(reopened.snapshot().values.subagentTiming).toMatchObject({ lastTurnCompleted: false });
  });

  it('is not set by a turn before any descriptor, nor in a format-3 log', () => {
    expect(timing([...turn(1, 'completed')]).snapshot().values.subagentTiming).toEqual({ settledMs: 0 });
    const session = foldSession(readLogText(jsonl([header({ version: 3, isSeeded: false }), ...turn(1, 'completed', ['subagent/descriptor', { ...descriptor, version: 2 }])])));
    const v3 = foldProjections(session.read.header, session.events, { dialect: 'v3' });
    expect(v3.snapshot().values.subagentTiming).not.toHaveProperty('lastTurnCompleted');
    expect(unitsFor('v3').find((u) => u.key === 'subagentTiming')!.stateVersion).toBe(2);
    expect(unitsFor('v4').find((u) => u.key === 'subagentTiming')!.stateVersion).toBe(3);
  });

  it('a turn/end without a reason after the descriptor stops the unit there, as reading the reason throws in DSH', () => {
    const { registry, session } = foldV4(turn(1, null, ['subagent/descriptor', descriptor]));
    const end = session.events.find((e) => e.type === 'turn/end')!;
    expect(registry.cell('subagentTiming')!.failure).toMatchObject({ seq: end.seq, kind: 'threw' });
  });
});
