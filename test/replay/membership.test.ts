import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { Rng } from '../../src/core/generate/prng.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { buildMembership, crossedAt, nodeAt, type Membership } from '../../src/core/replay/membership.ts';
import { Replay, SURFACE_CHANGE } from '../../src/core/replay/replay-index.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { foldSurface } from '../../src/core/surface/fold.ts';
import { Engine } from '../../src/worker/engine.ts';

const { append, replace, none, project, reject } = SURFACE_CHANGE;
const crossedSeqs = (m: Membership, i: number) => Array.from(crossedAt(m, i), (k) => m.seq[k]);

/** No two bars share a row at one event. */
function expectNoOverlap(m: Membership): void {
  const byRow = new Map<number, [number, number][]>();
  for (let k = 0; k < m.nodes; k++) {
    const list = byRow.get(m.row[k]) ?? [];
    for (const [a, b] of list) expect(m.enter[k] >= b || m.leave[k] <= a, `row ${m.row[k]}`).toBe(true);
    list.push([m.enter[k], m.leave[k]]);
    byRow.set(m.row[k], list);
  }
}

describe('context membership', () => {
  it('rows: appends go after the last node, a replace takes its first shadowed row, the tail keeps its rows', () => {
    // 0..3 append, 4 replaces nodes 1..2 (index 1), 5 projects, 6 is rejected, 7 appends.
    const m = buildMembership({
      seq: [0, 1, 2, 3, 4, 5, 6, 7],
      surfaceChange: [append, append, append, append, replace, project, reject, append],
      count: 8,
      replacements: [{ seq: 4, shadowedSeqs: [1, 2], index: 1 }],
    });
    expect(Array.from(m.seq)).toEqual([0, 1, 2, 3, 4, 7]);
    expect(Array.from(m.row)).toEqual([0, 1, 2, 3, 1, 4]);
    expect(Array.from(m.enter)).toEqual([0, 1, 2, 3, 4, 7]);
    expect(Array.from(m.leave)).toEqual([8, 4, 4, 8, 8, 8]);
    expect(m.rows).toBe(5);
    expect(Array.from(m.links.at)).toEqual([4]);
    expect(Array.from(m.links.node)).toEqual([4]);
    expect(Array.from(m.links.shadowed)).toEqual([1, 2]);
    expect(Array.from(m.changes)).toEqual([0, 1, 2, 3, 4, 7]);
    expect(m.complete).toBe(true);
    expect(crossedSeqs(m, 3)).toEqual([0, 1, 2, 3]);
    expect(crossedSeqs(m, 4)).toEqual([0, 4, 3]);
    expect(crossedSeqs(m, 7)).toEqual([0, 4, 3, 7]);
    expect(crossedSeqs(m, -1)).toEqual([]);
    expect(nodeAt(m, 5, 1)).toBe(4);
    expect(nodeAt(m, 5, 2)).toBe(-1);
    expectNoOverlap(m);
  });

  it('a replace reusing the last row: the next append goes right after it', () => {
    const m = buildMembership({
      seq: [0, 1, 2, 3], surfaceChange: [append, append, replace, append], count: 4,
      replacements: [{ seq: 2, shadowedSeqs: [0, 1], index: 0 }],
    });
    expect(Array.from(m.row)).toEqual([0, 1, 0, 1]);
    expect(crossedSeqs(m, 3)).toEqual([2, 3]);
    expectNoOverlap(m);
  });

  it('a replace without its record (a partial summary) keeps its bar and says the picture is incomplete', () => {
    const m = buildMembership({ seq: [0, 1, 2], surfaceChange: [append, none, replace], count: 3, replacements: [] });
    expect(m.complete).toBe(false);
    expect(m.nodes).toBe(2);
    expect(m.links.at.length).toBe(0);
  });

  for (const dialect of ['v0', 'v4'] as const) {
    for (const seed of [1, 7]) {
      it(`${dialect} seed ${seed}: at every cursor the crossed bars, by row, are the folded surface`, () => {
        const session = foldSession(readLogText(generateLog({ dialect, seed, turns: 8, compactEvery: 2 }).text));
        const { columns, count } = Replay.walk(session).index;
        const m = buildMembership({ seq: columns.seq, surfaceChange: columns.surfaceChange, count, replacements: session.surface.replacements });
        expect(m.complete).toBe(true);
        expect(m.links.at.length).toBe(session.surface.replacements.length);
        expect(session.surface.replacements.length).toBeGreaterThan(0);
        expectNoOverlap(m);
        // Every change event, plus random ones (the fold of each prefix is the reference).
        const rng = new Rng(seed);
        const cursors = new Set<number>([0, count - 1, ...Array.from(m.changes).filter((_, k) => k % 3 === 0)]);
        for (let t = 0; t < 20; t++) cursors.add(rng.int(0, count - 1));
        for (const i of cursors) {
          const expected = foldSurface(session.events.slice(0, i + 1), session.read.dialect).state.nodes;
          expect(crossedSeqs(m, i), `cursor ${i}`).toEqual(expected);
        }
        expect(crossedSeqs(m, count - 1)).toEqual(session.surface.nodes);
      });
    }
  }

  it('from the engine\'s LoadSummary (the page\'s input): same answer at the end and before the first replace', async () => {
    const text = generateLog({ dialect: 'v4', seed: 3, turns: 6, compactEvery: 2 }).text;
    const summary = await new Engine().load({ kind: 'text', text, name: 'gen.jsonl' }, () => {});
    const session = foldSession(readLogText(text));
    const m = buildMembership({ seq: summary.columns.seq, surfaceChange: summary.columns.surfaceChange, count: summary.count, replacements: summary.replacements });
    expect(crossedSeqs(m, summary.count - 1)).toEqual(session.surface.nodes);
    const first = m.links.at[0];
    expect(crossedSeqs(m, first - 1)).toEqual(foldSurface(session.events.slice(0, first), session.read.dialect).state.nodes);
  });
});
