import { describe, expect, it } from 'vitest';
import type { Dialect, LogEvent } from '../../src/core/log/types.ts';
import { deriveMessages } from '../../src/core/messages/derive.ts';
import { eventLookup, foldSurface } from '../../src/core/surface/fold.ts';

/** Builds events by seq; surface messages get the right shape per dialect. */
function log(dialect: Dialect, specs: [type: string, extra?: Partial<LogEvent> & { text?: string; role?: string }][]): LogEvent[] {
  return specs.map(([type, extra = {}], seq) => {
    const { text = `m${seq}`, role, ...rest } = extra;
    let data: any = { turn: 1 };
    if (type === 'request/header') data = { header: { config: { provider: 'p', model: 'm' } }, reason: 'initial' };
    const content = [{ type: 'text', text }];
    if (type === 'user/message') data = { id: `u${seq}`, role: role ?? 'user', content, source: { kind: 'user' } };
    if (type === 'assistant/message') data = { turn: 1, step: 1, message: { id: `a${seq}`, role: 'assistant', content, source: { kind: 'model', provider: 'p', model: 'm' } } };
    if (type === 'system/message') data = { turn: 1, step: 1, message: { id: `s${seq}`, role: 'system', content, source: { kind: 'system-prompt' } } };
    if (type === 'tool/result') {
      data = dialect === 'v4'
        ? { turn: 1, step: 1, message: { id: `t${seq}`, role: 'tool', toolCallId: 'c1', content, source: { kind: 'tool', callId: 'c1' } } }
        : { turn: 1, step: 1, message: { id: `t${seq}`, role: 'user', content: [{ type: 'tool-result', toolCallId: 'c1', content }], source: { kind: 'tool', callId: 'c1' } } };
    }
    return { type, seq, time: seq, data, ...rest } as LogEvent;
  });
}
const append = { surfaceOp: 'append' as const };
const v4Replace = (startSeq: number, endSeq: number, sourceEventSeqs: number[]) => ({ surfaceOp: { op: 'replace' as const, startSeq, endSeq }, sourceEventSeqs });
const v0Replace = (start: number, end: number, sourceEventSeqs: number[]) => ({ surfaceOp: { op: 'replace' as const, start, end }, sourceEventSeqs });

const errors = (f: ReturnType<typeof foldSurface>) => f.diagnostics.map((d) => [d.code, d.seq]);

describe('the worked example (spec §4.10)', () => {
  const base: Parameters<typeof log>[1] = [
    ['turn/start'], ['step/start'], ['user/message', append], ['request/header'],
    ['assistant/message', append], ['step/end'], ['turn/end'], ['user/message', append],
  ];
  it('[2,4,7] + replace(2,4) → [8,7], one replace generation', () => {
    const f = foldSurface(log('v4', [...base, ['user/message', v4Replace(2, 4, [2, 4])]]), 'v4', { steps: true });
    expect(f.diagnostics).toEqual([]);
    expect(f.state.nodes).toEqual([8, 7]);
    expect(f.state.replaceGeneration).toBe(1);
    expect(f.state.contentGeneration).toBe(1);
    expect(f.steps.map((s) => [s.seq, s.op, s.nodes])).toEqual([[2, 'append', [2]], [4, 'append', [2, 4]], [7, 'append', [2, 4, 7]], [8, 'replace', [8, 7]]]);
    expect(f.state.replacements).toEqual([{ seq: 8, start: 2, end: 4, shadowedSeqs: [2, 4], index: 0 }]);
  });

  it.each([
    [[2], 'surface.uncovered'],
    [[2, 4, 4], 'surface.sources'],
    [[], 'surface.sources'],
    [[2, 4, 9], 'surface.sources'],
    [[2, 4, 8], 'surface.sources'],
  ])('rejects sourceEventSeqs %j (%s) and does not apply the event', (sources, code) => {
    const f = foldSurface(log('v4', [...base, ['user/message', v4Replace(2, 4, sources)]]), 'v4');
    expect(errors(f)).toEqual([[code, 8]]);
    expect(f.state.nodes).toEqual([2, 4, 7]);
    expect(f.state.replaceGeneration).toBe(0);
  });

  it('continues: replace(8,7) is valid over non-monotonic nodes; replace(7,8) and a shadowed endpoint fail', () => {
    const ok = foldSurface(log('v4', [...base, ['user/message', v4Replace(2, 4, [2, 4])], ['user/message', v4Replace(8, 7, [7, 8])]]), 'v4');
    expect(ok.diagnostics).toEqual([]);
    expect(ok.state.nodes).toEqual([9]);
    expect(ok.state.replaceGeneration).toBe(2);
    const reversed = foldSurface(log('v4', [...base, ['user/message', v4Replace(2, 4, [2, 4])], ['user/message', v4Replace(7, 8, [7, 8])]]), 'v4');
    expect(reversed.diagnostics[0].message).toContain('start seq 7 (index 1) is after end seq 8 (index 0)');
    const gone = foldSurface(log('v4', [...base, ['user/message', v4Replace(2, 4, [2, 4])], ['user/message', v4Replace(4, 7, [4, 7])]]), 'v4');
    expect(gone.diagnostics[0]).toMatchObject({ code: 'surface.endpoint', seq: 9 });
    expect(gone.diagnostics[0].message).toContain('start seq 4 not found in surface');
  });
});

