import { summaryFromWire, type WireSummary } from '../../src/worker/request-rows-wire.ts';
import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/core/compare/compare.ts';
import { loadRun } from '../../src/core/compare/run.ts';
import { generateFork, generateLog, generateVariant } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { eventPreview } from '../../src/core/replay/preview.ts';
import { foldSurface } from '../../src/core/surface/fold.ts';
import { CompareHost } from '../../src/worker/compare-host.ts';
import type { CompareAt, CompareRequest, CompareView, RowExplanation } from '../../src/worker/compare-protocol.ts';
import { Engine } from '../../src/worker/engine.ts';
import type { LoadSummary } from '../../src/worker/protocol.ts';

/**
 * The worker's compare slot (issue #20): the app's engine holds A, the slot
 * holds B, each loaded by the Engine as when it is the only log open; the
 * report equals the CLI's (loadRun on the same text) and the side-by-side
 * panels equal the core's fold at each cursor.
 */
/** Omit that distributes over the request union. */
type Body = CompareRequest extends infer R ? (R extends CompareRequest ? Omit<R, 'id'> : never) : never;

async function ask<T>(host: CompareHost, req: Body): Promise<T> {
  let reply: { ok: boolean; result?: unknown; error?: string } | undefined;
  await host.handle({ ...req, id: 1 } as CompareRequest, (msg) => { if (!('progress' in (msg as object))) reply = msg as typeof reply; });
  if (!reply?.ok) throw new Error(reply?.error ?? 'no reply');
  return reply.result as T;
}

async function open(textA: string, textB: string) {
  const engine = new Engine();
  const summaryA = await engine.load({ kind: 'text', text: textA, name: 'a.jsonl' }, () => {});
  const host = new CompareHost(engine);
  // As the page's compare client reads it: the Requests rows come packed.
  const summaryB: LoadSummary = summaryFromWire(await ask<WireSummary>(host, { op: 'compare-load', source: { kind: 'text', text: textB, name: 'b.jsonl' } }));
  const view = await ask<CompareView>(host, { op: 'compare', names: { a: 'a.jsonl', b: 'b.jsonl' } });
  return { host, summaryA, summaryB, view };
}

