import { describe, expect, it } from 'vitest';
import { alignCalls, type CallKey } from '../../src/core/compare/align.ts';
import { compareContexts, compareUnits, pairNodes, type NodeIdentity } from '../../src/core/compare/side-by-side.ts';
import { mulberry32 } from '../../src/core/generate/prng.ts';
import { pairNodesOracle } from '../helpers/pairing-oracle.ts';

/** Calls written as `turn.step:identity`, e.g. `1.1:x`. */
const calls = (spec: string): CallKey[] => spec.split(' ').filter(Boolean).map((c) => {
  const [pos, identity] = c.split(':');
  const [turn, step] = pos.split('.').map(Number);
  return { turn, step, identity };
});
const rows = (a: string, b: string) => alignCalls(calls(a), calls(b)).map((r) => `${r.a ?? '-'}|${r.b ?? '-'}`).join(' ');

describe('alignCalls', () => {
  it('pairs equal steps in order and shows a step only one run made as a gap, not a shift', () => {
    expect(rows('1.1:a 1.2:b 1.3:c 2.1:d', '1.1:a 1.2:x 2.1:y')).toBe('0|0 1|1 2|- 3|2');
    expect(rows('1.1:a 2.1:b', '1.1:a 1.2:q 2.1:b 3.1:r')).toBe('0|0 -|1 1|2 -|3');
    expect(rows('', '1.1:a')).toBe('-|0');
  });

  it('inside a step: a retry pairs the attempt that resent the same request, from the end', () => {
    // B retried step 1.2 with the same request: the attempt that settled it pairs, the failed one is the gap.
    expect(rows('1.1:a 1.2:b 1.3:c', '1.1:a 1.2:b 1.2:b 1.3:c')).toBe('0|0 -|1 1|2 2|3');
    // A compaction between attempts changed A's second request: B's single attempt pairs with A's first.
    expect(rows('1.1:a 1.2:big 1.2:small', '1.1:a 1.2:big')).toBe('0|0 1|1 2|-');
    // Nothing identical: the attempts pair from the end.
    expect(rows('1.1:p 1.1:q', '1.1:z')).toBe('0|- 1|0');
  });

  it('keeps each run in order when its numbering starts over (a restored or concatenated log)', () => {
    expect(rows('1.1:a 2.1:b 1.1:c', '1.1:a 2.1:b 1.1:c')).toBe('0|0 1|1 2|2');
    const r = alignCalls(calls('3.1:a 1.1:b 1.2:c'), calls('1.1:x'));
    expect(r.map((x) => x.a).filter((x) => x !== null)).toEqual([0, 1, 2]);
  });
});

const node = (seq: number, messageId: string | null, content: string | null): NodeIdentity => ({ seq, messageId, content });

