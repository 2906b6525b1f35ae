import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { deriveMessages } from '../../src/core/messages/derive.ts';
import { analyzePrompts, inspectRequests } from '../../src/core/requests/analyze.ts';
import { buildRequests } from '../../src/core/requests/analyze.ts';
import { canonicalHeader, callConfigEquals, foldRequestHeader, headerEquals } from '../../src/core/prompt/request-header.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { eventLookup, foldSurface } from '../../src/core/surface/fold.ts';
import { assistantData, events, header, jsonl, userMessage } from '../helpers/log-builder.ts';

const config = { provider: 'p', model: 'm' };
const chunk = (turn: number, step: number, c: unknown) => ({ turn, step, chunk: c });

describe('canonical header and equality (§6.1)', () => {
  it('keeps adapterDefaults only with a true flag, non-empty system and tools', () => {
    expect(canonicalHeader({ config, adapterDefaults: { reasoningEffort: false }, system: '', tools: [] })).toEqual({ config });
    const full = { config, adapterDefaults: { maxTokens: true }, system: 'S', tools: [{ name: 't' }] };
    expect(canonicalHeader(full)).toEqual(full);
    expect(Object.keys(canonicalHeader({ tools: [{ name: 't' }], system: 'S', config }))).toEqual(['config', 'system', 'tools']);
    expect(canonicalHeader({ config, system: '{{system}}', tools: '{{tools}}' })).toEqual({ config, system: '{{system}}', tools: '{{tools}}' });
  });

  it('compares config strictly, stop element-wise, tools by JSON text in order', () => {
    expect(callConfigEquals({ ...config, stop: ['a'] }, { ...config, stop: ['a'] })).toBe(true);
    expect(callConfigEquals({ ...config, stop: ['a'] }, config)).toBe(false);
    expect(callConfigEquals({ ...config, temperature: 1 }, { ...config, temperature: 1.0 })).toBe(true);
    const t = (p: Record<string, unknown>) => ({ config, tools: [{ name: 'a', parameters: p }] });
    expect(headerEquals(t({ x: 1, y: 2 }), t({ x: 1, y: 2 }))).toBe(true);
    expect(headerEquals(t({ x: 1, y: 2 }), t({ y: 2, x: 1 }))).toBe(false);
    expect(headerEquals({ config, system: 'a' }, { config, system: 'b' })).toBe(false);
    expect(headerEquals({ config, adapterDefaults: { maxTokens: true } }, { config })).toBe(false);
  });

  it('folds the latest header', () => {
    const evs = events(['request/header', { header: { config, system: 'A' }, reason: 'initial' }], ['request/header', { header: { config, system: '' }, reason: 'change' }]) as any;
    expect(foldRequestHeader(evs)).toEqual({ config });
    expect(foldRequestHeader([])).toBeUndefined();
  });
});

/** rc.8: one step with an errored attempt and a retry, then a tool round. */
function retryLog() {
  const rows = events(
    ['turn/start', { turn: 1 }], // 0
    ['step/start', { turn: 1, step: 1 }], // 1
    ['user/message', userMessage('u1', 'hi'), { surfaceOp: 'append' }], // 2
    ['request/header', { header: { config, system: 'S', tools: [{ name: 'read', description: 'd', parameters: {} }] }, reason: 'initial' }], // 3
    ['assistant/chunk', chunk(1, 1, { type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } })], // 4: cut 1
    ['assistant/chunk', chunk(1, 1, { type: 'finish', reason: { kind: 'error', failure: { code: 'EMPTY_RESPONSE' } } })], // 5
    ['assistant/chunk', chunk(1, 1, { type: 'block-start', index: 0, blockType: 'text' })], // 6: cut 2 (retry)
    ['assistant/chunk', chunk(1, 1, { type: 'usage', usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 8 } })], // 7
    ['assistant/chunk', chunk(1, 1, { type: 'finish', reason: { kind: 'stop' } })], // 8
    ['assistant/message', assistantData('a1', 'done'), { surfaceOp: 'append', sourceEventSeqs: [6, 7, 8] }], // 9
    ['step/end', { turn: 1, step: 1 }], // 10
    ['step/start', { turn: 1, step: 2 }], // 11
    ['request/header', { header: { config: { ...config, model: 'm2' }, system: 'S', tools: [{ name: 'read', description: 'd', parameters: {} }] }, reason: 'change' }], // 12
    ['assistant/chunk', chunk(1, 2, { type: 'finish', reason: { kind: 'stop' } })], // 13: cut 3
    ['assistant/message', assistantData('a2', 'bye', 1, 2), { surfaceOp: 'append', sourceEventSeqs: [13] }], // 14
    ['step/end', { turn: 1, step: 2 }], // 15
    ['turn/end', { turn: 1, reason: { kind: 'completed' } }], // 16
  );
  return foldSession(readLogText(jsonl([header(), ...rows])));
}