describe('compare in the worker', () => {
  it('reports what the CLI reports, and the side-by-side surfaces equal the fold at both cursors', async () => {
    const { parent, child } = generateFork({ dialect: 'v4', seed: 6, turns: 4, afterTurn: 2, childTurns: 2 });
    const { host, summaryA, summaryB, view } = await open(parent.text, child.text);
    const cli = compareRuns(loadRun(readLogText(parent.text), 'a.jsonl').run, loadRun(readLogText(child.text), 'b.jsonl').run);
    expect(view.failedB).toBeNull();
    expect(view.report).toEqual(JSON.parse(JSON.stringify(cli)));
    expect(view.report.fork).toMatchObject({ child: 'b' });

    const eventsA = readLogText(parent.text).events;
    const eventsB = readLogText(child.text).events;
    const first = view.report.firstDivergence!;
    for (const [ia, ib] of [[0, 0], [summaryA.requests[first.callA - 1].cutIndex - 1, summaryB.requests[first.callB - 1].cutIndex - 1], [summaryA.count - 1, summaryB.count - 1]]) {
      const at = await ask<CompareAt>(host, { op: 'compare-at', a: ia, b: ib, window: { from: 0, count: 2000 } });
      const foldA = foldSurface(eventsA.slice(0, ia + 1), 'v4').state;
      const foldB = foldSurface(eventsB.slice(0, ib + 1), 'v4').state;
      const rows = at.surface.pairs;
      expect(at.surface.count).toBe(rows.length);
      expect([at.a!.nodeCount, at.b!.nodeCount]).toEqual([foldA.nodes.length, foldB.nodes.length]);
      expect(rows.flatMap((p) => (p.na ? [p.na.seq] : []))).toEqual(foldA.nodes);
      expect(rows.flatMap((p) => (p.nb ? [p.nb.seq] : []))).toEqual(foldB.nodes);
      // Every node of each side is in exactly one paired row, in order.
      expect(rows.filter((p) => p.a !== null).map((p) => p.a)).toEqual(foldA.nodes.map((_, i) => i));
      expect(rows.filter((p) => p.b !== null).map((p) => p.b)).toEqual(foldB.nodes.map((_, i) => i));
      expect(at.surface.same).toBe(rows.filter((p) => p.match === 'same').length);
      expect(at.projections.length).toBeGreaterThan(5);
      expect(at.projections.every((u) => u.a?.observedSeq === at.a!.seq)).toBe(true);
    }
    // Before the cut both sides hold the same inherited surface: every node pairs as the same message.
    const atCut = await ask<CompareAt>(host, { op: 'compare-at', a: summaryA.requests[first.callA - 2].cutIndex - 1, b: summaryB.requests[first.callB - 2].cutIndex - 1 });
    expect(atCut.surface.pairs.every((p) => p.match === 'same')).toBe(true);
    expect(atCut.surface.same).toBe(atCut.surface.count);
    expect(atCut.context.diff?.identical ?? true).toBe(true);
  });

  it('sends the paired rows of the window asked for, the same rows the whole list has there (issue #15)', async () => {
    const { parent, child } = generateFork({ dialect: 'v4', seed: 6, turns: 6, afterTurn: 3, childTurns: 3 });
    const { host, summaryA, summaryB } = await open(parent.text, child.text);
    const whole = await ask<CompareAt>(host, { op: 'compare-at', a: summaryA.count - 1, b: summaryB.count - 1, window: { from: 0, count: 2000 } });
    expect(whole.surface.count).toBeGreaterThan(40);
    const from = Math.floor(whole.surface.count / 3);
    const part = await ask<CompareAt>(host, { op: 'compare-at', a: summaryA.count - 1, b: summaryB.count - 1, window: { from, count: 25 } });
    expect(part.surface).toEqual({ ...whole.surface, from, pairs: whole.surface.pairs.slice(from, from + 25) });
    // Each row sent carries its node's preview, made from its event.
    const bySeq = (text: string) => new Map(readLogText(text).events.map((e) => [e.seq, e]));
    const [eventsA, eventsB] = [bySeq(parent.text), bySeq(child.text)];
    const previews = whole.surface.pairs.flatMap((p) => [[p.na, eventsA] as const, [p.nb, eventsB] as const]).filter(([n]) => n !== null);
    expect(previews.length).toBeGreaterThan(40);
    for (const [n, events] of previews) expect(n!.preview).toBe(eventPreview(events.get(n!.seq)!));
    // Past the end: no rows, the same totals.
    const past = await ask<CompareAt>(host, { op: 'compare-at', a: summaryA.count - 1, b: summaryB.count - 1, window: { from: whole.surface.count + 5, count: 25 } });
    expect([past.surface.pairs.length, past.surface.count, past.surface.same]).toEqual([0, whole.surface.count, whole.surface.same]);
  });

  it('stepped from cursor to cursor, it answers as a new host at each pair of cursors: projected nodes, steps back and a new B included (issue #15)', async () => {
    const { parent, child } = generateFork({ dialect: 'v4', seed: 11, turns: 12, afterTurn: 5, childTurns: 7, imageOffload: true });
    const { host, summaryA, summaryB } = await open(parent.text, child.text);
    const nA = summaryA.count;
    const nB = summaryB.count;
    // Forward in small and large steps, B alone, A alone, then back over the logs (across projections).
    const cursors: [number, number][] = [];
    for (let k = 0; k <= 24; k++) cursors.push([Math.floor(((nA - 1) * k) / 24), Math.floor(((nB - 1) * k) / 24)]);
    for (let k = 1; k <= 6; k++) cursors.push([nA - 1, nB - 1 - k], [nA - 1 - k, nB - 7]);
    for (let k = 24; k >= 0; k -= 3) cursors.push([Math.floor(((nA - 1) * k) / 24) + 1, Math.floor(((nB - 1) * k) / 24)]);
    const all = { from: 0, count: 100_000 };
    let projected = 0;
    const check = async (steps: [number, number][]) => {
      for (const [a, b] of steps) {
        const stepped = await ask<CompareAt>(host, { op: 'compare-at', a, b, window: all });
        const fresh = await ask<CompareAt>((await open(parent.text, child.text)).host, { op: 'compare-at', a, b, window: all });
        expect(stepped.surface).toEqual(fresh.surface);
        expect([stepped.a, stepped.b]).toEqual([fresh.a, fresh.b]);
        projected += stepped.surface.pairs.filter((p) => p.na?.projected || p.nb?.projected).length;
      }
    };
    await check([...cursors, [nA - 1, nB - 1]]);
    // A new B: its nodes are keyed anew, and A's too (its last side, at the end, is not reused as it was keyed).
    await ask<LoadSummary>(host, { op: 'compare-load', source: { kind: 'text', text: child.text, name: 'b.jsonl' } });
    await check([[nA - 2, nB - 1], ...cursors.slice(0, 8).reverse()]);
    expect(projected).toBeGreaterThan(0);
  });

  it('explains a divergence with the part that changed', async () => {
    const opts = { dialect: 'v0' as const, seed: 5, turns: 4, compactEvery: 0 };
    const a = generateLog(opts).text;
    const k = loadRun(readLogText(a), 'a').run.requests.findIndex((r, i) => i > 4 && r.step > 1) + 1;
    const { host, view } = await open(a, generateVariant(opts, { atCall: k, change: 'model' }).text);
    expect(view.report.firstDivergence).toMatchObject({ callA: k, callB: k, what: 'config' });
    const why = await ask<RowExplanation>(host, { op: 'compare-explain', row: view.report.firstDivergence!.row });
    expect(why.explanation!.config.map((c) => c.key)).toEqual(['model']);
    expect(why.explanation!.system!.lines!.some((l) => l.kind === 'added')).toBe(true);
    expect((await ask<RowExplanation>(host, { op: 'compare-explain', row: 0 })).explanation).toBeNull();
  });

  it('a B that is not a log: the report says why, A is still shown, nothing throws', async () => {
    const a = generateLog({ dialect: 'v4', seed: 2, turns: 1 }).text;
    const engine = new Engine();
    await engine.load({ kind: 'text', text: a, name: 'a.jsonl' }, () => {});
    const host = new CompareHost(engine);
    await expect(ask(host, { op: 'compare-load', source: { kind: 'bytes', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 4, 5, 6, 7, 8]), name: 'photo.png' } })).rejects.toThrow();
    const view = await ask<CompareView>(host, { op: 'compare', names: { a: 'a.jsonl', b: 'photo.png' } });
    expect(view.failedB).toMatch(/not|DSH/i);
    expect(view.report.notes).toEqual([expect.objectContaining({ side: 'b', kind: 'not-dsh' })]);
    expect(view.report.gaps.every((g) => g.side === 'a')).toBe(true);
    const at = await ask<CompareAt>(host, { op: 'compare-at', a: 3, b: 0 });
    expect(at.b).toBeNull();
    expect(at.surface.pairs.every((p) => p.match === 'a-only')).toBe(true);
  });
});

