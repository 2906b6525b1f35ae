import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { Engine } from '../../src/worker/engine.ts';

async function open() {
  const engine = new Engine();
  const summary = await engine.load({ kind: 'text', text: generateLog({ dialect: 'v4', seed: 11, turns: 8 }).text, name: 'a.jsonl' }, () => {});
  return Object.assign(engine.current()!, { summary });
}

describe('the open log\'s services', () => {
  it('cursor: the panels asking one cursor share one seek, and a window is a slice of the whole surface', async () => {
    const log = await open();
    const last = log.summary.count - 1;
    expect(log.cursor.surfaceAt(last)).toBe(log.cursor.surfaceAt(last));
    const whole = log.cursor.state({ index: last, window: { from: 0, count: 2000 } });
    const part = log.cursor.state({ index: last, window: { from: 2, count: 3 } });
    expect(part.nodes).toEqual(whole.nodes.slice(2, 5));
    expect(whole.nodes.map((n) => n.seq)).toEqual(log.replay.surfaceAt(last).state.nodes);
  });

  it('events: a stream asked twice is read once, and rows pair calls with their results', async () => {
    const log = await open();
    expect(log.events.stream(0, 10)).toBe(log.events.stream(0, 10));
    const rows = log.events.rows(0, 1000);
    const call = rows.find((r) => r.type === 'tool/call' && r.pair);
    expect(call).toBeDefined();
    expect(rows.find((r) => r.index === call!.pair!.other)?.pair?.other).toBe(call!.index);
  });

  it('units: the summary\'s change strips are where the registry saw each value change', async () => {
    const log = await open();
    for (const unit of log.summary.projectionUnits) expect([...unit.changes]).toEqual([...log.registry.changeSeqsWhere(unit.key, false)]);
  });

  it('calls and charts: each call\'s usage in the charts is its Requests row\'s', async () => {
    const log = await open();
    expect(log.charts.charts().calls).toEqual(log.summary.requests.map((r) => r.tokens));
    expect(log.charts.charts(false).calls).toEqual([]);
    expect(JSON.parse(log.calls.requestJson(0))).toEqual(JSON.parse(JSON.stringify(log.calls.list[0].loopRequest)));
  });
});
