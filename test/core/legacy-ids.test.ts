import { describe, expect, it } from 'vitest';
import { LegacyUpgrader } from '../../src/core/log/legacy.ts';
import type { LogEvent } from '../../src/core/log/types.ts';

const legacyResult = (seq: number, callId: string, surfaceOp?: unknown): LogEvent =>
  ({ type: 'tool/result', seq, time: seq, data: { turn: 1, step: 1, callId, content: [{ type: 'text', text: 'out' }], isError: false }, ...(surfaceOp ? { surfaceOp } : {}) }) as unknown as LogEvent;

describe('legacy upgrade: a content-only tool-result rewrite keeps its target message id', () => {
  it('finds the id of the message at the rewrite start, among many messages', () => {
    const up = new LegacyUpgrader('S', 'v0');
    // Messages with ids of their own at every third seq, legacy tool results in between.
    for (let seq = 0; seq < 3000; seq++) {
      const event = seq % 3 === 0
        ? ({ type: 'user/message', seq, time: seq, data: { id: `m${seq}`, role: 'user', content: [], source: { kind: 'user' } } } as unknown as LogEvent)
        : legacyResult(seq, `c${seq}`);
      up.upgrade(event);
    }
    const rewriteOf = (start: number, seq: number) => up.upgrade(legacyResult(seq, 'c', { start, end: start })).event.data.message.id;
    expect(rewriteOf(1500, 3000)).toBe('m1500');
    expect(rewriteOf(1501, 3001)).toBe('legacy-message:S:1501');
    expect(rewriteOf(0, 3002)).toBe('m0');
    // A start no message has: no id, as before.
    expect(rewriteOf(99_999, 3003)).toBeUndefined();
  });
});
