import { describe, expect, it } from 'vitest';
import { readLogText } from '../../src/core/log/reader.ts';
import type { LogEvent } from '../../src/core/log/types.ts';
import { boundedLineDiff, diffSnapshots } from '../../src/core/prompt/context-diff.ts';
import { joinContextSections, RUNTIME_CONTEXT_CLEARED } from '../../src/core/prompt/render.ts';
import { checkSnapshot, isRuntimeContextEvent, readSnapshot } from '../../src/core/prompt/runtime-context.ts';
import { analyzePrompts } from '../../src/core/requests/analyze.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { assistantData, events, header, jsonl, userMessage } from '../helpers/log-builder.ts';

const PLUGIN = '@deepseek-ai/dsh-system-prompt';
type Section = { name: string; text: string };
const snapshotMessage = (id: string, sections: Section[], kind: 'plugin' | 'runtime-context' = 'plugin') => ({
  id, role: 'user', content: [{ type: 'text', text: joinContextSections(sections) }],
  source: kind === 'plugin' ? { kind, plugin: PLUGIN, form: 'snapshot', sections } : { kind, form: 'snapshot', sections },
});
const event = (data: unknown, seq = 3): LogEvent => ({ type: 'user/message', seq, time: 0, data, surfaceOp: 'append' });

describe('runtime-context snapshots (§2.2, §3.4)', () => {
  it('recognises both source shapes and nothing else', () => {
    expect(isRuntimeContextEvent(event(snapshotMessage('a', [{ name: 'x', text: 'X' }])))).toBe(true);
    expect(isRuntimeContextEvent(event(snapshotMessage('a', [{ name: 'x', text: 'X' }], 'runtime-context')))).toBe(true);
    expect(isRuntimeContextEvent(event({ ...userMessage('t', 'time'), source: { kind: 'plugin', plugin: 'time-context', form: 'snapshot', sections: [] } }))).toBe(false);
    expect(isRuntimeContextEvent(event(userMessage('u', 'hi')))).toBe(false);
  });

  it('reads snapshot, CLEARED and legacy forms', () => {
    const s = readSnapshot(event(snapshotMessage('a', [{ name: 'x', text: 'X' }])));
    expect(s).toMatchObject({ form: 'snapshot', sourceShape: 'plugin', sections: [{ name: 'x', text: 'X' }], heuristic: false });
    const cleared = readSnapshot(event({ id: 'c', role: 'user', content: [{ type: 'text', text: RUNTIME_CONTEXT_CLEARED }], source: { kind: 'runtime-context' } }));
    expect(cleared).toMatchObject({ form: 'cleared', sourceShape: 'runtime-context', sections: [] });
    const legacy = readSnapshot(event({ id: 'l', role: 'user', content: [{ type: 'text', text: joinContextSections([{ name: 'a', text: 'A' }, { name: 'b', text: 'B' }]) }], source: { kind: 'plugin', plugin: PLUGIN } }));
    expect(legacy).toMatchObject({ form: 'legacy', heuristic: true, sections: [{ name: '#1', text: 'A' }, { name: '#2', text: 'B' }] });
  });

  it('checks the join invariant and the shape rules', () => {
    const good = event(snapshotMessage('a', [{ name: 'x', text: 'X' }]));
    expect(checkSnapshot(good, readSnapshot(good))).toEqual([]);
    const bad = event({ ...snapshotMessage('a', [{ name: 'x', text: 'X' }, { name: 'x', text: 'Y' }]), content: [{ type: 'text', text: 'other' }] });
    expect(checkSnapshot(bad, readSnapshot(bad)).map((c) => c.code)).toEqual(['context.join-mismatch', 'context.duplicate-section']);
    const twoBlocks = event({ ...snapshotMessage('a', [{ name: 'x', text: 'X' }]), content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] });
    expect(checkSnapshot(twoBlocks, readSnapshot(twoBlocks)).map((c) => c.code)).toEqual(['context.not-single-text']);
    const clearedWithSections = event({ id: 'c', role: 'user', content: [{ type: 'text', text: RUNTIME_CONTEXT_CLEARED }], source: { kind: 'runtime-context', form: 'snapshot', sections: [] } });
    expect(checkSnapshot(clearedWithSections, readSnapshot(clearedWithSections)).map((c) => c.code)).toEqual(['context.join-mismatch', 'context.cleared-with-sections']);
    const emptyNotCleared = event({ id: 'e', role: 'user', content: [{ type: 'text', text: 'x' }], source: { kind: 'runtime-context', form: 'snapshot', sections: [] } });
    expect(checkSnapshot(emptyNotCleared, readSnapshot(emptyNotCleared)).map((c) => c.code)).toEqual(['context.join-mismatch', 'context.empty-sections']);
  });
});

