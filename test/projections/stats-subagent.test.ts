import { describe, expect, it } from 'vitest';
import { foldProjections } from '../../src/core/projections/index.ts';
import { subagentUnit } from '../../src/core/projections/units/subagent.ts';
import { unitsFor } from '../../src/core/projections/units/index.ts';
import { evs, hdr } from './fixtures.ts';

const at = (time: number) => ({ time });

describe('sessionStats (spec §4.8)', () => {
  it('times model, first token, decode and tools; counts steps and turns at step/end', () => {
    const events = evs(
      ['turn/start', { turn: 1 }, at(0)],
      ['step/start', { turn: 1, step: 1 }, at(100)],
      ['assistant/chunk', { turn: 1, step: 1, chunk: { type: 'text-delta', index: 0, text: '' } }, at(110)],
      ['assistant/chunk', { turn: 1, step: 1, chunk: { type: 'text-delta', index: 0, text: 'h' } }, at(130)],
      ['assistant/message', { turn: 1, step: 1, message: { id: 'a', role: 'assistant', content: [{ type: 'text', text: 'h' }], source: { kind: 'model' } }, usage: { inputTokens: 1, outputTokens: 7 } }, { time: 200, surfaceOp: 'append' }],
      ['tool/call', { callId: 'c1', name: 'bash' }, at(210)],
      ['tool/result', { message: { id: 't', role: 'user', content: [], source: { kind: 'tool', callId: 'c1' } } }, { time: 260, surfaceOp: 'append' }],
      ['tool/call', { callId: 'c2', name: 'bash' }, at(270)],
      ['step/end', { turn: 1, step: 1 }, at(280)],
      ['step/start', { turn: 1, step: 2 }, at(290)],
      ['step/end', { turn: 1, step: 2 }, at(300)],
      ['turn/end', { turn: 1 }, at(310)],
    );
    const r = foldProjections(hdr(), events);
    expect(r.snapshot().values.sessionStats).toEqual({ turns: 1, steps: 2, llmMs: 100, toolMs: 50, ttftMs: 30, ttftSteps: 1, decodeMs: 70, decodeTokens: 7 });
    expect((r.cell('sessionStats')!.state as any).pendingCalls).toEqual({});
  });
  it('a result whose callId is a prototype name is unmatched', () => {
    const events = evs(['tool/result', { message: { id: 't', role: 'user', content: [], source: { kind: 'tool', callId: 'constructor' } } }, { surfaceOp: 'append' }]);
    expect((foldProjections(hdr(), events).snapshot().values.sessionStats as any).toolMs).toBe(0);
  });
});

describe('subagent and subagentTiming (spec §4.10)', () => {
  const descriptor = (label?: string, version = 2) => ({ version, mode: 'one-shot', provider: 'in-process', ...(label ? { label } : {}) });
  it('a child’s own descriptor overrides the inherited one; timing restarts at it', () => {
    const events = evs(
      ['turn/start', { turn: 1 }, at(0)],
      ['subagent/descriptor', descriptor('parent'), at(5)],
      ['turn/end', { turn: 1 }, at(50)],
      ['session/end-seed', {}, at(60)],
      ['turn/start', { turn: 2 }, at(100)],
      ['subagent/descriptor', descriptor('child'), at(110)],
      ['step/start', { turn: 2, step: 1 }, at(150)],
    );
    const r = foldProjections(hdr({ seedLength: 3 }), events);
    expect(r.snapshot().values.subagent).toEqual({ mode: 'one-shot', label: 'child', seq: 5 });
    expect(r.snapshot().values.subagentTiming).toEqual({ settledMs: 0, active: { since: 100, through: 150 } });
    r.apply({ type: 'turn/end', seq: 7, time: 400, data: { turn: 2 } });
    expect(r.snapshot().values.subagentTiming).toEqual({ settledMs: 300 });
  });
  it('while an interval is open every event extends it (readsAll), with the same states whether or not the load skips unread types', () => {
    const events = evs(
      ['turn/start', { turn: 1 }, at(0)],
      ['subagent/descriptor', descriptor('child'), at(5)],
      ['step/start', { turn: 1, step: 1 }, at(20)],
      ['todo/write', { todos: [] }, at(20)],
      ['approval/policy', { policy: 'ask' }, at(30)],
      ['turn/end', { turn: 1 }, at(50)],
      ['approval/policy', { policy: 'ask' }, at(70)],
    );
    // The audit calls every unit for every event: an event extending the interval to the same time is no violation.
    const audited = foldProjections(hdr(), events, { history: true });
    expect(audited.purityFindings.filter((f) => f.ignoredEvent)).toEqual([]);
    // The load's dispatch by type (no audit) gives the same states at every seq.
    const dispatched = foldProjections(hdr(), events, { history: true, purity: false });
    for (const e of events) expect(dispatched.snapshotAt(e.seq)).toEqual(audited.snapshotAt(e.seq));
    expect(dispatched.changeSeqs('subagentTiming')).toEqual(audited.changeSeqs('subagentTiming'));
  });
  it('an unknown version or malformed descriptor resets to null without throwing', () => {
    const s = subagentUnit.apply({}, evs(['subagent/descriptor', descriptor('x')])[0]);
    expect(subagentUnit.view(subagentUnit.apply(s, evs(['subagent/descriptor', descriptor('y', 3)])[0]))).toBeNull();
    expect(subagentUnit.view(subagentUnit.apply(s, evs(['subagent/descriptor', { ...descriptor('z'), extra: 1 }])[0]))).toBeNull();
    expect(subagentUnit.view(subagentUnit.apply({}, evs(['subagent/descriptor', { version: 2, mode: 'continuable', provider: 'p', label: 'L' }])[0])))
      .toEqual({ mode: 'continuable', label: 'L', seq: 0 });
  });
  it("format 4 reads descriptor version 3, 0.2.1-alpha.2's, with agentReasoningEffort; version 2 is another runtime's there", () => {
    const v4 = unitsFor('v4').find((u) => u.key === 'subagent')!;
    const identity = (data: unknown) => v4.view(v4.apply(v4.init(null, 0), evs(['subagent/descriptor', data])[0]));
    // As the 0.2.x child logs in the corpus write it (sdk-subagent-mixed.2.v4).
    expect(identity({ version: 3, mode: 'one-shot', provider: 'fork', label: 'Recall project codeword' })).toEqual({ mode: 'one-shot', label: 'Recall project codeword', seq: 0 });
    expect(identity({ version: 3, mode: 'continuable', provider: 'p', label: 'L', agentReasoningEffort: 'high' })).toEqual({ mode: 'continuable', label: 'L', seq: 0 });
    expect(identity({ version: 3, mode: 'continuable', provider: 'p', label: 'L', agentReasoningEffort: 7 })).toBeNull();
    expect(identity({ version: 2, mode: 'continuable', provider: 'p', label: 'L' })).toBeNull();
    // Before format 4 the field is unknown to version 2.
    expect(subagentUnit.view(subagentUnit.apply({}, evs(['subagent/descriptor', { version: 2, mode: 'continuable', provider: 'p', label: 'L', agentReasoningEffort: 'high' }])[0]))).toBeNull();
  });
});
