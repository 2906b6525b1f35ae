import { deriveMessages } from '../../src/core/messages/derive.ts';
import { describe, expect, it, vi } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { Rng } from '../../src/core/generate/prng.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { Replay, SURFACE_CHANGE } from '../../src/core/replay/replay-index.ts';
import { navigate, navigationTargets } from '../../src/core/replay/navigate.ts';
import { summaryFromWire, type PackedRequestRows } from '../../src/worker/request-rows-wire.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { foldSurface } from '../../src/core/surface/fold.ts';
import { Engine, SILENT_LOOKUPS } from '../../src/worker/engine.ts';
import { PartialLog } from '../../src/store/partial-log.ts';

const surfaceOf = (s: { nodes: number[]; replaceGeneration: number; contentGeneration: number }) => [s.nodes, s.replaceGeneration, s.contentGeneration];

describe('replay index', () => {
  for (const dialect of ['v0', 'v4'] as const) {
    it(`${dialect}: surfaceAt(i) equals a from-scratch fold of the prefix, for random i (small checkpoints)`, () => {
      const session = foldSession(readLogText(generateLog({ dialect, seed: 3, turns: 8, compactEvery: 2 }).text));
      const replay = Replay.walk(session, 37);
      const rng = new Rng(11);
      for (let t = 0; t < 60; t++) {
        const i = rng.int(0, session.events.length - 1);
        const scratch = foldSurface(session.events.slice(0, i + 1), session.read.dialect).state;
        expect(surfaceOf(replay.surfaceAt(i).state), `index ${i}`).toEqual(surfaceOf(scratch));
      }
      expect(surfaceOf(replay.surfaceAt(session.events.length - 1).state)).toEqual(surfaceOf(session.surface));
    });
  }

  it('columns mark surface changes, replaces, request cuts and synthetic events', () => {
    const session = foldSession(readLogText(generateLog({ dialect: 'v0', seed: 5, turns: 5, compactEvery: 2, openLastTurn: true }).text));
    const { columns, count } = Replay.walk(session).index;
    expect(count).toBe(session.events.length);
    const replaces = [...columns.surfaceChange.keys()].filter((i) => columns.surfaceChange[i] === SURFACE_CHANGE.replace);
    expect(replaces.map((i) => columns.seq[i])).toEqual(session.surface.replacements.map((r) => r.seq));
    const cuts = columns.requestCut.reduce((n, v) => n + v, 0);
    const steps = session.events.filter((e) => e.type === 'step/start').length;
    expect(cuts).toBeGreaterThanOrEqual(steps - 1);
    expect(columns.synthetic.reduce((n, v) => n + v, 0)).toBe(session.synthetic.length);
  });

  it('navigates by kind in both directions', () => {
    const session = foldSession(readLogText(generateLog({ dialect: 'v0', seed: 5, turns: 4, compactEvery: 2 }).text));
    const replay = Replay.walk(session);
    const firstTurn = replay.navigate('turn', -1, 1)!;
    expect(session.events[firstTurn].type).toBe('turn/start');
    const secondTurn = replay.navigate('turn', firstTurn, 1)!;
    expect(session.events[secondTurn].data.turn).toBe(2);
    expect(replay.navigate('turn', secondTurn, -1)).toBe(firstTurn);
    const replace = replay.navigate('replace', -1, 1)!;
    expect(session.surface.replacements[0].seq).toBe(session.events[replace].seq);
    expect(replay.navigate('event', session.events.length - 1, 1)).toBeNull();
  });

  it('the step lists (navigationTargets) are every index navigate lands on, forwards and backwards, for each kind', () => {
    for (const dialect of ['v0', 'v4'] as const) {
      const session = foldSession(readLogText(generateLog({ dialect, seed: 7, turns: 6, compactEvery: 2 }).text));
      const { columns, count, typeNames } = Replay.walk(session).index;
      // Findings at a few events, one past the end and one not an index (they are not targets).
      const findings = new Set([count - 1, 3, 0, Math.floor(count / 2), count + 5, 2.5]);
      for (const kind of ['surface', 'replace', 'request', 'step', 'turn', 'diagnostic'] as const) {
        const forward: number[] = [];
        for (let i = navigate(columns, typeNames, count, kind, -1, 1, findings); i !== null; i = navigate(columns, typeNames, count, kind, i, 1, findings)) forward.push(i);
        const backward: number[] = [];
        for (let i = navigate(columns, typeNames, count, kind, count, -1, findings); i !== null; i = navigate(columns, typeNames, count, kind, i, -1, findings)) backward.unshift(i);
        const list = [...navigationTargets(columns, typeNames, count, kind, findings)];
        expect(list, `${dialect} ${kind}`).toEqual(forward);
        expect(list, `${dialect} ${kind} backwards`).toEqual(backward);
        expect(list.length, `${dialect} ${kind} has targets`).toBeGreaterThan(0);
      }
    }
  });
});

