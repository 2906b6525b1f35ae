// The worker's follow slot checked against fresh loads (issues #21, #15): shared by the unit
// tests on generated logs and the corpus suite on real ones.
import { expect } from 'vitest';
import { Engine } from '../../src/worker/engine.ts';
import { FollowHost } from '../../src/worker/follow-host.ts';
import { FollowedRows } from '../../src/ui/follow/followed-rows.ts';
import type { FollowUpdate, FollowUpdateOnWire } from '../../src/worker/follow-protocol.ts';
import { summaryFromWire } from '../../src/worker/request-rows-wire.ts';
import type { LoadSummary } from '../../src/worker/protocol.ts';
import { END_ONLY } from './follow-check.ts';

/** Findings only the end of the log makes: the input's (END_ONLY), and a step or a tool update nothing settled by then. */
const NOT_YET = new Set([...END_ONLY, 'request.step-unsettled', 'request.tool-update-missing']);

/** One request through the host, as the worker would answer it. */
export async function ask(host: FollowHost, req: Parameters<FollowHost['handle']>[0]): Promise<FollowUpdate> {
  let answer: { ok: boolean; result?: FollowUpdateOnWire; error?: string } | undefined;
  // Through a structured clone with the worker's transfer list, as postMessage does: the worker's
  // side of every transferred buffer is detached, so one it still read would show here.
  await host.handle(req, (msg, transfer) => { answer = structuredClone(msg, { transfer }) as typeof answer; });
  if (!answer?.ok) throw new Error(answer?.error ?? 'no answer');
  // As the page reads it: the summary's Requests rows come packed.
  const { summary, ...rest } = answer.result!;
  return { ...rest, summary: summary && summaryFromWire(summary) };
}

/** The same columns, over the first `n` rows. */
function columnsUpTo(columns: LoadSummary['columns'], n: number): Record<string, number[]> {
  return Object.fromEntries(Object.entries(columns).map(([k, c]) => [k, Array.from(c as ArrayLike<number>).slice(0, n)]));
}

/**
 * What the followed engine answers about the committed part, checked against a fresh engine's load of
 * the same bytes: every logged event's row, the surface, prompt and projections at sampled cursors,
 * and every call the logged part cut. Only the restore's closers (synthetic events after the last
 * logged one) are not in the live log.
 */
export function expectSameLoggedPart(live: Engine, summary: LoadSummary, ref: Engine, refSummary: LoadSummary): void {
  const logged = refSummary.count - refSummary.syntheticCount;
  expect(summary.count).toBe(logged);
  expect(summary.syntheticCount).toBe(0);
  expect(summary.lastSeq).toBe(refSummary.lastSeq);
  expect(columnsUpTo(summary.columns, logged)).toEqual(columnsUpTo(refSummary.columns, logged));
  expect(summary.replacements).toEqual(refSummary.replacements.filter((r) => r.seq <= summary.lastSeq));
  expect(summary.contextSnapshots).toEqual(refSummary.contextSnapshots.filter((c) => c.seq <= summary.lastSeq));
  expect(summary.projectionUnits.map((u) => [u.key, Array.from(u.changes)])).toEqual(refSummary.projectionUnits.map((u) => [u.key, Array.from(u.changes).filter((s) => s <= summary.lastSeq)]));
  // The findings so far: the reference's, less the end-of-log ones and any at the closers' seqs.
  const soFar = (ds: LoadSummary['diagnostics']) => ds.filter((d) => !NOT_YET.has(d.code) && (d.seq === undefined || d.seq <= summary.lastSeq));
  expect(soFar(summary.diagnostics)).toEqual(soFar(refSummary.diagnostics));
  // A call the closers end is still running in the live log: its outcome is not known yet.
  const settled = (rows: LoadSummary['requests']) => rows.filter((r) => r.cutIndex < logged).map((r) => ({ ...r, outcome: r.outcome ?? null }));
  const liveCalls = settled(summary.requests);
  const refCalls = settled(refSummary.requests);
  expect(liveCalls.slice(0, -1)).toEqual(refCalls.slice(0, -1));
  expect(liveCalls.map(({ outcome: _o, ...r }) => r)).toEqual(refCalls.map(({ outcome: _o, ...r }) => r));
  for (const i of [0, logged >> 2, logged >> 1, logged - 2, logged - 1].filter((i) => i >= 0)) {
    const query = { index: i, window: { from: 0, count: 50 }, transcript: { from: 0, count: 50 } };
    const head = live.state(query);
    expect(head).toEqual(ref.state(query));
    // And the surface's end, where a live log's new nodes arrive.
    const tail = { index: i, window: { from: Math.max(0, head.nodeCount - 50), count: 50 } };
    expect(live.state(tail)).toEqual(ref.state(tail));
    expect(live.prompt(i)).toEqual(ref.prompt(i));
    // A unit's next change may be one the closers make: past the live log's end, so none yet.
    const beforeClosers = (units: ReturnType<Engine['projectionsAtIndex']>) => units.map((u) => ({ ...u, nextChange: u.nextChange !== null && u.nextChange > summary.lastSeq ? null : u.nextChange }));
    expect(live.projectionsAtIndex(i)).toEqual(beforeClosers(ref.projectionsAtIndex(i)));
    expect(live.rows(i, Math.min(20, logged - i))).toEqual(ref.rows(i, Math.min(20, logged - i)));
  }
  for (let k = 0; k < liveCalls.length - 1; k++) expect(live.request(k)).toEqual(ref.request(k));
}

