import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { Engine } from '../../src/worker/engine.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { ReplayBuilder } from '../../src/core/replay/replay-index.ts';
import { timeAt } from '../../src/core/replay/time-column.ts';
import { PartialLog } from '../../src/store/partial-log.ts';

/**
 * The time column holds milliseconds after the first event's time: 4 bytes
 * an event while a session's times stay within ±24 days of it (issue #15:
 * the page holds every column of a 1M-event log), 8 once one does not.
 * Either way `timeAt` gives each event's logged time back.
 */
describe('the time column', () => {
  const log = generateLog({ dialect: 'v0', seed: 4, turns: 3, stepsPerTurn: 3 });

  async function timesOf(text: string) {
    const summary = await new Engine().load({ kind: 'text', text, name: 't' }, () => {});
    const logged = summary.count - summary.syntheticCount;
    return { summary, times: Array.from({ length: logged }, (_, i) => timeAt(summary.columns, summary.timeBase, i)) };
  }

  it('is 4 bytes an event for a session, every time given back', async () => {
    const { summary, times } = await timesOf(log.text);
    expect(summary.columns.time).toBeInstanceOf(Int32Array);
    const want = readLogText(log.text).events.map((e) => e.time);
    expect(times).toEqual(want);
    expect(summary.timeBase).toBe(want[0]);
  });

  it('widens to 8 bytes for a time months away, every earlier and later time kept', async () => {
    const rows = log.lines.slice(1).map((l) => JSON.parse(l) as { time: number });
    const half = rows.length >> 1;
    // A clock jump of 90 days halfway (a resumed session), and an event at the latest time a Date holds.
    const moved = rows.map((r, k) => ({ ...r, time: k >= half ? r.time + 90 * 86_400_000 : r.time }));
    moved[moved.length - 1].time = 8.64e15;
    const text = [log.lines[0], ...moved.map((r) => JSON.stringify(r))].join('\n') + '\n';
    const { summary, times } = await timesOf(text);
    expect(summary.columns.time).toBeInstanceOf(Float64Array);
    expect(times).toEqual(readLogText(text).events.map((e) => e.time));
    expect(times.at(-1)).toBe(8.64e15);
  });

  it('widens on the page too, reports sharing one base', () => {
    const state = { nodes: [], nextSeq: 0, replaceGeneration: 0, contentGeneration: 0, projected: new Map(), replacements: [] };
    const builder = new ReplayBuilder();
    const t0 = 1_785_000_000_000;
    builder.after({ type: 'turn/start', seq: 0, time: t0, data: { turn: 1 } }, state, { kind: 'none', seq: 0 });
    const first = builder.rowsSince(0);
    builder.after({ type: 'turn/end', seq: 1, time: t0 + 40 * 86_400_000, data: { turn: 1 } }, state, { kind: 'none', seq: 1 });
    const second = builder.rowsSince(1);
    expect(first.columns.time).toBeInstanceOf(Int32Array);
    expect(second.columns.time).toBeInstanceOf(Float64Array);
    expect(second.timeBase).toBe(first.timeBase);
    const page = new PartialLog('p');
    const header = { type: 'session', version: 0, id: 'x', createdAt: 1, cwd: '/' } as never;
    page.append({ ...first, from: 0, header, version: 0 });
    const summary = page.append({ ...second, from: 1, header, version: 0 });
    expect([0, 1].map((i) => timeAt(summary.columns, summary.timeBase, i))).toEqual([t0, t0 + 40 * 86_400_000]);
  });
});
