import { describe, expect, it } from 'vitest';
import { readLogText } from '../../src/core/log/reader.ts';
import { admitSystemPrompt, startsSeries, systemPromptMessage, toolsChanged, type AdmissionFlags } from '../../src/core/prompt/admission.ts';
import { canonicalHeader, foldRequestHeader } from '../../src/core/prompt/request-header.ts';
import { foldSession, type ArraySessionFold } from '../../src/core/session/fold-session.ts';
import { events, header, jsonl, userMessage, type Row } from '../helpers/log-builder.ts';

/**
 * The system-prompt projection (prompt-and-requests.md §5.2, seed §6.9): one
 * test per decision-table row, on small logs written here. Format 3 uses the
 * mid source {kind:'plugin', plugin:'@deepseek-ai/dsh-system-prompt'}; V4
 * uses {kind:'system-prompt'}.
 */
const PLUGIN = { kind: 'plugin', plugin: '@deepseek-ai/dsh-system-prompt' };
const content = (text: string | object[]) => (typeof text === 'string' ? (text === '' ? [] : [{ type: 'text', text }]) : text);
const sysData = (id: string, text: string | object[], source: object = PLUGIN) => ({
  turn: 1, step: 1, message: { id, role: 'system', content: content(text), source },
});
const append = { surfaceOp: 'append' };
const replaceOf = (s: number) => ({ surfaceOp: { op: 'replace', startSeq: s, endSeq: s }, sourceEventSeqs: [s] });
const tools = [{ name: 'echo', description: 'echo back', parameters: { type: 'object' } }];

/** A format-3 log: turn and step open, then the given surface rows from seq 2. */
function v3(...rows: [type: string, data: unknown, extra?: Row][]): ArraySessionFold {
  const all = events(['turn/start', { turn: 1 }], ['step/start', { turn: 1, step: 1 }], ...rows);
  return foldSession(readLogText(jsonl([header({ version: 3, isSeeded: false }), ...all])));
}

