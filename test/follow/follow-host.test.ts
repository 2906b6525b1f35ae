import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { Engine } from '../../src/worker/engine.ts';
import { FollowHost } from '../../src/worker/follow-host.ts';
import type { FollowUpdate } from '../../src/worker/follow-protocol.ts';
import { randomCuts } from './follow-check.ts';
import { fastClock } from '../helpers/fast-clock.ts';
import { ask, followEngineInPieces } from './follow-engine-check.ts';

const enc = new TextEncoder();

describe('the worker follows a growing log (issues #21, #15)', () => {
  for (const [name, shape] of [['v4', { dialect: 'v4', seed: 8 }], ['v0', { dialect: 'v0', seed: 5 }], ['DSH 0.2.1 (format 4)', { dialect: 'v4', dsh021: true, seed: 6 }]] as const) {
    it(`${name}: each append that commits events refreshes the open log to its committed part, as a load of the bytes so far shows it; queries answer the new events`, async () => {
      const bytes = enc.encode(generateLog({ ...shape, turns: 4 }).text);
      expect(await followEngineInPieces(bytes, randomCuts(bytes.length, shape.seed, 12))).toBeGreaterThan(3);
    });
  }

  it('a refresh reads only what was appended: the log is not parsed again', async () => {
    const text = generateLog({ dialect: 'v4', seed: 12, turns: 6 }).text;
    const bytes = enc.encode(text);
    const host = new FollowHost(new Engine());
    const half = text.lastIndexOf('\n', text.length >> 1) + 1;
    const first = await ask(host, { id: 1, op: 'follow-append', bytes: bytes.slice(0, half), reset: true, name: 'x' });
    const parse = JSON.parse;
    let parsed = 0;
    JSON.parse = ((t: string, r?: Parameters<typeof parse>[1]) => { parsed++; return parse(t, r); }) as typeof JSON.parse;
    let second: FollowUpdate;
    try {
      second = await ask(host, { id: 2, op: 'follow-append', bytes: bytes.slice(half), reset: false, name: 'x' });
    } finally {
      JSON.parse = parse;
    }
    const appendedLines = text.slice(half).split('\n').filter(Boolean).length;
    expect(second.summary!.count).toBeGreaterThan(first.summary!.count);
    // Each appended line parsed once, plus a few look-backs; a load of the whole file parses every line.
    expect(parsed).toBeLessThan(appendedLines * 1.5);
    expect(parsed).toBeGreaterThanOrEqual(appendedLines);
  });

  it('a refresh sends the Requests rows of the calls made since the last, and of a call a late chunk changed, not every call', async () => {
    // rc.8 streams its calls: a refresh cut inside a call's chunks sees its usage and finish arrive later.
    // Each turn/start in its pre-react-loop form: a finding per turn (the reader upgrades it).
    const lines = generateLog({ dialect: 'v0', seed: 9, turns: 12 }).lines.map((l) => {
      const row = JSON.parse(l);
      return row.type === 'turn/start' ? JSON.stringify({ ...row, data: { ...row.data, trigger: { kind: 'user' } } }) : l;
    });
    const bytes = enc.encode(lines.join('\n') + '\n');
    const host = new FollowHost(new Engine());
    let from = 0;
    let held = 0;
    let sentRows = 0;
    let resent = 0;
    let refreshes = 0;
    // The findings and snapshot rows: sent from the first that differs, so about once each in all.
    const lists = ['diagnostics', 'contextSnapshots'] as const;
    const sentOf = { diagnostics: 0, contextSnapshots: 0 };
    const wholeOf = { diagnostics: 0, contextSnapshots: 0 };
    let last: FollowUpdate | null = null;
    for (const cut of [...randomCuts(bytes.length, 9, 40), bytes.length]) {
      const update = await ask(host, { id: 1, op: 'follow-append', bytes: bytes.slice(from, cut), reset: from === 0, name: 'x' });
      from = cut;
      if (!update.summary) continue;
      const calls = update.summary.callCuts.length;
      if (refreshes > 0) {
        // Only the last call the page holds may still change (its chunks were still arriving).
        expect(update.listsFrom.requests).toBeGreaterThanOrEqual(Math.max(0, held - 1));
        expect(update.listsFrom.requests).toBeLessThanOrEqual(held);
        sentRows += update.summary.requests.length;
        resent += held - update.listsFrom.requests;
      }
      expect(update.listsFrom.requests + update.summary.requests.length).toBe(calls);
      for (const list of lists) {
        if (refreshes > 0) expect(update.listsFrom[list]).toBeLessThanOrEqual(last!.listsFrom[list] + last!.summary![list].length);
        sentOf[list] += update.summary[list].length;
        if (refreshes > 0) wholeOf[list] += update.listsFrom[list] + update.summary[list].length;
      }
      held = calls;
      refreshes++;
      last = update;
    }
    for (const list of lists) {
      const total = last!.listsFrom[list] + last!.summary![list].length;
      expect(total, list).toBeGreaterThan(3);
      // Sending each whole list at every refresh after the first would send wholeOf.
      expect(sentOf[list] - total, list).toBeLessThan(wholeOf[list] / 3);
    }
    expect(refreshes).toBeGreaterThan(20);
    // Some refresh did send a held call again, and every refresh together sent about the log's calls once.
    expect(resent).toBeGreaterThan(0);
    expect(sentRows).toBeLessThanOrEqual(held + resent);
  });

  it('while a big append is read the worker answers queries on the open log, several times (the read pauses between its pieces)', async () => {
    using _clock = fastClock();
    const engine = new Engine();
    const open = await engine.load({ kind: 'text', text: generateLog({ dialect: 'v4', seed: 4, turns: 3 }).text, name: 'open' }, () => {});
    const host = new FollowHost(engine);
    // 4.5 MB: read in five pieces, each a stretch of work.
    const big = enc.encode(generateLog({ dialect: 'v4', seed: 9, turns: 150 }).text);
    let done = false;
    const reading = ask(host, { id: 1, op: 'follow-append', bytes: big, reset: true, name: 'live' }).then((u) => { done = true; return u; });
    let answered = 0;
    while (!done) {
      await new Promise((resolve) => setImmediate(resolve));
      if (done) break;
      expect(engine.rows(0, 1)[0].seq).toBe(open.columns.seq[0]);
      answered++;
    }
    expect(answered).toBeGreaterThanOrEqual(3);
    expect((await reading).summary!.count).toBeGreaterThan(open.count);
  });

  it('queries between the pieces of an append answer from the last refresh, not from the part read since', async () => {
    using _clock = fastClock();
    const text = generateLog({ dialect: 'v4', seed: 9, turns: 150 }).text;
    const bytes = enc.encode(text);
    const engine = new Engine();
    const host = new FollowHost(engine);
    const first = text.lastIndexOf('\n', 200_000) + 1;
    const shown = (await ask(host, { id: 1, op: 'follow-append', bytes: bytes.slice(0, first), reset: true, name: 'live' })).summary!;
    const last = shown.count - 1;
    const query = { index: last, window: { from: 0, count: 50 } };
    const before = { rows: engine.rows(Math.max(0, last - 2), 10), state: engine.state(query), event: engine.event(last) };
    let done = false;
    const reading = ask(host, { id: 2, op: 'follow-append', bytes: bytes.slice(first), reset: false, name: 'live' }).then((u) => { done = true; return u; });
    let checked = 0;
    while (!done) {
      await new Promise((resolve) => setImmediate(resolve));
      if (done) break;
      expect(engine.rows(Math.max(0, last - 2), 10)).toEqual(before.rows);
      expect(engine.state(query)).toEqual(before.state);
      expect(engine.event(last)).toEqual(before.event);
      expect(engine.navigate('event', last, 1)).toBeNull();
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(2);
    expect((await reading).summary!.count).toBeGreaterThan(shown.count);
  });

  it('a log opened while following stops (its last read still running) stays the open log', async () => {
    const engine = new Engine();
    const host = new FollowHost(engine);
    const reading = ask(host, { id: 1, op: 'follow-append', bytes: enc.encode(generateLog({ dialect: 'v4', seed: 9, turns: 150 }).text), reset: true, name: 'live' });
    await new Promise((resolve) => setImmediate(resolve));
    const stopping = ask(host, { id: 2, op: 'follow-stop' });
    // The page opens another log: the worker drops the followed one first (load.worker.ts), then loads.
    host.drop();
    const other = await engine.load({ kind: 'text', text: generateLog({ dialect: 'v0', seed: 2, turns: 1 }).text, name: 'other' }, () => {});
    await expect(reading).rejects.toThrow('cancelled');
    await expect(stopping).rejects.toThrow('cancelled');
    expect(engine.rows(0, other.count + 5).length).toBe(other.count);
  });

  it('another log opened lets the followed load go: following is over', async () => {
    const host = new FollowHost(new Engine());
    await ask(host, { id: 1, op: 'follow-append', bytes: enc.encode(generateLog({ dialect: 'v4', seed: 2, turns: 2 }).text), reset: true, name: 'x' });
    host.drop();
    await expect(ask(host, { id: 2, op: 'follow-stop' })).rejects.toThrow('no log is being followed');
  });

  it('a pending line is reported as pending, and torn once following stops', async () => {
    const text = generateLog({ dialect: 'v0', seed: 3, turns: 2 }).text;
    const host = new FollowHost(new Engine());
    const cut = text.length - 7;
    const live = await ask(host, { id: 1, op: 'follow-append', bytes: enc.encode(text.slice(0, cut)), reset: true, name: 'x' });
    expect(live.status.pending).toBeGreaterThan(0);
    expect(live.summary!.tornTail).toBeNull();
    const stopped = await ask(host, { id: 2, op: 'follow-stop' });
    expect(stopped.summary!.tornTail?.bytes).toBe(live.status.pending);
  });
});