describe('worker engine (the same code the Web Worker runs)', () => {
  it('loads text, reports progress, answers rows, events and cursor states', async () => {
    const text = generateLog({ dialect: 'v4', seed: 2, turns: 3 }).text;
    const engine = new Engine();
    const summary = await engine.load({ kind: 'text', text, name: 'gen.jsonl' }, () => {});
    expect(summary.count).toBe(summary.columns.seq.length);
    expect(summary.ok).toBe(true);
    const rows = engine.rows(0, 5);
    expect(rows.map((r) => r.index)).toEqual([0, 1, 2, 3, 4]);
    const last = engine.state({ index: summary.count - 1, window: { from: 0, count: 100 } });
    expect(last.nodes.length).toBeGreaterThan(0);
    expect(last.messageCount).toBeLessThanOrEqual(last.nodeCount);
    const detail = engine.event(last.nodes[0].index);
    expect(detail.surfaceStatus).toBe('node');
    expect(engine.search('turn/start', -1, 1)).toBe(engine.navigate('turn', -1, 1));
  });

  it('answers are plain data a message port can carry (a request, a context comparison, an export)', async () => {
    const text = generateLog({ dialect: 'v4', seed: 4, turns: 5, compactEvery: 2 }).text;
    const engine = new Engine();
    const summary = await engine.load({ kind: 'text', text, name: 'gen.jsonl' }, () => {});
    const last = summary.requests.length - 1;
    const detail = engine.request(last);
    const cloned = structuredClone(detail);
    expect(cloned.request.messages.length).toBe(summary.requests[last].messageCount);
    expect(cloned.request.loopRequest.messages).toEqual(cloned.request.messages);
    // The window carries no hash: that identifies the whole request (whose JSON the copy button gets).
    expect('hash' in cloned.request).toBe(false);
    expect(JSON.parse(engine.requestJson(last)).messages).toEqual(cloned.request.messages);
    const snapshots = summary.contextSnapshots;
    expect(snapshots.length).toBeGreaterThan(1);
    const comparison = structuredClone(engine.context(null, snapshots[snapshots.length - 1].seq));
    expect(comparison.b.sections.map((s) => s.name)).toEqual(snapshots[snapshots.length - 1].names);
    expect(typeof comparison.b.text).toBe('string');
    expect(structuredClone(engine.export('request', 'json', summary.count - 1, false)).text).toContain('"messages"');
  });

  it('a call detail: a window of its messages, and a diff with the previous call equal to comparing the whole contexts by id', async () => {
    const text = generateLog({ dialect: 'v0', seed: 9, turns: 6, compactEvery: 2 }).text;
    const engine = new Engine();
    const summary = await engine.load({ kind: 'text', text, name: 'gen.jsonl' }, () => {});
    const list = (engine as unknown as { prompts: { requests: { requests: { messages: { id: string }[]; prefix: { previous: number | null } }[] } } }).prompts.requests.requests;
    let broken = 0;
    for (let i = 0; i < summary.requests.length; i++) {
      const all = list[i].messages;
      const detail = engine.request(i, { from: 0, count: 2000 });
      expect(detail.request.messages).toEqual(all);
      expect(detail.messageWindow).toEqual({ from: 0, total: all.length });
      const page = engine.request(i, { from: Math.max(0, all.length - 3), count: 3 });
      expect(page.request.messages).toEqual(all.slice(-3));
      const prev = list[i].prefix.previous;
      if (prev === null) { expect(detail.messageDiff).toBeNull(); continue; }
      const before = new Set(list[prev].messages.map((m) => m.id));
      const after = new Set(all.map((m) => m.id));
      expect(new Set(detail.messageDiff!.removed)).toEqual(new Set([...before].filter((id) => !after.has(id))));
      expect(new Set(detail.messageDiff!.added)).toEqual(new Set([...after].filter((id) => !before.has(id))));
      if (detail.messageDiff!.removed.length) broken++;
    }
    expect(broken).toBeGreaterThan(0);
    expect(JSON.parse(engine.requestJson(summary.requests.length - 1)).messages).toEqual(list[summary.requests.length - 1].messages);
  });

    it('search finds text in previews both ways, over events parsed again from the log, and says when nothing matches', async () => {
    const { eventPreview } = await import('../../src/core/replay/preview.ts');
    const text = generateLog({ dialect: 'v0', seed: 8, turns: 4 }).text;
    const engine = new Engine();
    await engine.load({ kind: 'text', text, name: 'g.jsonl' }, () => {});
    const events = foldSession(readLogText(text)).events;
    const expected = (needle: string, from: number, dir: 1 | -1) => {
      for (let i = from + dir; i >= 0 && i < events.length; i += dir) {
        if (events[i].type.includes(needle) || eventPreview(events[i]).toLowerCase().includes(needle)) return i;
      }
      return null;
    };
    const middle = Math.floor(events.length / 2);
    for (const needle of ['todo', 'text-delta', 'turn 3', 'tests pass', '→ bash', 'no such text anywhere']) {
      expect(engine.search(needle, -1, 1)).toBe(expected(needle, -1, 1));
      expect(engine.search(needle, middle, -1)).toBe(expected(needle, middle, -1));
    }
    expect(engine.search('no such text anywhere', -1, 1)).toBeNull();
  });

  it('sends the load summary with its columns as transferred buffers, keeping its own copies', async () => {
    const engine = new Engine();
    const posted: { msg: any; transfer?: Transferable[] }[] = [];
    const text = generateLog({ dialect: 'v0', seed: 4, turns: 3 }).text;
    await engine.handle({ id: 1, op: 'load', source: { kind: 'text', text, name: 't' } }, (msg, transfer) => posted.push({ msg, transfer }));
    const done = posted.find((p) => p.msg.ok)!;
    const columns = done.msg.result.columns as Record<string, Float64Array>;
    // The columns, the calls' cuts and the packed Requests rows (five typed arrays), each buffer once.
    const packed = done.msg.result.requests as PackedRequestRows;
    const arrays = [...Object.values(columns), done.msg.result.callCuts as Int32Array, packed.numbers, packed.extends, packed.stringIds, packed.listStarts, packed.listItems];
    expect(done.transfer).toHaveLength(arrays.length);
    expect(new Set(done.transfer).size).toBe(done.transfer!.length);
    for (const a of arrays) expect(done.transfer).toContain(a.buffer);
    // Transfer detaches what was sent: the worker's own index must not be among it.
    const received = summaryFromWire(structuredClone(done.msg.result, { transfer: done.transfer as Transferable[] }));
    expect(columns.seq.length).toBe(0);
    // The page reads back the rows the engine made.
    const { requests } = await new Engine().load({ kind: 'text', text, name: 't' }, () => {});
    expect(requests.length).toBeGreaterThan(3);
    expect(received.requests).toEqual(requests);
    expect([...received.callCuts]).toEqual(requests.map((r) => r.cutIndex));
    expect(await engine.navigate('turn', 0, 1)).toBeGreaterThan(0);
    const rows = engine.rows(0, 5);
    expect(rows.map((r) => r.seq)).toEqual([0, 1, 2, 3, 4]);
  });

  it('to a page that keeps the progress reports\' rows, sends only the rows after them; together they are every row', async () => {
    // Every report a quarter second after the last: each one brings rows.
    let clock = 1_000_000;
    const now = vi.spyOn(Date, 'now').mockImplementation(() => (clock += 250));
    try {
      const bytes = new TextEncoder().encode(generateLog({ dialect: 'v4', seed: 6, turns: 60, compactEvery: 4 }).text);
      // A File of many pieces: Node streams a Blob a part at a time, as a browser streams a file a chunk at a time.
      const parts = Array.from({ length: Math.ceil(bytes.length / 32768) }, (_, i) => bytes.subarray(i * 32768, (i + 1) * 32768));
      const asked = async (keepsRows: boolean) => {
        const partial = new PartialLog('t');
        let reports = 0;
        let done: any = null;
        const engine = new Engine();
        await engine.handle({ id: 1, op: 'load', source: { kind: 'file', file: new Blob(parts), name: 't' }, ...(keepsRows ? { keepsRows } : {}) }, (msg, transfer) => {
          // As the page receives it: a structured clone, the buffers transferred.
          const m = structuredClone(msg, { transfer: (transfer ?? []) as Transferable[] }) as any;
          if (m.progress?.rows) { partial.append(m.progress.rows); reports++; } else if (m.ok) done = m.result;
        });
        return { engine, reports, from: done.columnsFrom as number | undefined, summary: partial.finish(summaryFromWire(done)) };
      };
      const kept = await asked(true);
      const whole = await asked(false);
      expect(kept.reports).toBeGreaterThan(2);
      expect(kept.from).toBeGreaterThan(0);
      expect(kept.from).toBeLessThan(kept.summary.count);
      expect(whole.from).toBeUndefined();
      expect(kept.summary.count).toBe(whole.summary.count);
      expect(kept.summary.columnsFrom).toBeUndefined();
      for (const key of Object.keys(whole.summary.columns) as (keyof typeof whole.summary.columns)[]) {
        expect([...kept.summary.columns[key]], key).toEqual([...whole.summary.columns[key]]);
      }
      // The worker still navigates with the columns it kept.
      for (const kind of ['turn', 'surface', 'request', 'step', 'replace'] as const) expect(await kept.engine.navigate(kind, 0, 1)).toBe(await whole.engine.navigate(kind, 0, 1));
      // The Requests rows stay unmade until read (the summary's own property, not a spread's copy).
      expect(typeof Object.getOwnPropertyDescriptor(kept.summary, 'requests')?.get).toBe('function');
    } finally {
      now.mockRestore();
    }
  });

  it('cursor state: a window of the nodes, counts and tokens from the load, the model context in windows when asked', async () => {
    const engine = new Engine();
    const text = generateLog({ dialect: 'v4', seed: 12, turns: 4, compactEvery: 2, imageOffload: true }).text;
    const { count } = await engine.load({ kind: 'text', text, name: 't' }, () => {});
    const session = foldSession(readLogText(text));
    let spans = 0;
    const statuses: string[] = [];
    for (let i = 0; i < count; i += 7) {
      const surface = foldSurface(session.events.slice(0, i + 1), session.read.dialect).state;
      const expected = deriveMessages(surface, session.eventAt);
      const whole = engine.state({ index: i, window: { from: 0, count: 2000 } });
      expect(whole.nodeCount).toBe(surface.nodes.length);
      expect(whole.nodes.map((n) => n.seq)).toEqual(surface.nodes);
      // The per-change totals equal counting the nodes.
      expect(whole.messageCount).toBe(expected.length);
      expect(whole.tokens).toBe(whole.nodes.reduce((t, n) => t + n.tokens, 0));
      expect(whole.cursorNode).toBe(surface.nodes.indexOf(session.events[i].seq));
      // A window is the same slice; its spans are the replaces whose node is in it.
      const from = Math.floor(surface.nodes.length / 2);
      const part = engine.state({ index: i, window: { from, count: 3 } });
      expect(part.nodesFrom).toBe(from);
      expect(part.nodes).toEqual(whole.nodes.slice(from, from + 3));
      const inWindow = new Set(part.nodes.map((n) => n.seq));
      expect(part.spans.map((s) => s.seq)).toEqual(surface.replacements.filter((r) => inWindow.has(r.seq)).map((r) => r.seq));
      spans += whole.spans.length;
      // The transcript: every node appended so far, marked on the surface, shadowed by a replace, or neither.
      const told = engine.state({ index: i, window: { from: 0, count: 1 }, transcript: { from: 0, count: 2000 } });
      const shadowed = new Map(surface.replacements.flatMap((r) => r.shadowedSeqs.map((s) => [s, r.seq] as const)));
      expect(told.transcript.map((t) => [t.seq, t.status, t.shadowedBy])).toEqual(told.transcript.map((t) => [t.seq,
        surface.nodes.includes(t.seq) ? 'on-surface' : shadowed.has(t.seq) ? 'shadowed' : 'not-a-node', shadowed.get(t.seq) ?? null]));
      statuses.push(...told.transcript.map((t) => t.status));
      // The model context in windows, newest last, equal to DSH's deriveMessages.
      const page = engine.messages(i, { from: Math.max(0, expected.length - 5), count: 5 });
      expect(page.count).toBe(expected.length);
      expect(page.messages).toEqual(expected.slice(-5));
    }
    expect(spans).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set(['on-surface', 'shadowed']));
  });

  it('a messages window steps over the nodes that carry no message, few or many, as a walk of the surface does (issue #15)', async () => {
    // Assistant messages emptied of content stay surface nodes but send nothing: the load notes them as silent.
    for (const [every, turns, compactEvery] of [[5, 5, 3], [1, 30, 0]] as const) {
      const lines = generateLog({ dialect: 'v4', seed: 4, turns, compactEvery, imageOffload: true }).text.split('\n');
      let emptied = 0;
      const text = lines.map((line) => {
        if (!line) return line;
        const e = JSON.parse(line);
        if (e.type !== 'assistant/message' || e.seq % every !== 0) return line;
        e.data.message.content = [];
        emptied++;
        return JSON.stringify(e);
      }).join('\n');
      const engine = new Engine();
      const { count } = await engine.load({ kind: 'text', text, name: 'silent.jsonl' }, () => {});
      const session = foldSession(readLogText(text));
      let silentOnSurface = 0;
      for (let i = 0; i < count; i += 3) {
        const surface = foldSurface(session.events.slice(0, i + 1), session.read.dialect).state;
        const expected = deriveMessages(surface, session.eventAt);
        silentOnSurface = Math.max(silentOnSurface, surface.nodes.length - expected.length);
        for (const from of [0, 1, 2, Math.floor(expected.length / 2), Math.max(0, expected.length - 3), expected.length + 2]) {
          const page = engine.messages(i, { from, count: 4 });
          expect(page.count, `index ${i}`).toBe(expected.length);
          expect(page.messages, `index ${i} from ${from}`).toEqual(expected.slice(from, from + 4));
        }
      }
      // Both ways are taken: a few silent nodes looked up one by one, and more than that (a walk of the surface).
      if (every === 1) expect(silentOnSurface).toBeGreaterThan(SILENT_LOOKUPS);
      else expect([emptied <= SILENT_LOOKUPS, silentOnSurface > 1]).toEqual([true, true]);
    }
  });

  it('answers through the message protocol, errors included', async () => {
    const engine = new Engine();
    const posted: any[] = [];
    await engine.handle({ id: 1, op: 'rows', from: 0, count: 10 }, (m) => posted.push(m));
    expect(posted).toEqual([{ id: 1, ok: false, error: 'no log loaded' }]);
  });
});