function admit(session: ArraySessionFold, rendered: string, flags: AdmissionFlags) {
  expect(session.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const result = admitSystemPrompt(session.surface, { dialect: session.read.dialect, eventAt: session.eventAt }, rendered, flags);
  return { row: result.row, commits: result.commits.map((c) => ({ text: c.text, intent: c.intent })), result };
}

const inHistory = { inHistory: true, startsSeries: false };
const consolidate = { inHistory: false, startsSeries: false };

describe('admitSystemPrompt: the §5.2 decision table', () => {
  it('row 1: no system node appends, even an empty render (it reserves the head)', () => {
    const s = v3(['user/message', userMessage('u1', 'hi'), append]);
    expect(admit(s, 'p', inHistory)).toMatchObject({ row: 1, commits: [{ text: 'p', intent: 'append' }] });
    expect(admit(s, '', consolidate)).toMatchObject({ row: 1, commits: [{ text: '', intent: 'append' }] });
  });

  it('row 2: a route that is not in-history clears active tails in surface order, then rewrites the head', () => {
    const s = v3(
      ['system/message', sysData('s2', 'base'), append], // 2: head
      ['user/message', userMessage('u3', 'hi'), append], // 3
      ['system/message', sysData('s4', 'plan'), append], // 4: active tail
      ['system/message', sysData('s5', ''), append], // 5: dormant tail, left alone
      ['system/message', sysData('s6', [{ type: 'reasoning', text: 'x' }]), append], // 6: opaque tail counts as active
    );
    expect(admit(s, 'next', consolidate)).toMatchObject({
      row: 2,
      commits: [{ text: '', intent: { replace: 4 } }, { text: '', intent: { replace: 6 } }, { text: 'next', intent: { replace: 2 } }],
    });
    // The head already holds the render: only the tails are cleared.
    expect(admit(s, 'base', consolidate).commits).toEqual([{ text: '', intent: { replace: 4 } }, { text: '', intent: { replace: 6 } }]);
  });

  it('row 2: a new series or an empty render also consolidates; an unchanged head with no active tail commits nothing', () => {
    const s = v3(['system/message', sysData('s2', 'base'), append], ['user/message', userMessage('u3', 'hi'), append]);
    expect(admit(s, 'base', { inHistory: true, startsSeries: true })).toMatchObject({ row: 2, commits: [] });
    expect(admit(s, 'next', { inHistory: true, startsSeries: true })).toMatchObject({ row: 2, commits: [{ text: 'next', intent: { replace: 2 } }] });
    expect(admit(s, '', inHistory)).toMatchObject({ row: 2, commits: [{ text: '', intent: { replace: 2 } }] });
  });

  it('row 2: an opaque head never equals a render, and the head is the first system node wherever it sits', () => {
    const opaque = v3(['system/message', sysData('s2', [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }]), append]);
    expect(admit(opaque, 'ab', consolidate).commits).toEqual([{ text: 'ab', intent: { replace: 2 } }]);
    const late = v3(['user/message', userMessage('u2', 'hi'), append], ['system/message', sysData('s3', 'p'), append]);
    expect(admit(late, 'q', consolidate).commits).toEqual([{ text: 'q', intent: { replace: 3 } }]);
  });

  it('row 3: in-history, continuing, the latest active prompt equals the render: nothing', () => {
    const s = v3(
      ['system/message', sysData('s2', 'base'), append],
      ['user/message', userMessage('u3', 'hi'), append],
      ['system/message', sysData('s4', 'plan'), append],
      ['system/message', sysData('s5', ''), append], // dormant: latest stays seq 4
    );
    expect(admit(s, 'plan', inHistory)).toMatchObject({ row: 3, commits: [] });
    // An all-dormant surface: latest is the head, '' text, so a non-empty render is not equal.
    const dormant = v3(['system/message', sysData('s2', ''), append]);
    expect(admit(dormant, 'x', inHistory).row).toBe(4);
  });

  it('row 4: in-history, continuing, a new render appends (the head is not rewritten)', () => {
    const s = v3(
      ['system/message', sysData('s2', 'base'), append],
      ['user/message', userMessage('u3', 'hi'), append],
      ['system/message', sysData('s4', 'plan'), append],
    );
    expect(admit(s, 'base', inHistory)).toMatchObject({ row: 4, commits: [{ text: 'base', intent: 'append' }] });
  });

  it('reads the surface after replacements: a rewritten head is the head, a compacted tail is gone', () => {
    const s = v3(
      ['system/message', sysData('s2', 'base'), append], // 2
      ['user/message', userMessage('u3', 'hi'), append], // 3
      ['system/message', sysData('s4', 'plan'), append], // 4
      ['user/message', userMessage('u5', 'summary'), { surfaceOp: { op: 'replace', startSeq: 3, endSeq: 4 }, sourceEventSeqs: [3, 4] }], // 5
      ['system/message', sysData('s6', 'new base'), replaceOf(2)], // 6
    );
    expect(s.surface.contentGeneration).toBe(2);
    expect(admit(s, 'new base', inHistory)).toMatchObject({ row: 3, commits: [] });
    expect(admit(s, 'x', consolidate).commits).toEqual([{ text: 'x', intent: { replace: 6 } }]);
  });

  it('builds each commit as DSH logs it: message, surfaceOp and sourceEventSeqs', () => {
    const s = v3(['system/message', sysData('s2', 'base'), append], ['system/message', sysData('s3', 'tail'), append]);
    const { result } = admit(s, '', consolidate);
    expect(result.commits).toEqual([
      { text: '', intent: { replace: 3 }, role: 'tail', message: { role: 'system', content: [], source: PLUGIN }, surfaceOp: { op: 'replace', startSeq: 3, endSeq: 3 }, sourceEventSeqs: [3] },
      { text: '', intent: { replace: 2 }, role: 'head', message: { role: 'system', content: [], source: PLUGIN }, surfaceOp: { op: 'replace', startSeq: 2, endSeq: 2 }, sourceEventSeqs: [2] },
    ]);
    expect(admit(v3(), 'p', inHistory).result.commits[0]).toMatchObject({ surfaceOp: 'append', message: { content: [{ type: 'text', text: 'p' }] } });
    expect(systemPromptMessage('p', 'v4').source).toEqual({ kind: 'system-prompt' });
  });
});

