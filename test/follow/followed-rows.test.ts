import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { buildMembership, MembershipBuilder, type Membership } from '../../src/core/replay/membership.ts';
import { navigationTargets, type NavKind } from '../../src/core/replay/navigate.ts';
import { FollowedRows } from '../../src/ui/follow/followed-rows.ts';
import { WHOLE_LISTS } from '../../src/worker/list-tails.ts';
import { GrownRowsCache } from '../../src/ui/grown-rows-cache.ts';
import { GroupedRowsCache, groupedRows } from '../../src/ui/events/grouped-rows.ts';
import { grownStreamRuns, streamRuns } from '../../src/core/replay/stream-runs.ts';
import { generationSteps } from '../../src/ui/surface/generation-steps.ts';
import { targetsOf } from '../../src/ui/nav-targets.ts';
import { AxisIndex, axisIndexOf } from '../../src/ui/timeline/axis-index.ts';
import { Engine } from '../../src/worker/engine.ts';
import { FollowHost } from '../../src/worker/follow-host.ts';
import type { LoadSummary } from '../../src/worker/protocol.ts';
import { randomCuts } from './follow-check.ts';
import { ask } from './follow-engine-check.ts';

const ROW_KINDS: Exclude<NavKind, 'event' | 'diagnostic'>[] = ['surface', 'replace', 'request', 'step', 'turn'];

/** The summaries the page shows while a generated log is followed in `pieces` appends (each refresh's rows put after those held). */
async function followedSummaries(pieces: number, seed: number, dialect: 'v0' | 'v4' = 'v4'): Promise<LoadSummary[]> {
  const bytes = new TextEncoder().encode(generateLog({ dialect, seed, turns: 40, compactEvery: 6 }).text);
  const host = new FollowHost(new Engine());
  const rows = new FollowedRows();
  const shown: LoadSummary[] = [];
  let from = 0;
  for (const cut of [...randomCuts(bytes.length, seed, pieces), bytes.length]) {
    const sent = await ask(host, { id: 1, op: 'follow-append', bytes: bytes.slice(from, cut), reset: from === 0, name: 'live' });
    from = cut;
    if (sent.summary) shown.push(rows.take({ from: sent.from, listsFrom: sent.listsFrom, summary: sent.summary }));
  }
  return shown;
}

/** The same columns in arrays of their own: what a fresh load would hand the page. */
function copied(summary: LoadSummary): LoadSummary {
  const columns = Object.fromEntries(Object.entries(summary.columns).map(([k, c]) => [k, c.slice()])) as unknown as LoadSummary['columns'];
  return { ...summary, columns };
}