describe('rc.8 requests (§7.3, §8.2)', () => {
  const session = retryLog();
  const list = buildRequests(session);

  it('cuts at the first chunk of each attempt, again after an error finish', () => {
    expect(list.mode).toBe('chunk');
    expect(list.requests.map((r) => [r.cut, r.turn, r.step, r.attempt, r.messageCount, r.outcome])).toEqual([
      [4, 1, 1, 1, 1, 'error'], [6, 1, 1, 2, 1, 'stop'], [13, 1, 2, 1, 2, 'stop'],
    ]);
  });

  it('builds the exact loop request from header and derived messages', () => {
    const r = list.requests[2];
    expect(r.loopRequest).toEqual({ provider: 'p', model: 'm2', messages: r.messages, system: 'S', tools: [{ name: 'read', description: 'd', parameters: {} }], sessionId: 'test-session' });
    expect(r.exactness).toBe('exact');
    expect(r.system).toMatchObject({ text: 'S', where: 'header', seq: 12 });
    expect(r.tools).toEqual({ names: ['read'], scrubbed: false });
    expect(r.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(list.requests[0].hash).toBe(list.requests[1].hash);
    expect(r.hash).not.toBe(list.requests[1].hash);
  });

  it('writes as plain JSON (a list of calls, one inside another document): messages, loop request and hash in full', () => {
    const written = JSON.parse(JSON.stringify({ requests: list.requests }));
    list.requests.forEach((r, k) => {
      expect(written.requests[k].messages).toEqual(r.messages);
      expect(written.requests[k].loopRequest).toEqual(JSON.parse(JSON.stringify(r.loopRequest)));
      expect(written.requests[k].hash).toBe(r.hash);
      expect(written.requests[k].prefix).toEqual(r.prefix);
    });
  });

  it('analyzes the prefix: a retry keeps everything; a model change breaks the cache', () => {
    const [first, retry, next] = list.requests.map((r) => r.prefix);
    expect(first).toMatchObject({ firstCall: true, reasons: [] });
    expect(retry).toMatchObject({ extendsPrevious: true, keptMessages: 1, reasons: [] });
    expect(retry.keptBytes).toBe(retry.previousBytes);
    expect(retry.cacheReadTokens).toBe(8);
    expect(next).toMatchObject({ extendsPrevious: false, keptMessages: 1, previousMessageCount: 1, reasons: ['config-change'] });
  });

  it('exposes the per-call inspect fields', () => {
    const [first] = inspectRequests(list);
    expect(Object.keys(first)).toEqual(expect.arrayContaining(['cut', 'turn', 'step', 'attempt', 'messageCount', 'messages', 'header', 'config', 'toolNames', 'hash', 'prefix']));
  });
});

describe('rc.8 header findings (§10)', () => {
  it('flags a change equal to the previous header, resume with none, and a call with no header', () => {
    const rows = events(
      ['turn/start', { turn: 1 }],
      ['step/start', { turn: 1, step: 1 }],
      ['user/message', userMessage('u1', 'hi'), { surfaceOp: 'append' }],
      ['assistant/chunk', chunk(1, 1, { type: 'finish', reason: { kind: 'stop' } })], // 3: no header yet
      ['request/header', { header: { config }, reason: 'resume' }], // 4
      ['request/header', { header: { config, tools: [] }, reason: 'change' }], // 5
      ['assistant/message', assistantData('a1', 'x'), { surfaceOp: 'append', sourceEventSeqs: [3] }],
      ['step/end', { turn: 1, step: 1 }],
      ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
    );
    const a = analyzePrompts(foldSession(readLogText(jsonl([header(), ...rows]))));
    expect(a.findings.map((f) => [f.code, f.seq, f.severity])).toEqual([
      ['request.no-header', 3, 'warning'],
      ['request.header-reason', 4, 'warning'],
      ['request.header-noncanonical', 5, 'info'],
      ['request.header-reason', 5, 'warning'],
    ]);
  });
});

describe('format-4 header findings (§6.2, §6.4)', () => {
  const v4 = () => header({ version: 4, isSeeded: false });
  const tool = (name: string) => ({ name, description: name, parameters: { type: 'object' } });
  const findingsOf = (...middle: Parameters<typeof events>) => analyzePrompts(foldSession(readLogText(jsonl([v4(), ...events(
    ['turn/start', { turn: 1 }],
    ['step/start', { turn: 1, step: 1 }],
    ...middle,
    ['step/end', { turn: 1, step: 1 }],
    ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
  )])))).findings.filter((f) => f.code.startsWith('request.header') || f.code.startsWith('request.tool-update')).map((f) => [f.code, f.seq]);

  it('a series header repeats the header before it: one with none before, or a changed one, is flagged', () => {
    expect(findingsOf(['request/header', { header: { config }, reason: 'series' }])).toEqual([['request.header-reason', 2]]);
    expect(findingsOf(
      ['request/header', { header: { config }, reason: 'initial' }],
      ['request/header', { header: { config: { ...config, model: 'other' } }, reason: 'series' }],
    )).toEqual([['request.header-reason', 3]]);
    expect(findingsOf(
      ['request/header', { header: { config }, reason: 'initial' }],
      ['request/header', { header: { config }, reason: 'series', startsSeries: true }],
    )).toEqual([]);
  });

  it('tool names compare as sets: a header listing a name twice changes no tool, so no developer message is missing', () => {
    const initial: [string, unknown] = ['request/header', { header: { config, tools: [tool('bash'), tool('read_file'), tool('bash')] }, reason: 'initial' }];
    expect(findingsOf(initial, ['request/header', { header: { config: { ...config, maxTokens: 9 }, tools: [tool('bash'), tool('read_file')] }, reason: 'change' }])).toEqual([]);
    // A name really removed still wants its developer message.
    expect(findingsOf(initial, ['request/header', { header: { config, tools: [tool('bash')] }, reason: 'change' }])).toEqual([['request.tool-update-missing', 3]]);
  });
});

describe('why a call breaks the previous prefix (format 4)', () => {
  it('names each change that rewrote what the previous call sent, and not a replace of nodes appended after it', () => {
    const system = (id: string, text: string) => ({ turn: 1, step: 1, message: { id, role: 'system', content: [{ type: 'text', text }], source: { kind: 'system-prompt' } } });
    const result = (text: string) => ({ turn: 1, step: 1, message: { id: 'r1', role: 'tool', toolCallId: 'c1', content: [{ type: 'text', text }], source: { kind: 'tool', callId: 'c1' } } });
    const reply = (id: string, step: number) => ({ ...assistantData(id, 'ok', 1, step), stream: [] });
    const replace = (seq: number) => ({ surfaceOp: { op: 'replace', startSeq: seq, endSeq: seq }, sourceEventSeqs: [seq] });
    const rows = events(
      ['turn/start', { turn: 1 }],
      ['step/start', { turn: 1, step: 1 }],
      ['system/message', system('s1', 'first prompt'), { surfaceOp: 'append' }], // 2
      ['user/message', userMessage('u1', 'hi'), { surfaceOp: 'append' }],
      ['request/header', { header: { config }, reason: 'initial' }],
      ['assistant/message', reply('a1', 1), { surfaceOp: 'append' }], // 5: call 1 sends [2, 3]
      ['tool/result', result('long output'), { surfaceOp: 'append' }], // 6: after call 1
      ['step/end', { turn: 1, step: 1 }],
      ['step/start', { turn: 1, step: 2 }],
      ['tool/result', result('[pruned]'), replace(6)], // 9: a node call 1 never saw
      ['system/message', system('s2', 'second prompt'), replace(2)], // 10: the head call 1 sent
      ['assistant/message', reply('a2', 2), { surfaceOp: 'append' }], // 11: call 2
      ['step/end', { turn: 1, step: 2 }],
      ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
    );
    const calls = analyzePrompts(foldSession(readLogText(jsonl([header({ version: 4, isSeeded: false }), ...rows])))).requests.requests;
    expect(calls.map((c) => c.cut)).toEqual([5, 11]);
    expect(calls[1].prefix.keptMessages).toBe(0);
    expect(calls[1].prefix.reasons).toContain('system-change');
    expect(calls[1].prefix.reasons).not.toContain('replace');
  });
});

/** The requests' messages equal deriveMessages of a fresh fold of the events before the cut (§8.3). */
function expectPrefixFolds(text: string) {
  const session = foldSession(readLogText(text));
  const list = buildRequests(session);
  expect(list.requests.length).toBeGreaterThan(0);
  for (const r of list.requests) {
    const prefix = session.events.filter((e) => e.seq < r.cut);
    const fold = foldSurface(prefix, session.read.dialect);
    expect(r.messages).toEqual(deriveMessages(fold.state, eventLookup(prefix)));
    expect(r.header ?? undefined).toEqual(foldRequestHeader(prefix));
  }
  return { session, list };
}

describe('generated logs', () => {
  it('rc.8: one request per attempt, each equal to a refold of its prefix', () => {
    const { list } = expectPrefixFolds(generateLog({ dialect: 'v0', seed: 5, turns: 8 }).text);
    expect(list.requests.some((r) => r.attempt === 2)).toBe(true);
    const compacted = list.requests.find((r) => r.prefix.reasons.includes('compaction'));
    expect(compacted).toBeDefined();
    expect(compacted!.prefix.keptMessages).toBeLessThan(compacted!.prefix.previousMessageCount);
  });

  it('V4: settlements are cuts; tool history, system messages and series are seen', () => {
    const { session, list } = expectPrefixFolds(generateLog({ dialect: 'v4', seed: 5, turns: 8, imageOffload: true }).text);
    expect(list.mode).toBe('settlement');
    const attempts = list.requests.filter((r) => r.cutKind === 'assistant/attempt');
    expect(attempts.length).toBe(session.events.filter((e) => e.type === 'assistant/attempt').length);
    const r = list.requests[0];
    expect(r.loopRequest.system).toBeUndefined();
    expect(r.loopRequest.toolHistory).toBeDefined();
    expect(r.system.where).toBe('messages');
    expect(r.system.text).toMatch(/^You are an AI agent powered by DeepSeek Harness\./);
    const reasons = new Set(list.requests.flatMap((q) => q.prefix.reasons));
    expect([...reasons]).toEqual(expect.arrayContaining(['projection', 'new-series', 'system-change', 'compaction']));
    const analysis = analyzePrompts(session);
    expect(analysis.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(analysis.systemPromptSource).toBe('system-message');
    expect(analysis.systemPrompt.commits.map((c) => c.op)).toEqual(['append', 'replace-head', 'replace-head']);
  });

  it('is linear: a long log builds its request list quickly', () => {
    const g = generateLog({ dialect: 'v0', seed: 7, turns: 120, stepsPerTurn: 5, compactEvery: 10 });
    const t = Date.now();
    const list = buildRequests(foldSession(readLogText(g.text)));
    expect(list.requests.length).toBeGreaterThan(500);
    expect(Date.now() - t).toBeLessThan(10_000);
  });
});
