import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { Engine } from '../../src/worker/engine.ts';
import { FollowHost } from '../../src/worker/follow-host.ts';
import type { FollowUpdate, FollowUpdateOnWire } from '../../src/worker/follow-protocol.ts';
import { summaryFromWire } from '../../src/worker/request-rows-wire.ts';
import type { LoadSummary } from '../../src/worker/protocol.ts';
import { randomCuts } from './follow-check.ts';

const enc = new TextEncoder();

/** One request through the host, as the worker would answer it. */
async function ask(host: FollowHost, req: Parameters<FollowHost['handle']>[0]): Promise<FollowUpdate> {
  let answer: { ok: boolean; result?: FollowUpdateOnWire; error?: string } | undefined;
  await host.handle(req, (msg) => { answer = msg as typeof answer; });
  if (!answer?.ok) throw new Error(answer?.error ?? 'no answer');
  // As the page reads it: the summary's Requests rows come packed.
  const { summary, ...rest } = answer.result!;
  return { ...rest, summary: summary && summaryFromWire(summary) };
}

/** What a fresh engine gives for the committed part of `text` (up to its last newline). */
async function reference(text: string): Promise<LoadSummary> {
  return new Engine().load({ kind: 'text', text: text.slice(0, text.lastIndexOf('\n') + 1), name: 'ref' }, () => {});
}

describe('the worker follows a growing log (issue #21)', () => {
  it('each append that commits events refreshes the open log to a load of the bytes so far; queries answer the new events', async () => {
    const text = generateLog({ dialect: 'v4', seed: 8, turns: 4 }).text;
    const bytes = enc.encode(text);
    const engine = new Engine();
    const host = new FollowHost(engine);
    let from = 0;
    let refreshed = 0;
    for (const cut of [...randomCuts(bytes.length, 8, 12), bytes.length]) {
      const update = await ask(host, { id: 1, op: 'follow-append', bytes: bytes.slice(from, cut), reset: from === 0, name: 'live.jsonl' });
      from = cut;
      const so = new TextDecoder().decode(bytes.subarray(0, cut));
      if (!update.summary) continue;
      refreshed++;
      const ref = await reference(so);
      expect(update.summary.count).toBe(ref.count);
      expect(update.summary.lastSeq).toBe(ref.lastSeq);
      expect(update.summary.columns.seq).toEqual(ref.columns.seq);
      expect(update.summary.requests).toEqual(ref.requests);
      expect(update.summary.tornTail).toBeNull();
      expect(update.summary.diagnostics.some((d) => d.code === 'tail.torn')).toBe(false);
      expect(update.status.lastSeq).toBe(ref.lastSeq);
      // The engine answers about the newest event.
      const last = update.summary.count - 1;
      expect(engine.rows(last, 1)[0].seq).toBe(update.summary.columns.seq[last]);
    }
    expect(refreshed).toBeGreaterThan(3);
    const stopped = await ask(host, { id: 2, op: 'follow-stop' });
    const whole = await new Engine().load({ kind: 'text', text, name: 'whole' }, () => {});
    expect(stopped.summary!.count).toBe(whole.count);
    expect(stopped.summary!.diagnostics.map((d) => d.code)).toEqual(whole.diagnostics.map((d) => d.code));
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