describe('pairNodes', () => {
  it('pairs by message id, then by equal content; unpaired nodes are marked on their side', () => {
    const a = [node(0, 'm1', 'sys'), node(1, 'm2', 'user'), node(2, 'm3', 'tool-old'), node(3, 'm4', 'answer')];
    const b = [node(0, 'm1', 'sys'), node(1, 'x2', 'user'), node(2, 'm3', 'tool-new'), node(3, 'x9', 'extra'), node(4, 'x4', 'other answer')];
    expect(pairNodes(a, b)).toEqual([
      { a: 0, b: 0, match: 'same' },
      { a: 1, b: 1, match: 'same' },
      { a: 2, b: 2, match: 'changed' },
      { a: 3, b: null, match: 'a-only' },
      { a: null, b: 3, match: 'b-only' },
      { a: null, b: 4, match: 'b-only' },
    ]);
  });

  it('never pairs backwards and does not jump far for a content match', () => {
    const a = [node(0, null, 'x'), node(1, null, 'y')];
    const b = [node(0, null, 'y'), node(1, null, 'x')];
    const paired = pairNodes(a, b);
    const order = paired.filter((p) => p.a !== null && p.b !== null);
    expect(order).toHaveLength(1);
    const far = [...Array.from({ length: 100 }, (_, i) => node(i, null, `n${i}`)), node(100, null, 'same')];
    expect(pairNodes([node(0, null, 'same')], far)[0]).toEqual({ a: 0, b: null, match: 'a-only' });
  });

  it('pairs as the string-map pairing did, on random surfaces with repeated ids and contents', () => {
    // Small alphabets make ids and contents repeat, collide across sides and fall in and out of the window.
    const next = mulberry32(7);
    const rand = (n: number) => Math.floor(next() * n);
    const surface = (length: number, ids: number, contents: number) => Array.from({ length }, (_, i) => node(i,
      rand(4) === 0 ? null : `id${rand(ids)}`, rand(5) === 0 ? null : `c${rand(contents)}`));
    const kinds = { same: 0, changed: 0, 'a-only': 0, 'b-only': 0 };
    for (let round = 0; round < 400; round++) {
      const size = 1 + rand(round < 300 ? 40 : 400);
      const a = surface(size, 3 + rand(60), 2 + rand(30));
      // A third of B's are A edited: an id or a content changed, a node dropped or added.
      const edit = (n: NodeIdentity): NodeIdentity[] => [
        () => [node(n.seq, `x${rand(9)}`, n.content)], () => [node(n.seq, n.messageId, `e${rand(9)}`)], () => [], () => [n, node(-1, `y${rand(9)}`, `c${rand(30)}`)],
      ][rand(4)]();
      const b = round % 3 === 0 ? a.flatMap((n) => (rand(5) === 0 ? edit(n) : [n])) : surface(1 + rand(size * 2), 3 + rand(60), 2 + rand(30));
      const got = pairNodes(a, b);
      expect(got).toEqual(pairNodesOracle(a, b));
      for (const k of new Set(got.map((p) => p.match))) kinds[k]++;
    }
    // The cases exercise every kind of row, not only trivial pairings.
    expect(Math.min(...Object.values(kinds))).toBeGreaterThan(50);
  });
});

describe('compareUnits and compareContexts', () => {
  it('a unit on both sides is same or changed (with a line diff and both watermarks); a unit on one side is marked', () => {
    const u = (key: string, view: unknown, observedSeq: number) => ({ key, view, observedSeq, failure: null });
    const out = compareUnits([u('title', { title: 'A' }, 10), u('todos', [], 10), u('goal', null, 10)], [u('title', { title: 'B' }, 12), u('todos', [], 12), u('extra', 1, 12)]);
    expect(out.map((x) => [x.key, x.status])).toEqual([['title', 'changed'], ['todos', 'same'], ['goal', 'a-only'], ['extra', 'b-only']]);
    expect(out[0].a!.observedSeq).toBe(10);
    expect(out[0].b!.observedSeq).toBe(12);
    expect(out[0].diff!.filter((p) => p.kind !== 'same').map((p) => p.text.trim())).toEqual(['"title": "A"', '"title": "B"']);
  });

  it('diffs the runtime contexts in force by section, a missing side counting as empty', () => {
    const snap = (sections: [string, string][]) => ({ sections: sections.map(([name, text]) => ({ name, text })) });
    const both = compareContexts({ seq: 4, snapshot: snap([['cwd', '/a'], ['policy', 'ask']]) }, { seq: 9, snapshot: snap([['cwd', '/b'], ['policy', 'ask']]) });
    expect(both).toMatchObject({ aSeq: 4, bSeq: 9 });
    expect(both.diff!.sections.map((s) => [s.name, s.status])).toEqual([['cwd', 'changed'], ['policy', 'unchanged']]);
    const onlyA = compareContexts({ seq: 4, snapshot: snap([['cwd', '/a']]) }, null);
    expect(onlyA.diff!.sections.map((s) => s.status)).toEqual(['removed']);
    expect(compareContexts(null, null).diff).toBeNull();
  });
});