describe('analyses riding on the replay walk', () => {
  it('give the same prompt and request analysis as their own walk', async () => {
    const { analyzePrompts, startPromptAnalysis, factsOf, surfaceBeforeOf } = await import('../../src/core/requests/analyze.ts');
    const session = foldSession(readLogText(generateLog({ dialect: 'v4', seed: 6, turns: 5, compactEvery: 2 }).text));
    const run = startPromptAnalysis(session.read, factsOf(session.events));
    const replay = Replay.walk(session, 64, run.visitors);
    const riding = run.finish(replay.finalState, surfaceBeforeOf(replay), session.eventAt);
    const alone = analyzePrompts(session);
    expect(JSON.stringify(riding.requests)).toBe(JSON.stringify(alone.requests));
    expect(riding.findings).toEqual(alone.findings);
    expect(riding.runtimeContext.snapshots).toEqual(alone.runtimeContext.snapshots);
  });

  it('a rider that throws is stopped and reported, and the index is still built', async () => {
    const { guardVisitors } = await import('../../src/core/surface/walk.ts');
    const session = foldSession(readLogText(generateLog({ dialect: 'v0', seed: 2, turns: 2 }).text));
    let calls = 0;
    const guarded = guardVisitors([{ after: () => { calls++; if (calls === 10) throw new Error('boom'); } }]);
    const replay = Replay.walk(session, 2048, [guarded.visitor]);
    expect(replay.index.count).toBe(session.events.length);
    expect(calls).toBe(10);
    expect((guarded.error() as Error).message).toBe('boom');
  });
});

describe('a call detail on a long context (issue #15)', () => {
  it('derives the window of messages it shows and does not hash the whole request (which serialized every message)', async () => {
    const text = generateLog({ dialect: 'v0', seed: 5, turns: 8, long: true }).text;
    const engine = new Engine();
    const summary = await engine.load({ kind: 'text', text, name: 'long.jsonl' }, () => {});
    const last = summary.requests.length - 1;
    const total = summary.requests[last].messageCount;
    expect(total).toBeGreaterThan(300);
    const stringify = vi.spyOn(JSON, 'stringify');
    const detail = engine.request(last);
    const serialized = stringify.mock.calls.length;
    stringify.mockRestore();
    expect(detail.messageWindow).toEqual({ from: total - detail.request.messages.length, total });
    expect(detail.request.messages.length).toBeLessThan(total);
    // Hashing the request serialized every message of it (one call per message): a long session's last call has tens of thousands.
    expect(serialized).toBeLessThan(detail.request.messages.length);
  });
});