describe('section diff (§4.4)', () => {
  const a = { sections: [{ name: 'sandbox', text: 'one\ntwo\n' }, { name: 'approval', text: 'ask' }, { name: 'gone', text: 'g' }] };

  it('classifies added, removed, changed and unchanged, with a line diff inside changes', () => {
    const b = { sections: [{ name: 'sandbox', text: 'one\nthree\n' }, { name: 'approval', text: 'ask' }, { name: 'new', text: 'n' }] };
    const d = diffSnapshots(a, b);
    expect(d.sections.map((s) => `${s.name}:${s.status}`)).toEqual(['sandbox:changed', 'approval:unchanged', 'new:added', 'gone:removed']);
    expect(d.sections[0].lines).toEqual([{ kind: 'same', text: 'one\n' }, { kind: 'removed', text: 'two\n' }, { kind: 'added', text: 'three\n' }]);
    expect(d.reordered).toBe(false);
    expect(d.identical).toBe(false);
  });

  it('flags reordering separately and treats CLEARED as removing everything', () => {
    const swapped = diffSnapshots(a, { sections: [a.sections[1], a.sections[0], a.sections[2]] });
    expect(swapped.reordered).toBe(true);
    expect(swapped.sections.every((s) => s.status === 'unchanged')).toBe(true);
    const cleared = diffSnapshots(a, { sections: [], form: 'cleared' });
    expect(cleared.cleared).toBe(true);
    expect(cleared.sections.map((s) => s.status)).toEqual(['removed', 'removed', 'removed']);
    expect(diffSnapshots(undefined, a).sections.map((s) => s.status)).toEqual(['added', 'added', 'added']);
    expect(diffSnapshots(a, a).identical).toBe(true);
  });

  it('gives up (null) instead of hanging when the edit limit is hit', () => {
    const big = (k: number) => Array.from({ length: 3000 }, (_, i) => `line ${i * k}`).join('\n');
    expect(boundedLineDiff(big(1), big(7), { maxEditLength: 50 })).toBeNull();
    expect(boundedLineDiff('a\n', 'a\nb\n')).toEqual([{ kind: 'same', text: 'a\n' }, { kind: 'added', text: 'b\n' }]);
  });
});

