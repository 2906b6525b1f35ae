import { describe, expect, it } from 'vitest';
import { foldProjections } from '../../src/core/projections/index.ts';
import { tokenUsageUnit } from '../../src/core/projections/units/token-usage.ts';
import { estimateMessage } from '../../src/core/messages/estimate.ts';
import { evs, hdr } from './fixtures.ts';

const usage = (inputTokens: number, outputTokens: number, cacheReadTokens?: number) =>
  ({ inputTokens, outputTokens, ...(cacheReadTokens === undefined ? {} : { cacheReadTokens }) });
const chunk = (turn: number, step: number, u: object) => ({ turn, step, chunk: { type: 'usage', usage: u } });
const user = (id: string, text: string) => ({ id, role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' } });
const assistant = (text: string, u?: object) => ({
  turn: 1, step: 1,
  message: { id: 'a', role: 'assistant', content: [{ type: 'text', text }], source: { kind: 'model' } },
  ...(u ? { usage: u } : {}),
});

describe('estimate (spec §4.9)', () => {
  it('prices 4 chars per token plus block and role framing', () => {
    expect(estimateMessage({ content: [{ type: 'text', text: '12345' }] })).toBe(2 + 4 + 4);
    expect(estimateMessage({ content: [{ type: 'tool-call', name: 'bash', arguments: '{"a":1}' }] })).toBe(1 + 2 + 4 + 4);
    expect(estimateMessage({ content: [{ type: 'tool-result', content: [{ type: 'text', text: 'ok' }] }] })).toBe(1 + 4 + 4 + 4);
  });
});

describe('tokenUsage (v1)', () => {
  it('a chunk and the later message of the same step replace each other; a new step adds', () => {
    const events = evs(
      ['assistant/chunk', chunk(1, 1, usage(10, 2))],
      ['assistant/message', { ...assistant('hi', usage(10, 3, 4)) }, { surfaceOp: 'append' }],
      ['assistant/chunk', chunk(1, 2, usage(5, 1))],
    );
    const r = foldProjections(hdr(), events);
    expect(r.snapshot().values.tokenUsage).toEqual({ uncachedInputTokens: 15, outputTokens: 4, cacheReadTokens: 4, cacheWriteTokens: 0 });
  });
  it('an identical repeat keeps the reference', () => {
    const [a, b] = evs(['assistant/chunk', chunk(1, 1, usage(1, 1))], ['assistant/chunk', chunk(1, 1, usage(1, 1))]);
    const s = tokenUsageUnit.apply(tokenUsageUnit.init(null, 0), a);
    expect(tokenUsageUnit.apply(s, b)).toBe(s);
  });
});

describe('contextPressure (v4) and contextBreakdown (v2)', () => {
  it('pressure is the newest sample; projected adds surface movement since it; window from request/context', () => {
    const events = evs(
      ['request/header', { header: { config: {}, system: 'x'.repeat(40), tools: [] }, reason: 'initial' }],
      ['request/context', { provider: 'p', model: 'm', contextWindow: 1000 }],
      ['user/message', user('u1', 'hello world!'), { surfaceOp: 'append' }],
      ['assistant/chunk', chunk(1, 1, usage(100, 5, 20))],
      ['assistant/message', assistant('12345678', usage(100, 5, 20)), { surfaceOp: 'append' }],
    );
    const values = foldProjections(hdr(), events).snapshot().values;
    // user: ceil(12/4)+4+4 = 11; assistant: ceil(8/4)+4+4 = 10 (appended after its own sample).
    expect(values.contextPressure).toEqual({ contextWindow: 1000, pressureTokens: 120, projectedTokens: 130 });
    expect(values.contextBreakdown).toEqual({ systemTokens: 14, toolsTokens: 0, messageTokens: 21 });
  });

  it('a compaction claim prices the adjacent replace; a claim-less replace adds 0', () => {
    const events = evs(
      ['user/message', user('u1', 'x'.repeat(40)), { surfaceOp: 'append' }],
      ['compaction/summary', { shadowedRange: { start: 0, end: 0 }, shadowedSeqs: [0], shadowedTokenCount: 18 }],
      ['user/message', user('s', 'sum'), { surfaceOp: { op: 'replace', start: 0, end: 0 }, sourceEventSeqs: [0] }],
      ['user/message', user('s2', 'again'), { surfaceOp: { op: 'replace', start: 2, end: 2 }, sourceEventSeqs: [2] }],
    );
    const r = foldProjections(hdr(), events, { history: true });
    expect((r.snapshotAt(0).values.contextBreakdown as any).messageTokens).toBe(18);
    expect((r.snapshotAt(2).values.contextBreakdown as any).messageTokens).toBe(9);
    expect((r.snapshot().values.contextBreakdown as any).messageTokens).toBe(9);
    expect(r.snapshot().failures).toBeUndefined();
  });

  it('a replace under a claim for another range throws; only the meter units fail', () => {
    const events = evs(
      ['user/message', user('u1', 'a'), { surfaceOp: 'append' }],
      ['user/message', user('u2', 'b'), { surfaceOp: 'append' }],
      ['compaction/prune', { shadowedRange: { start: 0, end: 0 }, shadowedSeqs: [0], shadowedTokenCount: 9 }],
      ['user/message', user('s', 'c'), { surfaceOp: { op: 'replace', start: 1, end: 1 }, sourceEventSeqs: [1] }],
      ['session/title', { title: 'still folding', messageSeqs: [0], source: { kind: 'fallback' } }],
    );
    const r = foldProjections(hdr(), events);
    const snap = r.snapshot();
    const message = 'token surface: replace at seq 3 over range 1-1 has no adjacent shadow price (armed claim covers 0-0)';
    expect(snap.failures).toEqual({
      contextPressure: { seq: 3, message, kind: 'threw' },
      contextBreakdown: { seq: 3, message, kind: 'threw' },
    });
    expect(r.cell('contextBreakdown')!.observedSeq).toBe(2);
    expect(snap.values.title).toBe('still folding');
    expect(r.cell('title')!.observedSeq).toBe(4);
  });
});