describe('markers and op shapes (E5, E6)', () => {
  it('requires surfaceOp on surface events and forbids it on log-only events', () => {
    const f = foldSurface(log('v0', [['user/message'], ['turn/start', append], ['turn/end', { sourceEventSeqs: [0] }]]), 'v0');
    expect(errors(f)).toEqual([['surface.marker', 0], ['surface.marker', 1], ['surface.marker', 2]]);
  });

  it('uses start/end in V0 and startSeq/endSeq in V3+', () => {
    const v0 = foldSurface(log('v0', [['user/message', append], ['user/message', v4Replace(0, 0, [0])]]), 'v0');
    expect(v0.diagnostics[0].message).toMatch(/invalid replace surfaceOp \(format 0–2 uses start\/end\)/);
    const v4 = foldSurface(log('v4', [['user/message', append], ['user/message', v0Replace(0, 0, [0])]]), 'v4');
    expect(v4.diagnostics[0].code).toBe('surface.op');
    const good = foldSurface(log('v0', [['user/message', append], ['user/message', v0Replace(0, 0, [0])]]), 'v0');
    expect(good.state.nodes).toEqual([1]);
  });

  it('V4 requires replace endpoints earlier than the event', () => {
    const f = foldSurface(log('v4', [['user/message', append], ['user/message', v4Replace(0, 1, [0])]]), 'v4');
    expect(f.diagnostics[0].message).toContain('endpoints must reference earlier events');
  });

  it('V3+ keeps unknown ignorable events opaque; rc.8 still checks their marker', () => {
    const events = log('v0', [['user/message', append], ['x/y', { ignorable: true, surfaceOp: 'append' }]]);
    expect(foldSurface(events, 'v0').diagnostics).toHaveLength(1);
    expect(foldSurface(events, 'v4').diagnostics).toHaveLength(0);
  });
});

describe('sourceEventSeqs per dialect (§4.3)', () => {
  it('rc.8 allows [] only on assistant/message; V3+ forbids sources on assistant/message', () => {
    expect(foldSurface(log('v0', [['assistant/message', { ...append, sourceEventSeqs: [] }]]), 'v0').diagnostics).toEqual([]);
    expect(errors(foldSurface(log('v0', [['user/message', { ...append, sourceEventSeqs: [] }]]), 'v0'))).toEqual([['surface.sources', 0]]);
    const v4 = foldSurface(log('v4', [['turn/start'], ['assistant/message', { ...append, sourceEventSeqs: [0] }]]), 'v4');
    expect(v4.diagnostics[0].message).toContain('embeds its source stream');
  });
});