/**
 * Follows a plain log written in pieces cut at `cuts` through the worker's follow slot. After every
 * append that commits events the open log is the committed part as a fresh load of those bytes shows
 * it; after stop it is the whole file's load. Gives how many appends refreshed the open log.
 */
export async function followEngineInPieces(bytes: Uint8Array, cuts: readonly number[]): Promise<number> {
  const engine = new Engine();
  const host = new FollowHost(engine);
  // The page's side: each update's rows put after those it holds.
  const rows = new FollowedRows();
  let from = 0;
  let refreshed = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < bytes.length), bytes.length]) {
    const sent = await ask(host, { id: 1, op: 'follow-append', bytes: bytes.slice(from, cut), reset: from === 0, name: 'live.jsonl' });
    from = cut;
    if (!sent.summary) continue;
    // A refresh after the first sends only the rows appended since the last one.
    if (refreshed > 0) expect(sent.from).toBeGreaterThan(0);
    expect(sent.from + sent.summary.columns.seq.length).toBe(sent.summary.count);
    const update = { ...sent, summary: rows.take({ from: sent.from, listsFrom: sent.listsFrom, summary: sent.summary }) };
    refreshed++;
    const so = new TextDecoder().decode(bytes.subarray(0, cut));
    const refEngine = new Engine();
    const ref = await refEngine.load({ kind: 'text', text: so.slice(0, so.lastIndexOf('\n') + 1), name: 'ref' }, () => {});
    expectSameLoggedPart(engine, update.summary, refEngine, ref);
    expect(update.summary.tornTail).toBeNull();
    expect(update.summary.diagnostics.some((d) => d.code === 'tail.torn')).toBe(false);
    expect(update.status.lastSeq).toBe(ref.lastSeq);
    expect(update.status.events).toBe(update.summary.count);
  }
  // Following stops: the input ends, and the restore and every end-of-log finding apply, as for the whole file.
  const stoppedSent = await ask(host, { id: 2, op: 'follow-stop' });
  expect(stoppedSent.from).toBe(0);
  const stopped = { ...stoppedSent, summary: rows.take({ from: 0, listsFrom: stoppedSent.listsFrom, summary: stoppedSent.summary! }) };
  const wholeEngine = new Engine();
  const whole = await wholeEngine.load({ kind: 'text', text: new TextDecoder().decode(bytes), name: 'whole' }, () => {});
  const { loadMs: _a, fingerprint: _f, name: _n, ...got } = stopped.summary!;
  const { loadMs: _b, fingerprint: _g, name: _m, ...want } = whole;
  expect(got).toEqual(want);
  expect(stopped.summary!.fingerprint).toBe(whole.fingerprint);
  const query = { index: whole.count - 1, window: { from: 0, count: 50 } };
  expect(engine.state(query)).toEqual(wholeEngine.state(query));
  if (whole.requests.length) expect(engine.request(whole.requests.length - 1)).toEqual(wholeEngine.request(whole.requests.length - 1));
  return refreshed;
}
