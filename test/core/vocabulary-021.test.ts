import { Engine } from '../../src/worker/engine.ts';
import { describe, expect, it } from 'vitest';
import { inspect } from '../../src/core/inspect.ts';
import { isPluginRecordType, knownEventTypes } from '../../src/core/log/event-types.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { sourceLabel } from '../../src/core/messages/source-kinds.ts';
import { familyOf } from '../../src/core/replay/families.ts';
import { eventPreview } from '../../src/core/replay/preview.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { events, header, jsonl, userMessage, type Row } from '../helpers/log-builder.ts';

/** DSH 0.2.1-alpha.2's additions to format 4 (dsh-0.2 §2–4). */
const v4 = (extra: Row = {}) => header({ version: 4, isSeeded: false, ...extra });
const v3 = () => header({ version: 3, isSeeded: false });
const inTurn = (...middle: [string, unknown, Row?][]) => events(
  ['turn/start', { turn: 1 }],
  ['user/message', userMessage('u1', 'hi'), { surfaceOp: 'append' }],
  ...middle,
  ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
);
const findings = (text: string) => readLogText(text).diagnostics.filter((d) => d.severity !== 'info').map((d) => [d.code, d.severity, d.seq ?? null]);

describe('the 60-type catalog of 0.2.1-alpha.2 (dsh-0.2 §2–3)', () => {
  it('format 4 knows 60 types, working-directory/change among them (62 with 0.2.1-rc.2\'s two job records); formats 0 and 3 do not', () => {
    expect(knownEventTypes('v4').size).toBe(62);
    expect([...knownEventTypes('v4')].filter((t) => t.startsWith('job/')).sort()).toEqual(['job/registered', 'job/settled']);
    expect(knownEventTypes('v4').has('working-directory/change')).toBe(true);
    expect(knownEventTypes('v3').has('working-directory/change')).toBe(false);
    expect(knownEventTypes('v0').size).toBe(48);
  });

  it('working-directory/change loads cleanly under format 4, and is newer than the app in a format-3 log', () => {
    expect(findings(jsonl([v4(), ...inTurn(['working-directory/change', { cwd: '/work/sub' }])]))).toEqual([]);
    const older = readLogText(jsonl([v3(), ...inTurn(['working-directory/change', { cwd: '/work/sub' }])]));
    const finding = older.diagnostics.find((d) => d.code === 'type.unknown-required')!;
    expect(finding).toMatchObject({ severity: 'warning', seq: 2, subject: 'working-directory/change' });
    expect(finding.message).toMatch(/format 4 logs have it, but this log says format 3/);
  });

  it('a cwd that is not absolute is shown, with a warning (DSH does not check it on restore)', () => {
    for (const cwd of ['relative/dir', '', 7]) {
      expect(findings(jsonl([v4(), ...inTurn(['working-directory/change', { cwd }])]))).toEqual([['payload.shape', 'warning', 2]]);
    }
    expect(findings(jsonl([v4(), ...inTurn(['working-directory/change', { cwd: 'C:\\work' }])]))).toEqual([]);
  });
});

describe('subagent/catalog payload versions 0, 1, 2 (dsh-0.2 §4.2)', () => {
  const entry = (fields: Row) => ({ childId: 'c1', childCreatedAt: 5, ...fields });
  const check = (data: unknown, head = v4()) => findings(jsonl([head, ...inTurn(['subagent/catalog', data])]));

  it.each([
    ['v0 continuable', { version: 0, mode: 'continuable', label: 'reviewer' }],
    ['v0 one-shot', { version: 0, mode: 'one-shot' }],
    ['v1 one-shot with a label', { version: 1, mode: 'one-shot', label: 'x' }],
    ['v1 unknown', { version: 1, mode: 'unknown' }],
    ['v2 external', { version: 2, mode: 'external', label: 'ci' }],
  ])('%s is a valid catalog fact', (_name, fields) => {
    expect(check(entry(fields))).toEqual([]);
    expect(check(entry(fields), v3())).toEqual([]);
  });

  it.each([
    ['v2 with a mode other than external', { version: 2, mode: 'continuable', label: 'x' }, 'data.mode'],
    ['external below v2', { version: 1, mode: 'external' }, 'data.mode'],
    ['v0 unknown', { version: 0, mode: 'unknown' }, 'data.mode'],
    ['continuable without a label', { version: 1, mode: 'continuable' }, 'data.label'],
    ['a mode no version has', { version: 0, mode: 'forked' }, 'data.mode'],
    ['a bad creation time', { version: 0, mode: 'one-shot', childCreatedAt: -1 }, 'data.childCreatedAt'],
  ])('%s is a shape warning, not a refusal', (_name, fields, path) => {
    const r = readLogText(jsonl([v4(), ...inTurn(['subagent/catalog', entry(fields)])]));
    expect(r.diagnostics.filter((d) => d.severity !== 'info')).toEqual([expect.objectContaining({ code: 'payload.shape', severity: 'warning', seq: 2, path })]);
  });

  it('a version above 2 is newer than this app, named with the versions it reads', () => {
    const r = inspect(readLogText(jsonl([v4(), ...inTurn(['subagent/catalog', entry({ version: 3, mode: 'remote' })])])));
    expect(r.diagnostics.find((d) => d.code === 'payload.unknown-version')!.message).toMatch(/subagent\/catalog payload version 3 is newer than this app knows \(it reads versions 0, 1, 2\)/);
    expect(r.verdict).toBe('newer-than-app');
    // Only the catalog unit reads it: that unit is partial from the fact on, nothing else.
    expect(r.verdictDetail.partial).toEqual({ fromSeq: 2, analyses: ['projections (subagentCatalog)'], from: { 'projections (subagentCatalog)': 2 } });
  });

  it('is not in the format-0 vocabulary at all', () => {
    expect(check(entry({ version: 0, mode: 'one-shot' }), header())).toEqual([['type.unknown-required', 'warning', 2]]);
  });
});