describe('tool-result rewrite (§4.4, E9)', () => {
  for (const dialect of ['v0', 'v4'] as const) {
    const replace = dialect === 'v0' ? v0Replace : v4Replace;
    it(`${dialect}: may shrink the content of one tool/result and nothing else`, () => {
      const events = log(dialect, [['tool/result', { ...append, text: 'a very long output' }], ['compaction/prune'], ['tool/result', { ...replace(0, 0, [0]), text: '[pruned]' }]]);
      events[2].data.message.id = events[0].data.message.id;
      const f = foldSurface(events, dialect);
      expect(f.diagnostics).toEqual([]);
      expect(f.state.nodes).toEqual([2]);
      const messages = deriveMessages(f.state, eventLookup(events));
      expect(JSON.stringify(messages)).toContain('[pruned]');
    });
    it(`${dialect}: rejects a rewrite that changes the id, or targets a user message, or spans two nodes`, () => {
      const changedId = log(dialect, [['tool/result', append], ['tool/result', replace(0, 0, [0])]]);
      expect(foldSurface(changedId, dialect).diagnostics[0].message).toContain('may change only content');
      const wrongTarget = log(dialect, [['user/message', append], ['tool/result', replace(0, 0, [0])]]);
      expect(foldSurface(wrongTarget, dialect).diagnostics[0].message).toContain('must target a current tool/result');
      const two = log(dialect, [['tool/result', append], ['tool/result', append], ['tool/result', replace(0, 1, [0, 1])]]);
      expect(foldSurface(two, dialect).diagnostics[0].message).toContain('exactly one current node');
    });
  }
});

describe('system head (§4.5, E10)', () => {
  it('only a system/message may replace the head, alone; later system nodes are unprotected', () => {
    const head = log('v4', [['system/message', append], ['user/message', append], ['user/message', v4Replace(0, 1, [0, 1])]]);
    expect(errors(foldSurface(head, 'v4'))).toEqual([['surface.system-head', 2]]);
    const swap = log('v4', [['system/message', append], ['user/message', append], ['system/message', v4Replace(0, 0, [0])]]);
    expect(foldSurface(swap, 'v4').state.nodes).toEqual([2, 1]);
    const later = log('v4', [['system/message', append], ['system/message', append], ['user/message', append], ['user/message', v4Replace(1, 2, [1, 2])]]);
    expect(foldSurface(later, 'v4').state.nodes).toEqual([0, 3]);
    // rc.8 has no system/message surface type, so no head rule.
  });
});

describe('developer messages (§4.6, E11)', () => {
  const header = { type: 'request/header', data: { header: { config: { provider: 'p', model: 'm' }, tools: [{ name: 'fetch', description: 'd', parameters: {} }] }, reason: 'change' } };
  const dev = (content: unknown[], headerSeq?: number) => ({ turn: 1, step: 1, message: { id: 'd', role: 'developer', content, source: { kind: 'tool-update' } }, ...(headerSeq === undefined ? {} : { headerSeq }) });
  const build = (data: unknown, role?: string): LogEvent[] => [
    { ...header, seq: 0, time: 0 } as LogEvent,
    { type: 'developer/message', seq: 1, time: 1, data, surfaceOp: 'append' } as LogEvent,
    ...(role ? [{ type: 'user/message', seq: 2, time: 2, data: { id: 'x', role, content: [], source: { kind: 'user' } }, surfaceOp: 'append' } as LogEvent] : []),
  ];
  it('accepts an addition that resolves in its request/header', () => {
    expect(foldSurface(build(dev([{ type: 'tool-addition', toolName: 'fetch' }], 0)), 'v4').diagnostics).toEqual([]);
  });
  it.each([
    ['no headerSeq', dev([{ type: 'tool-addition', toolName: 'fetch' }]), 'needs an earlier headerSeq'],
    ['unknown tool', dev([{ type: 'tool-addition', toolName: 'nope' }], 0), 'does not resolve'],
    ['inline tool', dev([{ type: 'tool-addition', toolName: 'fetch', tool: {} }], 0), 'inline tool definition'],
    ['empty toolName', dev([{ type: 'tool-removal', toolName: '' }]), 'non-empty toolName'],
    ['headerSeq without additions', dev([{ type: 'tool-removal', toolName: 'fetch' }], 0), 'adds no tools'],
  ])('rejects %s', (_name, data, text) => {
    const f = foldSurface(build(data), 'v4');
    expect(f.diagnostics[0]?.code).toBe('surface.developer');
    expect(f.diagnostics[0]?.message).toContain(text);
  });
  it('rejects a developer-role message on another event type', () => {
    expect(foldSurface(build(dev([], undefined), 'developer'), 'v4').diagnostics[0]?.message).toContain('carries a developer-role message');
  });
});

