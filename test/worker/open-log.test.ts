import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { Engine } from '../../src/worker/engine.ts';

const text = (seed: number, turns = 6) => generateLog({ dialect: 'v4', seed, turns }).text;

describe('the open log', () => {
  it('is a new object per load, and the one it replaces is closed: its search stops', async () => {
    const engine = new Engine();
    await engine.load({ kind: 'text', text: text(1, 400), name: 'a.jsonl' }, () => {});
    const a = engine.current()!;
    // A word on every line, so every event is parsed: the scan outlasts its first slice (40 ms) and is
    // still running when the next load closes this log. A word no line holds is ruled out by the
    // prefilter so fast that the scan could end first.
    const search = a.search.searchAll('seq');
    const summary = await engine.load({ kind: 'text', text: text(2), name: 'b.jsonl' }, () => {});
    const b = engine.current()!;
    expect(b).not.toBe(a);
    await expect(search).rejects.toThrow('cancelled');
    expect(summary.name).toBe('b.jsonl');
    expect(b.replay.session.events.length).toBe(summary.count);
  });

  it('keeps nothing of the log before: every answer equals a fresh engine\'s on the same log', async () => {
    const reused = new Engine();
    const last = (await reused.load({ kind: 'text', text: text(3), name: 'a.jsonl' }, () => {})).count - 1;
    reused.state({ index: last, window: { from: 0, count: 50 } });
    reused.stream(0, 5);
    await reused.load({ kind: 'text', text: text(4), name: 'b.jsonl' }, () => {});
    const fresh = new Engine();
    const end = (await fresh.load({ kind: 'text', text: text(4), name: 'b.jsonl' }, () => {})).count - 1;
    for (const i of [0, Math.floor(end / 2), end]) {
      expect(reused.state({ index: i, window: { from: 0, count: 50 } })).toEqual(fresh.state({ index: i, window: { from: 0, count: 50 } }));
      expect(reused.rows(i, 3)).toEqual(fresh.rows(i, 3));
    }
    expect(reused.stream(0, 5)).toEqual(fresh.stream(0, 5));
  });

  it('a failed load leaves the open log as it was', async () => {
    const engine = new Engine();
    await engine.load({ kind: 'text', text: text(5), name: 'a.jsonl' }, () => {});
    const open = engine.current();
    await expect(engine.load({ kind: 'text', text: '', name: 'empty.jsonl' }, () => {})).rejects.toThrow();
    expect(engine.current()).toBe(open);
  });
});
