import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { Rng } from '../../src/core/generate/prng.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { crossingAt, rowsChangedBetween, WALK_MAX, type Crossing } from '../../src/core/replay/crossing.ts';
import { buildMembership, crossedAt, type Membership } from '../../src/core/replay/membership.ts';
import { Replay, SURFACE_CHANGE } from '../../src/core/replay/replay-index.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';

const { append, replace, none } = SURFACE_CHANGE;

/** The reference: the set rebuilt from every node ever on the surface. */
const rebuilt = (m: Membership, epoch: number) => Array.from(epoch === 0 ? [] : crossedAt(m, m.changes[epoch - 1]));

/** Node at each row in a set: the rows whose crossing two sets disagree on are where a redraw must reach. */
function rowsDiffering(m: Membership, a: number[], b: number[]): number[] {
  const at = (set: number[]) => new Map(set.map((k) => [m.row[k], k]));
  const x = at(a);
  const y = at(b);
  return [...new Set([...x.keys(), ...y.keys()])].filter((r) => x.get(r) !== y.get(r));
}

/** Walks every epoch forward one at a time, then back, then random hops, checking each set and the rows a redraw covers. */
function expectWalksAgree(m: Membership, seed: number): void {
  const epochs = m.nodes;
  let walked: Crossing = crossingAt(m, 0);
  const visit = (to: number) => {
    const next = crossingAt(m, to, walked);
    const expected = rebuilt(m, to);
    expect(Array.from(next.nodes), `epoch ${walked.epoch} → ${to}`).toEqual(expected);
    const rows = rowsChangedBetween(m, walked.epoch, to);
    if (Math.abs(to - walked.epoch) > WALK_MAX) expect(rows).toBeNull();
    else for (const r of rowsDiffering(m, rebuilt(m, walked.epoch), expected)) {
      expect(r, `row ${r} changed between epochs ${walked.epoch} and ${to}`).toBeGreaterThanOrEqual(rows!.lo);
      expect(r).toBeLessThanOrEqual(rows!.hi);
    }
    walked = next;
  };
  for (let e = 1; e <= epochs; e++) visit(e);
  for (let e = epochs - 1; e >= 0; e--) visit(e);
  const rng = new Rng(seed);
  for (let t = 0; t < 200; t++) visit(Math.max(0, Math.min(epochs, walked.epoch + rng.int(-WALK_MAX - 8, WALK_MAX + 8))));
}

describe('the crossing set walked from a near epoch (issue #15: a step costs the nodes that changed)', () => {
  it('appends, a replace in the middle, a replace of the last row, a replace without its record', () => {
    const m = buildMembership({
      seq: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      surfaceChange: [append, append, append, append, replace, none, append, replace, replace, append],
      count: 10,
      // 4 shadows 1..2 (index 1); 7 shadows 3 and 6 (index 2, the last rows); 8 has no record.
      replacements: [{ seq: 4, shadowedSeqs: [1, 2], index: 1 }, { seq: 7, shadowedSeqs: [3, 6], index: 2 }],
    });
    expect(m.complete).toBe(false);
    expect(m.links.at.length).toBe(2);
    expectWalksAgree(m, 1);
  });

  for (const dialect of ['v0', 'v4'] as const) {
    it(`${dialect}: every epoch of a generated log with compactions, walked either way and hopped`, () => {
      const session = foldSession(readLogText(generateLog({ dialect, seed: 5, turns: 12, compactEvery: 3 }).text));
      const { columns, count } = Replay.walk(session).index;
      const m = buildMembership({ seq: columns.seq, surfaceChange: columns.surfaceChange, count, replacements: session.surface.replacements });
      expect(m.links.at.length).toBeGreaterThan(1);
      expect(m.nodes).toBeGreaterThan(WALK_MAX * 2);
      expectWalksAgree(m, 9);
    });
  }

  it('a walk that finds a replace\'s node or run not where the set should hold it rebuilds the set', () => {
    const m = buildMembership({ seq: [0, 1, 2, 3], surfaceChange: [append, append, replace, append], count: 4, replacements: [{ seq: 2, shadowedSeqs: [0, 1], index: 0 }] });
    // Epoch 3 holds [2] (node 2 replaced 0 and 1): walking back from a set without it cannot be right.
    expect(Array.from(crossingAt(m, 2, { epoch: 3, nodes: new Uint32Array([0, 1]) }).nodes)).toEqual(rebuilt(m, 2));
    // Epoch 2 holds [0, 1]: walking node 2 in over a set without its run cannot be right either.
    expect(Array.from(crossingAt(m, 3, { epoch: 2, nodes: new Uint32Array([1]) }).nodes)).toEqual(rebuilt(m, 3));
  });
});
