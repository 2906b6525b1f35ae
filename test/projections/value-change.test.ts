import { describe, expect, it } from 'vitest';
import { ChangeLog } from '../../src/core/projections/cell.ts';
import { valueDiff } from '../../src/core/projections/value-diff.ts';
import { Engine } from '../../src/worker/engine.ts';
import { header, jsonl } from '../helpers/log-builder.ts';
import { repeatedWrites, TODOS_1, TODOS_2 } from '../helpers/repeated-writes.ts';
import { foldText } from './fixtures.ts';

const todo = (content: string, status: string) => ({ content, status });
const A1 = TODOS_1;
const A2 = TODOS_2;

describe('value changes vs writes of an equal value (issue #17)', () => {
  it('the change log marks each change against the value before it, the initial one included', () => {
    const log = new ChangeLog(32, null);
    log.push(3, [1]);
    log.push(5, [1]);
    log.push(7, [2]);
    log.push(9, null);
    log.push(11, null);
    expect([0, 1, 2, 3, 4].map((i) => log.valueChanged(i))).toEqual([true, false, true, true, false]);
    expect(Array.from(log.seqsWhere(false))).toEqual([3, 7, 9]);
    expect(Array.from(log.seqsWhere(true))).toEqual([5, 11]);
  });

  it('the registry keeps every write as a change and tells the equal ones apart', () => {
    const { registry } = foldText(repeatedWrites, {}, { history: true });
    expect(Array.from(registry.changeSeqs('todos'))).toEqual([1, 2, 4, 5]);
    expect(Array.from(registry.changeSeqsWhere('todos', false))).toEqual([1, 4]);
    expect(Array.from(registry.changeSeqsWhere('todos', true))).toEqual([2, 5]);
  });

  it('the worker reports value changes and equal writes per unit, and at the cursor what changed', async () => {
    const engine = new Engine();
    const summary = await engine.load({ kind: 'text', text: jsonl([header(), ...repeatedWrites]), name: 'todos.jsonl' }, () => {});
    const todos = summary.projectionUnits.find((u) => u.key === 'todos')!;
    expect(Array.from(todos.changes)).toEqual([1, 4]);
    expect(Array.from(todos.equalWrites)).toEqual([2, 5]);
    const at = (seq: number) => engine.projectionsAtIndex(seq).find((p) => p.key === 'todos')!;
    expect(at(2)).toMatchObject({ changedHere: false, rewroteHere: true, diff: null, prevChange: 1, nextChange: 4 });
    expect(at(5)).toMatchObject({ changedHere: false, rewroteHere: true, diff: null, prevChange: 4, nextChange: null });
    expect(at(3)).toMatchObject({ changedHere: false, rewroteHere: false });
    expect(at(1)).toMatchObject({ changedHere: true, rewroteHere: false, diff: { kind: 'list', added: [{ index: 0, value: A1[0] }, { index: 1, value: A1[1] }], removed: [], edited: [] } });
    expect(at(4)).toMatchObject({
      changedHere: true, prevChange: 1, nextChange: null,
      diff: { kind: 'list', added: [{ index: 2, value: A2[2] }], removed: [], edited: [{ index: 0, before: A1[0], after: A2[0] }, { index: 1, before: A1[1], after: A2[1] }] },
    });
  });
});

describe('valueDiff', () => {
  it('is null for deep-equal values, whatever their key order', () => {
    expect(valueDiff({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBeNull();
  });

  it('names list entries by a field they all carry uniquely (a todo by its content)', () => {
    const d = valueDiff([todo('x', 'pending'), todo('y', 'pending')], [todo('y', 'completed'), todo('z', 'pending')]);
    expect(d).toEqual({ kind: 'list', added: [{ index: 1, value: todo('z', 'pending') }], removed: [{ index: 0, value: todo('x', 'pending') }], edited: [{ index: 0, before: todo('y', 'pending'), after: todo('y', 'completed') }] });
  });

  it('a list cleared or created reads as entries removed or added', () => {
    expect(valueDiff([todo('x', 'pending')], null)).toEqual({ kind: 'list', added: [], removed: [{ index: 0, value: todo('x', 'pending') }], edited: [] });
    expect(valueDiff(undefined, ['a'])).toEqual({ kind: 'list', added: [{ index: 0, value: 'a' }], removed: [], edited: [] });
  });

  it('unnamed entries keep a common head and tail, the rest by position', () => {
    expect(valueDiff([1, 2, 3, 9], [1, 5, 6, 3, 9])).toEqual({ kind: 'list', added: [{ index: 2, value: 6 }], removed: [], edited: [{ index: 1, before: 2, after: 5 }] });
  });

  it('anything else is a line diff of the indented JSON', () => {
    const d = valueDiff({ objective: 'a', status: 'active' }, { objective: 'a', status: 'complete' });
    expect(d?.kind).toBe('json');
    const lines = d?.kind === 'json' ? d.lines! : [];
    expect(lines.filter((l) => l.kind === 'removed').map((l) => l.text.trim())).toEqual(['"status": "active"']);
    expect(lines.filter((l) => l.kind === 'added').map((l) => l.text.trim())).toEqual(['"status": "complete"']);
  });
});