describe('plugin records (dsh-0.2 §4.3)', () => {
  it.each(['plugin:translator/request', 'plugin:test.bridge/entry_1', 'plugin:dsh-reflection/project', 'plugin:a'])('%s is a plugin record type', (type) => {
    expect(isPluginRecordType(type)).toBe(true);
  });
  it.each(['plugin:', 'plugin:Test/state', 'plugin:/state', 'plugin:test/', 'plugin:test//state', 'plugin:-test', 'plugin:test state', 'turn/start', 'plugin/x'])('%s is not', (type) => {
    expect(isPluginRecordType(type)).toBe(false);
  });

  const records = (extra: Row = {}) => inTurn(
    ['plugin:translator/request', { provider: 'google', text: 'hi', sourceLanguage: 'auto', targetLanguage: 'de', recipe: 'r' }, { ignorable: true, ...extra }],
    ['plugin:translator/result', ['an', 'array', 2], { ignorable: true }],
    ['user/message', userMessage('u2', 'after the records'), { surfaceOp: 'append' }],
  );

  it('load with no finding, in the events list as plugin records, never on the surface', () => {
    const text = jsonl([v4(), ...records()]);
    const session = foldSession(readLogText(text));
    expect(session.diagnostics.filter((d) => d.seq === 2 || d.seq === 3)).toEqual([]);
    expect(session.ok).toBe(true);
    expect(session.surface.nodes).toEqual([1, 4]);
    expect(session.messages.map((m) => m.id)).toEqual(['u1', 'u2']);
    const [request, result] = [session.events[2], session.events[3]];
    expect(familyOf(request.type)).toBe('plugin');
    expect(eventPreview(request)).toMatch(/^plugin record · \{"provider":"google"/);
    expect(eventPreview(result)).toBe('plugin record · ["an","array",2]');
    // Ignorable: a format-4 reader before 0.2.1-alpha.2 skips them, so they ask for no newer DSH (§4.3).
    expect(inspect(readLogText(text)).verdictDetail.requires).toBeNull();
    expect(inspect(readLogText(jsonl([v4(), ...inTurn(['plugin:translator/request', {}, { ignorable: true }], ['working-directory/change', { cwd: '/w' }])]))).verdictDetail.requires).toEqual({ release: '0.2.1-alpha.2', because: ['working-directory/change'] });
  });

  it('stay opaque with surface fields in format 4 (V3+ ignorable rule), as in format 3', () => {
    for (const head of [v4(), v3()]) {
      const session = foldSession(readLogText(jsonl([head, ...records({ surfaceOp: 'append' })])));
      expect(session.surface.nodes).toEqual([1, 4]);
      expect(session.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
      // Nor are they in the transcript: only a surface type appended is (§7, isAppendSurfaceEvent).
      expect(session.transcript.map((t) => t.seq)).toEqual([1, 4]);
    }
  });

  it("stay out of the engine's transcript too (the replay index's appends)", async () => {
    const engine = new Engine();
    await engine.load({ kind: 'text', text: jsonl([v4(), ...records({ surfaceOp: 'append' })]), name: 'records' }, () => {});
    const last = engine.rows(0, 100).length - 1;
    const state = engine.state({ index: last, window: { from: 0, count: 10 }, transcript: { from: 0, count: 10 } });
    expect(state.transcriptCount).toBe(2);
    expect(state.transcript.map((t) => t.seq)).toEqual([1, 4]);
  });

  it('a plugin type without ignorable is an unknown required type, with the hint', () => {
    const r = readLogText(jsonl([v4(), ...inTurn(['plugin:translator/request', {}])]));
    const d = r.diagnostics.find((x) => x.code === 'type.unknown-required')!;
    expect(d.message).toMatch(/DSH writes plugin records with ignorable: true/);
    expect(d.severity).toBe('warning');
  });
});

describe('message source kinds (dsh-0.2 §4.2)', () => {
  const msg = (source: Row) => ({ id: 'm', role: 'user', content: [{ type: 'text', text: 'The working directory changed.' }], source });

  it('labels the new kinds, the user kind with rpcId, and any unknown kind by name', () => {
    expect(sourceLabel({ kind: 'working-directory' })).toBe('working directory');
    expect(sourceLabel({ kind: 'user-question-reply', callId: 'call_7', outcome: 'answered' })).toBe('question reply (answered) to call_7');
    expect(sourceLabel({ kind: 'tmux-context' })).toBe('tmux context');
    expect(sourceLabel({ kind: 'user', rpcId: 'rpc-3' })).toBe('user via RPC rpc-3');
    expect(sourceLabel({ kind: 'user' })).toBe('user');
    expect(sourceLabel({ kind: 'plugin:old-thing' })).toBe('plugin old-thing');
    expect(sourceLabel({ kind: 'plugin', plugin: '@deepseek-ai/dsh-system-prompt', form: 'snapshot' })).toBe('plugin @deepseek-ai/dsh-system-prompt · snapshot');
    expect(sourceLabel({ kind: 'a-kind-from-2027' })).toBe('a-kind-from-2027');
    expect(sourceLabel(undefined)).toBeNull();
  });

  it('keeps every source as logged in the model messages, and leads the preview with its label', () => {
    const sources = [{ kind: 'working-directory' }, { kind: 'user-question-reply', callId: 'c', outcome: 'answered' }, { kind: 'tmux-context', pane: '%1' }, { kind: 'user', rpcId: 'r1' }, { kind: 'a-kind-from-2027', extra: [1] }];
    const rows = events(['turn/start', { turn: 1 }], ...sources.map((source, i) => ['user/message', { ...msg(source), id: `m${i}` }, { surfaceOp: 'append' }] as [string, unknown, Row]));
    const r = inspect(readLogText(jsonl([v4(), ...rows])));
    expect(r.diagnostics.filter((d) => d.severity !== 'info' && d.code !== 'request.no-header')).toEqual([]);
    expect(r.messages.map((m) => m.source)).toEqual(sources);
    const session = foldSession(readLogText(jsonl([v4(), ...rows])));
    expect(session.events.slice(1, session.loggedCount).map(eventPreview)).toEqual([
      '[working directory] The working directory changed.',
      '[question reply (answered) to c] The working directory changed.',
      '[tmux context] The working directory changed.',
      '[user via RPC r1] The working directory changed.',
      '[a-kind-from-2027] The working directory changed.',
    ]);
  });
});

describe('optional fields added at format 4 (dsh-0.2 §4.2)', () => {
  it('load with no finding, are kept as logged, and change no count they are not part of', () => {
    const image = { type: 'image', attachment: { attachmentId: 'sha256:ab', mediaType: 'image/png', bytes: 10, width: 4, height: 2, originalDimensions: { width: 8, height: 4 } } };
    const usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 2, totalTokens: 17 };
    const rows = events(
      ['turn/start', { turn: 1 }],
      ['step/start', { turn: 1, step: 1 }],
      ['request/header', { header: { config: { provider: 'p', model: 'm' } }, reason: 'initial' }],
      ['user/message', { id: 'u1', role: 'user', content: [{ type: 'text', text: 'look' }, image], source: { kind: 'user' } }, { surfaceOp: 'append' }],
      ['assistant/attempt', { turn: 1, step: 1, stream: [{ type: 'chunk', time: 5, chunk: { type: 'finish', reason: { kind: 'error', failure: { message: 'too big', code: 'CONTEXT', offloadImages: true } } } }] }],
      ['assistant/message', { turn: 1, step: 1, message: { id: 'a1', role: 'assistant', content: [{ type: 'text', text: 'ok' }], source: { kind: 'model', provider: 'p', model: 'm' } }, usage, stream: [] }, { surfaceOp: 'append' }],
      ['step/end', { turn: 1, step: 1 }],
      ['session/title-llm-request', { titleProvider: 'p', messageSeqs: [3], route: { provider: 'p', model: 'm' }, system: 's', messages: [], maxTokens: 20, reasoningEffort: 'low' }],
      ['tool/ptc-dispatch', { rootCallId: 'r', parentCallId: 'r', subCallId: 's', name: 'read', arguments: '{}', content: [], isError: false, meta: { op: 'read', bytes: 3 } }],
      ['feedback/record', {}],
      ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
    );
    const r = inspect(readLogText(jsonl([v4(), ...rows])));
    expect(r.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
    expect(r.verdict).toBe('ok');
    expect(r.messages[0].content[1]).toEqual(image);
    expect(r.projections.tokenUsage.value).toEqual({ uncachedInputTokens: 10, outputTokens: 5, cacheReadTokens: 2, cacheWriteTokens: 0 });
  });
});