/** A v0 log: snapshot, unchanged snapshot (anomaly), compaction shadowing it, re-emission, CLEARED. */
function contextLog() {
  const ctx1 = [{ name: 'sandbox:policy', text: 'read-only' }];
  const ctx2 = [{ name: 'sandbox:policy', text: 'workspace-write' }, { name: 'approval:policy', text: 'ask' }];
  const cleared = { id: 'c', role: 'user', content: [{ type: 'text', text: RUNTIME_CONTEXT_CLEARED }], source: { kind: 'plugin', plugin: PLUGIN } };
  const rows = events(
    ['turn/start', { turn: 1 }], // 0
    ['step/start', { turn: 1, step: 1 }], // 1
    ['user/message', userMessage('u1', 'hi'), { surfaceOp: 'append' }], // 2
    ['user/message', snapshotMessage('r1', ctx1), { surfaceOp: 'append' }], // 3
    ['request/header', { header: { config: { provider: 'p', model: 'm' }, system: 'S1' }, reason: 'initial' }], // 4
    ['assistant/message', assistantData('a1', 'ok'), { surfaceOp: 'append', sourceEventSeqs: [] }], // 5
    ['step/end', { turn: 1, step: 1 }], // 6
    ['step/start', { turn: 1, step: 2 }], // 7
    ['user/message', snapshotMessage('r2', ctx1), { surfaceOp: 'append' }], // 8: unchanged, unexplained
    ['user/message', userMessage('k', 'checkpoint'), { surfaceOp: { op: 'replace', start: 2, end: 8 }, sourceEventSeqs: [2, 3, 5, 8] }], // 9
    ['request/header', { header: { config: { provider: 'p', model: 'm' }, system: 'S2' }, reason: 'change' }], // 10
    ['assistant/message', assistantData('a2', 'ok', 1, 2), { surfaceOp: 'append', sourceEventSeqs: [] }], // 11
    ['step/end', { turn: 1, step: 2 }], // 12
    ['step/start', { turn: 1, step: 3 }], // 13
    ['user/message', snapshotMessage('r3', ctx2), { surfaceOp: 'append' }], // 14: after shadowing
    ['user/message', cleared, { surfaceOp: 'append' }], // 15
    ['step/end', { turn: 1, step: 3 }], // 16
    ['turn/end', { turn: 1, reason: { kind: 'completed' } }], // 17
  );
  return foldSession(readLogText(jsonl([header(), ...rows])));
}

describe('snapshot stream and effective context (§4.4)', () => {
  const session = contextLog();
  const a = analyzePrompts(session);
  const rc = a.runtimeContext;

  it('folds without surface findings', () => {
    expect(session.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('lists every owned snapshot with its on-surface status, baseline and reason', () => {
    expect(rc.snapshots.map((s) => [s.seq, s.form, s.onSurface, s.shadowedBy, s.baselineSeq, s.reemittedAfterShadowing, s.unchanged])).toEqual([
      [3, 'snapshot', false, 9, null, false, false],
      [8, 'snapshot', false, 9, 3, false, true],
      [14, 'snapshot', true, null, null, true, false],
      [15, 'cleared', true, null, 14, false, false],
    ]);
    expect(rc.snapshot(14)!.diff.sections.map((s) => `${s.name}:${s.status}`)).toEqual(['sandbox:policy:changed', 'approval:policy:added']);
    expect(rc.snapshot(15)!.diff.cleared).toBe(true);
    expect(rc.compare(3, 14)!.sections.map((s) => s.status)).toEqual(['changed', 'added']);
  });

  it('reports the unexplained re-emission and several snapshots in one step', () => {
    expect(a.findings.filter((f) => f.code.startsWith('context.')).map((f) => [f.code, f.seq])).toEqual([
      ['context.unexplained-reemission', 8],
      ['context.multiple-in-step', 15],
    ]);
  });

  it('answers the effective runtime context at any seq', () => {
    expect([2, 3, 8, 9, 13, 14, 15, 17].map((s) => rc.effectiveAt(s))).toEqual([null, 3, 8, null, null, 14, 15, 15]);
  });

  it('answers the effective rc.8 system prompt at any seq, with the event that set it', () => {
    const sp = a.systemPrompt;
    expect(a.systemPromptSource).toBe('header');
    expect(sp.at(3)).toMatchObject({ text: null, setBySeq: null });
    expect(sp.at(4)).toMatchObject({ text: 'S1', setBySeq: 4, changedAt: true });
    expect(sp.at(9)).toMatchObject({ text: 'S1', setBySeq: 4, changedAt: false });
    expect(sp.at(10)).toMatchObject({ text: 'S2', sourceSeq: 10, changedAt: true });
  });
});
