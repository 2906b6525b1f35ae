import { describe, expect, it } from 'vitest';
import { readLogText } from '../../src/core/log/reader.ts';
import { buildRequests } from '../../src/core/requests/analyze.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { events, header, jsonl, userMessage } from '../helpers/log-builder.ts';

/** §8.1 step 2: a started step that no settlement answers yields no request, and says so. */
describe('request.step-unsettled', () => {
  const answer = (step: number) => ({
    turn: 1, step,
    message: { id: `a${step}`, role: 'assistant', content: [{ type: 'text', text: 'ok' }], source: { kind: 'model', provider: 'p', model: 'm' } },
    stream: [],
  });
  const log = (withSecondAnswer: boolean) => {
    const rows = events(
      ['turn/start', { turn: 1 }],
      ['step/start', { turn: 1, step: 1 }],
      ['user/message', userMessage('u1', 'hi'), { surfaceOp: 'append' }],
      ['request/header', { header: { config: { provider: 'p', model: 'm' } }, reason: 'initial' }],
      ['assistant/message', answer(1), { surfaceOp: 'append' }],
      ['step/end', { turn: 1, step: 1 }],
      ['step/start', { turn: 1, step: 2 }],
      ...(withSecondAnswer ? [['assistant/message', answer(2), { surfaceOp: 'append' }] as [string, unknown, Record<string, unknown>]] : []),
    );
    return buildRequests(foldSession(readLogText(jsonl([header({ version: 3, isSeeded: false }), ...rows]))));
  };

  it('flags the interrupted step (info) and rebuilds the requests it can', () => {
    const list = log(false);
    expect(list.requests.map((r) => r.cut)).toEqual([4]);
    expect(list.findings.filter((f) => f.code === 'request.step-unsettled')).toEqual([
      expect.objectContaining({ severity: 'info', seq: 6, message: expect.stringContaining('step 1.2') }),
    ]);
  });

  it('says nothing when every step is settled', () => {
    const list = log(true);
    expect(list.requests.map((r) => r.cut)).toEqual([4, 7]);
    expect(list.findings.some((f) => f.code === 'request.step-unsettled')).toBe(false);
  });
});
