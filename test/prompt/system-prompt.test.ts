import { describe, expect, it } from 'vitest';
import { readLogText } from '../../src/core/log/reader.ts';
import { analyzePrompts } from '../../src/core/requests/analyze.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { events, header, jsonl, userMessage } from '../helpers/log-builder.ts';

/** A system message; `emptyBlock`: an empty one as one empty text block rather than no content (both dormant, §5.1). */
const sys = (id: string, text: string, emptyBlock = false) => ({
  id, role: 'system', content: text === '' && !emptyBlock ? [] : [{ type: 'text', text }], source: { kind: 'system-prompt' },
});
const replaceOf = (s: number) => ({ surfaceOp: { op: 'replace', startSeq: s, endSeq: s }, sourceEventSeqs: [s] });
const answer = (id: string, step: number) => ({
  turn: 1, step,
  message: { id, role: 'assistant', content: [{ type: 'text', text: 'ok' }], source: { kind: 'model', provider: 'p', model: 'm' } },
  stream: [{ type: 'chunk', time: 1, chunk: { type: 'finish', reason: { kind: 'stop' } } }],
});
const hdr = { header: { config: { provider: 'p', model: 'm' } } };

/** V4: head, an in-history tail append, then a consolidation (tail cleared, head replaced). */
function v4Log(emptyBlock = false) {
  const rows = events(
    ['turn/start', { turn: 1 }], // 0
    ['step/start', { turn: 1, step: 1 }], // 1
    ['system/message', { turn: 1, step: 1, message: sys('s1', 'base') }, { surfaceOp: 'append' }], // 2
    ['user/message', userMessage('u1', 'hi'), { surfaceOp: 'append' }], // 3
    ['request/header', { ...hdr, reason: 'initial' }], // 4
    ['request/context', { provider: 'p', model: 'm', systemPromptUpdate: 'in-history' }], // 5
    ['assistant/message', answer('a1', 1), { surfaceOp: 'append' }], // 6
    ['step/end', { turn: 1, step: 1 }], // 7
    ['step/start', { turn: 1, step: 2 }], // 8
    ['system/message', { turn: 1, step: 2, message: sys('s2', 'base + plan') }, { surfaceOp: 'append' }], // 9: in-history append
    ['assistant/message', answer('a2', 2), { surfaceOp: 'append' }], // 10
    ['step/end', { turn: 1, step: 2 }], // 11
    ['step/start', { turn: 1, step: 3 }], // 12
    ['system/message', { turn: 1, step: 3, message: sys('s3', '', emptyBlock) }, replaceOf(9)], // 13: clear tail
    ['system/message', { turn: 1, step: 3, message: sys('s4', 'v2') }, replaceOf(2)], // 14: replace head
    ['request/header', { ...hdr, reason: 'series', startsSeries: true }], // 15
    ['request/context', { provider: 'p', model: 'm' }], // 16: no longer in-history
    ['assistant/message', answer('a3', 3), { surfaceOp: 'append' }], // 17
    ['step/end', { turn: 1, step: 3 }], // 18
    ['turn/end', { turn: 1, reason: { kind: 'completed' } }], // 19
  );
  return foldSession(readLogText(jsonl([header({ version: 4, isSeeded: false }), ...rows])));
}

describe('effective system prompt, newest (§5)', () => {
  const session = v4Log();
  const a = analyzePrompts(session);

  it('folds cleanly', () => {
    expect(session.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
    expect(a.systemPromptSource).toBe('system-message');
  });

  it('takes latest non-dormant node text at any seq, with the event that set it', () => {
    const sp = a.systemPrompt;
    expect(sp.at(1).text).toBeNull();
    expect(sp.at(2)).toMatchObject({ text: 'base', sourceSeq: 2, changedAt: true });
    expect(sp.at(9)).toMatchObject({ text: 'base + plan', sourceSeq: 9, setBy: 'system/message' });
    expect(sp.at(13)).toMatchObject({ text: 'base', sourceSeq: 2, setBySeq: 13 });
    expect(sp.at(19)).toMatchObject({ text: 'v2', sourceSeq: 14, setBySeq: 14, changedAt: false });
  });

  it('keeps the prompt-change history with each op', () => {
    expect(a.systemPrompt.commits).toEqual([
      { seq: 2, op: 'append', text: 'base' },
      { seq: 9, op: 'append', text: 'base + plan' },
      { seq: 13, op: 'clear-tail', text: '', replaces: 9 },
      { seq: 14, op: 'replace-head', text: 'v2', replaces: 2 },
    ]);
  });

  it('requests carry system messages in place; consolidation breaks the prefix as a system change', () => {
    const rs = a.requests.requests;
    expect(rs.map((r) => [r.cut, r.system.text, r.system.activeSystemMessages])).toEqual([[6, 'base', 1], [10, 'base + plan', 2], [17, 'v2', 1]]);
    expect(rs[1].prefix).toMatchObject({ extendsPrevious: true, reasons: [] });
    expect(rs[2].prefix.reasons).toEqual(['system-change', 'new-series']);
    expect(rs[2].prefix.keptMessages).toBe(0);
    expect(a.findings.filter((f) => f.code === 'request.system-multiple')).toEqual([]);
  });
});

describe('a tail cleared to one empty text block is dormant too (§5.1)', () => {
  it('is not counted as an active system message: no request.system-multiple', () => {
    const a = analyzePrompts(v4Log(true));
    expect(a.requests.requests.map((r) => r.system.activeSystemMessages)).toEqual([1, 2, 1]);
    expect(a.findings.filter((f) => f.code === 'request.system-multiple')).toEqual([]);
  });
});