describe('toolsChanged and startsSeries (§5.3, §6.1)', () => {
  const s = v3(['request/header', { header: { config: { provider: 'p', model: 'm' }, tools }, reason: 'initial' }]);
  const baseline = foldRequestHeader(s.read.events);

  it('compares the baseline with itself, tools replaced, by headerEquals', () => {
    expect(toolsChanged(baseline, JSON.parse(JSON.stringify(tools)))).toBe(false);
    expect(toolsChanged(baseline, [])).toBe(true);
    expect(toolsChanged(baseline, [{ description: 'echo back', name: 'echo', parameters: { type: 'object' } }])).toBe(true); // member order counts
    expect(toolsChanged(baseline, JSON.parse('[{"name":"echo","description":"echo back","parameters":{"type":"object"}}]'))).toBe(false);
    expect(toolsChanged(undefined, [])).toBe(false); // no header, no change
    expect(toolsChanged(canonicalHeader({ config: { provider: 'p', model: 'm' } }), [])).toBe(false);
  });

  it('starts a series when declared, when history was rewritten, or on a tool change no update carries', () => {
    const base = { declared: false, generationAtLastRequest: 1, contentGeneration: 1, toolUpdateRoute: false, toolsChanged: false };
    expect(startsSeries(base)).toBe(false);
    expect(startsSeries({ ...base, declared: true })).toBe(true);
    expect(startsSeries({ ...base, generationAtLastRequest: 0 })).toBe(true);
    expect(startsSeries({ ...base, toolsChanged: true })).toBe(true);
    expect(startsSeries({ ...base, toolsChanged: true, toolUpdateRoute: true })).toBe(false);
  });
});

describe('contentGeneration on V4 (§5.3): one per replace and one per projection event', () => {
  it('counts an image/offload decision once however many targets it has, then a prune', () => {
    const image = (id: string) => ({ type: 'image', attachment: { attachmentId: `sha256:${id.repeat(64)}`, mediaType: 'image/png', bytes: 1, width: 1, height: 1 } });
    const rows = events(
      ['turn/start', { turn: 1 }], // 0
      ['step/start', { turn: 1, step: 1 }], // 1
      ['system/message', sysData('s2', 'base', { kind: 'system-prompt' }), append], // 2
      ['user/message', { ...userMessage('u3', 'hi'), content: [{ type: 'text', text: 'hi' }, image('a'), image('b')] }, append], // 3
      ['user/message', { ...userMessage('u4', 'more'), content: [image('c')] }, append], // 4
      ['image/offload', { targets: [{ seq: 3, imageIndexes: [0, 1] }, { seq: 4, imageIndexes: [0] }] }], // 5
      ['system/message', sysData('s6', 'next', { kind: 'system-prompt' }), replaceOf(2)], // 6
    );
    const s = foldSession(readLogText(jsonl([header({ version: 4, isSeeded: false }), ...rows])));
    expect(s.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(s.surface.contentGeneration).toBe(2);
    expect(s.surface.replaceGeneration).toBe(1);
    const r = admitSystemPrompt(s.surface, { dialect: 'v4', eventAt: s.eventAt }, 'x', { inHistory: false, startsSeries: false });
    expect(r.commits.map((c) => [c.intent, c.message.source])).toEqual([[{ replace: 6 }, { kind: 'system-prompt' }]]);
  });
});
