import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { assistantData, events, header, jsonl, userMessage } from '../helpers/log-builder.ts';

const toolCall = (id: string) => ({ type: 'tool-call', id, name: 'bash', arguments: '{}' });

describe('restore repair (spec §8)', () => {
  it('closes an open turn: results for pending calls (started → outcome unknown), step/end, turn/end', () => {
    const call = assistantData('a1', 'x');
    (call.message as any).content = [toolCall('c1'), toolCall('c2')];
    const rows = [header(), ...events(
      ['turn/start', { turn: 1 }],
      ['step/start', { turn: 1, step: 1 }],
      ['user/message', userMessage('u', 'go'), { surfaceOp: 'append' }],
      ['assistant/message', call, { surfaceOp: 'append', sourceEventSeqs: [] }],
      ['tool/call', { turn: 1, step: 1, callId: 'c2', name: 'bash', arguments: '{}' }],
    )];
    const s = foldSession(readLogText(jsonl(rows)));
    expect(s.synthetic.map((e) => [e.seq, e.type])).toEqual([[5, 'tool/result'], [6, 'tool/result'], [7, 'step/end'], [8, 'turn/end'], [9, 'session/end-seed']]);
    const [notStarted, unknown] = s.synthetic;
    expect(notStarted.data.error.code).toBe('TOOL_NOT_STARTED');
    expect(notStarted.sourceEventSeqs).toBeUndefined();
    expect(notStarted.data.message.id).toBe('interrupted-tool-result-c1-5');
    expect(unknown.data.error.code).toBe('TOOL_OUTCOME_UNKNOWN');
    expect(unknown.sourceEventSeqs).toEqual([4]);
    expect(s.synthetic[3].data.reason).toEqual({ kind: 'interrupted' });
    expect(s.synthetic.every((e) => e.time === 1004)).toBe(true);
    // The closers are folded like logged events: the model sees the two error results.
    expect(s.surface.nodes).toEqual([2, 3, 5, 6]);
    expect(s.ok).toBe(true);
  });

  it('appends only the end-seed to a balanced log, and nothing when it already ends with one', () => {
    const balanced = foldSession(readLogText(jsonl([header(), ...events(['turn/start', { turn: 1 }], ['turn/end', { turn: 1, reason: { kind: 'completed' } }])])));
    expect(balanced.synthetic.map((e) => [e.seq, e.type])).toEqual([[2, 'session/end-seed']]);
    const marked = foldSession(readLogText(jsonl([header(), ...events(['session/end-seed', {}])])));
    expect(marked.synthetic).toEqual([]);
    const empty = foldSession(readLogText(jsonl([header()])));
    expect(empty.synthetic.map((e) => e.seq)).toEqual([0]);
  });

  it('closes generated open-turn logs in both dialects with a valid surface', () => {
    for (const dialect of ['v0', 'v4'] as const) {
      const log = generateLog({ dialect, seed: 7, turns: 2, openLastTurn: true });
      const s = foldSession(readLogText(log.text));
      expect(s.synthetic.at(-2)?.type, dialect).toBe('turn/end');
      expect(s.diagnostics.filter((d) => d.severity === 'error'), dialect).toEqual([]);
      const results = s.synthetic.filter((e) => e.type === 'tool/result');
      expect(results.length, dialect).toBeGreaterThan(0);
      for (const r of results) expect(s.surface.nodes).toContain(r.seq);
      if (dialect === 'v4') expect(results[0].data.message.role).toBe('tool');
    }
  });
});