describe('compare mode when a file changed on disk', () => {
  it('says so once, with whichever answer met it, as the open log\'s answers do', async () => {
    const text = generateLog({ dialect: 'v4', seed: 22, turns: 200 }).text;
    const bytes = new TextEncoder().encode(text);
    let gone = false;
    const engine = new Engine({
      readBack: () => ({ size: bytes.length, read: (a: number, b: number) => { if (gone) throw new Error('the file changed on disk after it was opened'); return bytes.slice(a, b); } }),
    });
    const summary = await engine.load({ kind: 'file', file: new Blob([bytes]), name: 'a.jsonl' }, () => {});
    const host = new CompareHost(engine);
    await ask(host, { op: 'compare-load', source: { kind: 'text', text, name: 'b.jsonl' } });
    await ask(host, { op: 'compare', names: { a: 'a.jsonl', b: 'b.jsonl' } });
    gone = true;
    const replies: { ok: boolean; lost?: string }[] = [];
    // Cursors far apart: A's lines there are in no cache (a 6 MB log).
    for (const at of [1, Math.floor(summary.count / 3), Math.floor(summary.count / 2)]) {
      await host.handle({ op: 'compare-at', a: at, b: at, window: { from: 0, count: 50 }, id: at } as CompareRequest, (msg) => { if (!('progress' in (msg as object))) replies.push(msg as { ok: boolean; lost?: string }); });
    }
    expect(replies).toHaveLength(3);
    const lost = replies.filter((r) => r.lost);
    expect(lost).toHaveLength(1);
    expect(lost[0].lost).toMatch(/^a\.jsonl: the file changed on disk/);
  });
});