describe('V4 event-local checks (§4.7)', () => {
  it('rejects non-canonical request headers and tool errors without isError', () => {
    const sys = [{ type: 'request/header', seq: 0, time: 0, data: { header: { config: {}, system: 'x' }, reason: 'initial' } }] as LogEvent[];
    expect(foldSurface(sys, 'v4').diagnostics[0].code).toBe('surface.event-local');
    expect(foldSurface(sys, 'v0').diagnostics).toEqual([]);
    const err = log('v4', [['tool/result', append]]);
    err[0].data.error = { name: 'E', code: 'X' };
    expect(foldSurface(err, 'v4').diagnostics[0].message).toContain('not isError');
  });
});

describe('message projections: image/offload (§6.4)', () => {
  const image = { type: 'image', attachment: { attachmentId: 'sha256:x', mediaType: 'image/png', bytes: 1, width: 1, height: 1 } };
  const withImages = (): LogEvent[] => {
    const events = log('v4', [['user/message', append], ['user/message', append]]);
    events[0].data.content = [{ type: 'text', text: 'see' }, image, image];
    return events;
  };
  const offload = (seq: number, targets: unknown): LogEvent => ({ type: 'image/offload', seq, time: seq, data: { targets } });

  it('rewrites the message, keeps its id and node, bumps only contentGeneration', () => {
    const events = [...withImages(), offload(2, [{ seq: 0, imageIndexes: [1] }])];
    const f = foldSurface(events, 'v4', { steps: true });
    expect(f.diagnostics).toEqual([]);
    expect(f.state.nodes).toEqual([0, 1]);
    expect([f.state.replaceGeneration, f.state.contentGeneration]).toEqual([0, 1]);
    const [first] = deriveMessages(f.state, eventLookup(events));
    expect(first.id).toBe('u0');
    expect(first.content.map((b) => b.offloaded ?? false)).toEqual([false, false, true]);
    expect(events[0].data.content[2].offloaded).toBeUndefined(); // the logged event is untouched
    expect(f.steps.at(-1)).toMatchObject({ seq: 2, op: 'project' });
  });

  it.each([
    ['an empty target list', []],
    ['a seq that is not a node', [{ seq: 5, imageIndexes: [0] }]],
    ['an index past the images', [{ seq: 0, imageIndexes: [2] }]],
    ['non-increasing indexes', [{ seq: 0, imageIndexes: [1, 0] }]],
    ['a duplicate target', [{ seq: 0, imageIndexes: [0] }, { seq: 0, imageIndexes: [1] }]],
  ])('rejects %s', (_name, targets) => {
    const f = foldSurface([...withImages(), offload(2, targets)], 'v4');
    expect(errors(f)).toEqual([['surface.projection', 2]]);
    expect(f.state.contentGeneration).toBe(0);
  });

  it('rejects offloading an image twice, counting offloaded images in the index', () => {
    const f = foldSurface([...withImages(), offload(2, [{ seq: 0, imageIndexes: [0] }]), offload(3, [{ seq: 0, imageIndexes: [0, 1] }])], 'v4');
    expect(f.diagnostics[0].message).toContain('already offloaded');
    expect(f.state.contentGeneration).toBe(1);
  });
});

describe('message derivation (§6.1)', () => {
  it('drops empty assistant and system content but keeps their surface position', () => {
    const events = log('v4', [['system/message', append], ['user/message', append], ['assistant/message', append]]);
    events[0].data.message.content = [];
    events[2].data.message.content = [];
    const f = foldSurface(events, 'v4');
    expect(f.state.nodes).toEqual([0, 1, 2]);
    const messages = deriveMessages(f.state, eventLookup(events));
    expect(messages.map((m) => m.id)).toEqual(['u1']);
    expect(Object.isFrozen(messages[0])).toBe(true);
    expect(messages[0]).toBe(events[1].data); // user/message data is the message itself, same object
  });
});