describe("a followed log's rows on the page (issue #15)", () => {
  it('the step lists and the timeline axis of each refresh, extended from the last, equal those made from its rows afresh', async () => {
    const shown = await followedSummaries(24, 3);
    expect(shown.length).toBeGreaterThan(10);
    // Many refreshes land in the arrays the last one grew (the extended path), not in new ones,
    // and the arrays hold at most a quarter more rows than the log.
    const sameRows = shown.filter((s, k) => k > 0 && s.columns.seq.buffer === shown[k - 1].columns.seq.buffer).length;
    expect(sameRows).toBeGreaterThan(shown.length / 3);
    for (const s of shown) expect(s.columns.seq.buffer.byteLength / s.columns.seq.BYTES_PER_ELEMENT).toBeLessThanOrEqual(Math.ceil(s.count * 1.25));
    for (const summary of shown) {
      const fresh = copied(summary);
      for (const kind of ROW_KINDS) expect(Array.from(targetsOf(summary, kind)), kind).toEqual(Array.from(navigationTargets(fresh.columns, fresh.typeNames, fresh.count, kind)));
      const axis = axisIndexOf(summary);
      const want = new AxisIndex(fresh.columns, fresh.count);
      expect(Array.from(axis.turnStarts)).toEqual(Array.from(want.turnStarts));
      expect(Array.from(axis.stepStarts)).toEqual(Array.from(want.stepStarts));
      expect(Array.from(axis.synthetic)).toEqual(Array.from(want.synthetic));
      for (let a = 0; a < summary.count; a += 7) {
        const b = Math.min(summary.count, a + 1 + ((a * 31) % 97));
        expect(axis.familiesIn(a, b)).toBe(want.familiesIn(a, b));
      }
    }
    expect(shown.at(-1)!.count).toBeGreaterThan(shown[0].count);
  });

  it("the generations chart's steps, extended refresh by refresh, equal those found afresh", async () => {
    const shown = await followedSummaries(24, 8);
    let kept = generationSteps(shown[0]);
    for (let k = 1; k < shown.length; k++) {
      kept = generationSteps(shown[k], kept, shown[k - 1].count);
      expect(kept).toEqual(generationSteps(copied(shown[k])));
    }
    expect(kept.replace.length).toBeGreaterThan(2);
  });

  it("the Events list's streams and grouped rows, extended refresh by refresh, equal those made afresh (open streams, hidden families)", async () => {
    const shown = await followedSummaries(40, 11, 'v0');
    const chunkType = (s: LoadSummary) => s.typeNames.indexOf('assistant/chunk');
    let runs = streamRuns(shown[0].columns, shown[0].count, chunkType(shown[0]));
    const allRuns: Uint32Array[] = [runs];
    for (let k = 1; k < shown.length; k++) {
      runs = grownStreamRuns(shown[k].columns, shown[k].count, chunkType(shown[k]), { runs, count: shown[k - 1].count });
      const fresh = copied(shown[k]);
      expect(Array.from(runs)).toEqual(Array.from(streamRuns(fresh.columns, fresh.count, chunkType(fresh))));
      allRuns.push(runs);
    }
    expect(runs.length).toBeGreaterThan(20);
    // Some refresh cut a stream in two: its run grew past the rows the refresh before held.
    expect(allRuns.some((r, k) => k > 0 && r.length === allRuns[k - 1].length && r.at(-1) !== allRuns[k - 1].at(-1))).toBe(true);
    const chunkFamily = shown[0].columns.family[runs[0]];
    const toolFamily = shown[0].families.indexOf('tool');
    const openSets = [new Set<number>(), new Set([runs[0], runs[4], runs[runs.length - 2]])];
    for (const open of openSets) {
      for (const hiddenBits of [0, 1 << toolFamily, 1 << chunkFamily]) {
        const cache = new GroupedRowsCache();
        shown.forEach((summary, k) => {
          const grown = cache.rows(summary, allRuns[k], open, hiddenBits);
          const fresh = copied(summary);
          const hidden = (i: number) => ((hiddenBits >> fresh.columns.family[i]) & 1) === 1;
          expect(Array.from(grown), `refresh ${k}`).toEqual(Array.from(groupedRows(fresh.count, allRuns[k], open, hidden)));
        });
      }
    }
  });

  it('membership made as the refreshes arrive equals membership made from each refresh afresh', async () => {
    const shown = await followedSummaries(24, 6);
    const builder = new MembershipBuilder();
    const input = (s: LoadSummary) => ({ seq: s.columns.seq, surfaceChange: s.columns.surfaceChange, count: s.count, replacements: s.replacements });
    const plain = (m: Membership) => JSON.parse(JSON.stringify({ ...m, seq: [...m.seq], enter: [...m.enter], leave: [...m.leave], row: [...m.row], changes: [...m.changes], links: Object.fromEntries(Object.entries(m.links).map(([k, v]) => [k, [...v]])) }));
    let replaced = 0;
    for (const summary of shown) {
      const grown = builder.add(input(summary));
      const fresh = buildMembership(input(copied(summary)));
      expect(plain(grown)).toEqual(plain(fresh));
      expect(grown.complete).toBe(true);
      replaced = grown.links.at.length;
    }
    // The log compacts: replaces that shadow nodes read in earlier refreshes are in it.
    expect(replaced).toBeGreaterThan(2);
  });

  it("a refresh keeps its Requests rows unmade until something reads them", async () => {
    const [first] = await followedSummaries(6, 7);
    let made = 0;
    const lazy = Object.defineProperty({ ...first }, 'requests', { enumerable: true, get: () => { made++; return first.requests; } }) as LoadSummary;
    const shown = new FollowedRows().take({ from: 0, listsFrom: WHOLE_LISTS, summary: lazy });
    expect(made).toBe(0);
    expect(shown.requests).toEqual(first.requests);
    expect(made).toBe(1);
  });

  it('a refresh whose rows do not follow those held is refused, not shown with rows missing', async () => {
    const [first, second] = await followedSummaries(6, 4);
    const rows = new FollowedRows();
    rows.take({ from: 0, listsFrom: WHOLE_LISTS, summary: first });
    const gap = { ...second, columns: copied(second).columns };
    expect(() => rows.take({ from: first.count + 1, listsFrom: WHOLE_LISTS, summary: gap })).toThrow(/do not follow/);
  });

  it("a value is extended from the rows it was made of; an earlier summary of the same rows is made afresh and leaves the longer one's kept", async () => {
    const shown = await followedSummaries(24, 5);
    const k = shown.findIndex((s, j) => j > 0 && s.columns.seq.buffer === shown[j - 1].columns.seq.buffer);
    expect(k).toBeGreaterThan(0);
    const [shorter, longer] = [shown[k - 1], shown[k]];
    const calls: string[] = [];
    const cache = new GrownRowsCache<number>((s, value, from) => {
      if (value === undefined) calls.push(`make ${s.count}`);
      else { calls.push(`extend ${from}→${s.count}`); expect(from).toBe(value); }
      return s.count;
    });
    expect(cache.get(shorter)).toBe(shorter.count);
    expect(cache.get(longer)).toBe(longer.count);
    expect(cache.get(longer)).toBe(longer.count);
    expect(cache.get(shorter)).toBe(shorter.count);
    expect(cache.get(longer)).toBe(longer.count);
    expect(calls).toEqual([`make ${shorter.count}`, `extend ${shorter.count}→${longer.count}`, `make ${shorter.count}`]);
  });
});
