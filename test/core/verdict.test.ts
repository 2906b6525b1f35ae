import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_DEFS } from '../../src/core/diagnostics/codes.ts';
import { isPartialAt, logVerdict, partialFrom } from '../../src/core/session/verdict.ts';
import { inspect } from '../../src/core/inspect.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { assistantData, events, header, jsonl, userMessage, type Row } from '../helpers/log-builder.ts';

/**
 * The verdict (issue #16): one pure function tells apart a log DSH would
 * refuse, a log newer than this app and a file that is not a DSH log, each
 * on a small hand-made log.
 */
const v4 = (extra: Row = {}) => header({ version: 4, isSeeded: false, ...extra });
const turn = (...middle: [string, unknown, Row?][]) => events(
  ['turn/start', { turn: 1 }],
  ['user/message', userMessage('u1', 'hi'), { surfaceOp: 'append' }],
  ...middle,
  ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
);
const verdictOf = (text: string) => inspect(readLogText(text));
const errors = (text: string) => verdictOf(text).diagnostics.filter((d) => d.severity === 'error');

describe('verdict: ok', () => {
  it('a clean format-4 log: ok, no error, nothing partial', () => {
    const r = verdictOf(jsonl([v4(), ...turn(['assistant/message', { ...assistantData('a1', 'hello'), stream: [] }, { surfaceOp: 'append' }])]));
    expect(r.verdict).toBe('ok');
    expect(r.ok).toBe(true);
    expect(r.verdictDetail).toMatchObject({ kind: 'ok', causes: [], partial: null, requires: null });
    expect(r.verdictDetail.summary).toBe('DSH would restore this log.');
  });

  it('a format-4 log using 0.2.1-alpha.2 vocabulary is ok and says which DSH it needs', () => {
    const r = verdictOf(jsonl([v4(), ...turn(['working-directory/change', { cwd: '/work/sub' }])]));
    expect(r.verdict).toBe('ok');
    expect(r.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
    expect(r.verdictDetail.requires).toEqual({ release: '0.2.1-alpha.2', because: ['working-directory/change'] });
  });
});

describe('verdict: DSH would refuse (a rule DSH enforces fails)', () => {
  it('a seq gap', () => {
    const rows = turn();
    rows[2] = { ...rows[2], seq: 7 };
    const r = verdictOf(jsonl([v4(), ...rows]));
    expect(r.verdict).toBe('dsh-refuses');
    expect(r.ok).toBe(false);
    expect(r.verdictDetail.causes[0]).toMatchObject({ code: 'row.seq-gap', seq: 7 });
    expect(r.verdictDetail.summary).toMatch(/^DSH would refuse to restore this log: .*seq gap/);
    expect(r.verdictDetail.partial).toBeNull();
  });

  // What 0.2.1-alpha.2 checks of each event when it restores a format-4 log (dsh-0.2 §2 catalog; its Session constructor).
  const system = (kind: string) => ({ turn: 1, step: 1, message: { id: 's1', role: 'system', content: [{ type: 'text', text: 'be brief' }], source: { kind, plugin: '@deepseek-ai/dsh-system-prompt' } } });
  const requestHeader = (extra: Row) => ({ header: { config: { provider: 'p', model: 'm' } }, reason: 'initial', ...extra });
  it.each([
    ['a reply without its stream', ['assistant/message', assistantData('a1', 'hello'), { surfaceOp: 'append' }], 'data.stream'],
    ['a system prompt whose source is not system-prompt', ['system/message', system('plugin'), { surfaceOp: 'append' }], 'data.message.source.kind'],
    ['a request header written for a reason DSH does not know', ['request/header', requestHeader({ reason: 'fallback' })], 'data.reason'],
    ['a request header whose series marker is not true', ['request/header', requestHeader({ startsSeries: false })], 'data.startsSeries'],
  ] as const)('%s (format 4)', (_what, row, path) => {
    const r = verdictOf(jsonl([v4(), ...turn(row as unknown as [string, unknown, Row?])]));
    expect(r.verdict).toBe('dsh-refuses');
    expect(r.verdictDetail.causes[0]).toMatchObject({ code: 'payload.schema', seq: 2 });
    expect(r.diagnostics.find((d) => d.code === 'payload.schema')?.path).toBe(path);
  });

  it('the same system prompt, reply and header pass in their own shapes, and a format-3 system prompt keeps its plugin source', () => {
    const ok = [
      ['system/message', system('system-prompt'), { surfaceOp: 'append' }],
      ['request/header', requestHeader({ reason: 'series', startsSeries: true })],
      ['assistant/message', { ...assistantData('a1', 'hello'), stream: [] }, { surfaceOp: 'append' }],
    ] as [string, unknown, Row?][];
    expect(errors(jsonl([v4(), ...turn(...ok)]))).toEqual([]);
    const v3 = header({ version: 3, isSeeded: false });
    expect(errors(jsonl([v3, ...turn(['system/message', system('plugin'), { surfaceOp: 'append' }])]))).toEqual([]);
  });

  it('a log-only event with surface fields, even when the log is also newer than the app', () => {
    // The refusal comes before the unknown type, so it cannot follow from it.
    const r = verdictOf(jsonl([v4(), ...turn(['step/start', { turn: 1, step: 1 }, { surfaceOp: 'append' }], ['future/thing', {}])]));
    expect(r.verdict).toBe('dsh-refuses');
    expect(r.verdictDetail.causes.map((c) => c.code)).toEqual(['surface.marker']);
  });
});

describe('verdict: newer than this app', () => {
  it('an unknown log-only type: named, what the app knows said, surface, messages and requests exact, projections partial from it', () => {
    const rows = events(
      ['turn/start', { turn: 1 }],
      ['future/feature', { x: 1 }],
      ['user/message', userMessage('u1', 'after the unknown one'), { surfaceOp: 'append' }],
      ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
    );
    const r = verdictOf(jsonl([v4(), ...rows]));
    expect(r.verdict).toBe('newer-than-app');
    expect(r.ok).toBe(true);
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const finding = r.diagnostics.find((d) => d.code === 'type.unknown-required')!;
    expect(finding.path).toBeUndefined();
    expect(finding.message).toMatch(/carries no message or surface fields, so the surface, messages and requests are exact/);
    expect(r.verdictDetail.unknown).toEqual(['future/feature']);
    expect(r.verdictDetail.summary).toMatch(/^This log is newer than this app, or uses a fork's own vocabulary: it uses future\/feature.*it knows DSH 0\.1\.0-rc\.8 … 0\.2\.1-alpha\.2 and 0\.2\.1-rc\.2's background jobs, session formats 0–4/);
    expect(r.verdictDetail.summary).toMatch(/surface and messages and model requests are exact .*; projections are partial from seq 1\./);
    expect(r.verdictDetail.exact).toEqual(['surface and messages', 'model requests']);
    expect(r.verdictDetail.partial).toEqual({ fromSeq: 1, analyses: ['projections'], from: { projections: 1 } });
    // The event after the unknown one is folded and sent to the model.
    expect(r.surface.nodes).toEqual([2]);
    expect(r.messages.map((m) => m.id)).toEqual(['u1']);
    expect(isPartialAt(r.verdictDetail, 'projections', 0)).toBe(false);
    expect(isPartialAt(r.verdictDetail, 'projections', 2)).toBe(true);
    expect(isPartialAt(r.verdictDetail, 'surface and messages', 2)).toBe(false);
  });

  it.each([
    ['a surfaceOp', ['future/message', { text: 'x' }, { surfaceOp: 'append' }], 'surfaceOp'],
    ['a message in its payload', ['future/message', { message: { id: 'm', role: 'user', content: [] } }], 'data.message'],
    ['sourceEventSeqs', ['future/message', {}, { sourceEventSeqs: [1] }], 'sourceEventSeqs'],
  ] as const)('an unknown type with %s could change the surface: every analysis partial from it', (_what, row, path) => {
    const r = verdictOf(jsonl([v4(), ...turn(row as unknown as [string, unknown, Row?])]));
    expect(r.verdict).toBe('newer-than-app');
    expect(r.diagnostics.find((d) => d.code === 'type.unknown-required')?.path).toBe(path);
    expect(r.verdictDetail.exact).toEqual([]);
    expect(r.verdictDetail.partial).toMatchObject({ fromSeq: 2, analyses: ['surface and messages', 'model requests', 'projections'] });
    expect(r.verdictDetail.summary).toMatch(/surface and messages, model requests, projections are partial from seq 2\./);
  });

  it('a log-only unknown early and a surface one later: each analysis partial from its own seq', () => {
    const r = verdictOf(jsonl([v4(), ...turn(['future/feature', {}], ['future/message', { text: 'x' }, { surfaceOp: 'append' }])]));
    expect(r.verdictDetail.partial).toEqual({ fromSeq: 2, analyses: ['projections', 'surface and messages', 'model requests'], from: { projections: 2, 'surface and messages': 3, 'model requests': 3 } });
    expect(isPartialAt(r.verdictDetail, 'surface and messages', 2)).toBe(false);
    expect(isPartialAt(r.verdictDetail, 'surface and messages', 3)).toBe(true);
    expect(r.verdictDetail.summary).toMatch(/projections are partial from seq 2; surface and messages, model requests are partial from seq 3/);
  });

  it('an unknown type naming message-projection targets could rewrite messages: not log-only', () => {
    const r = verdictOf(jsonl([v4(), ...turn(['message/redact', { targets: [{ seq: 1 }] }])]));
    expect(r.diagnostics.find((d) => d.code === 'type.unknown-required')?.path).toBe('data.targets');
    expect(r.verdictDetail.exact).toEqual([]);
  });

  it('a unit partial earlier than projections as a whole: the earlier seq decides for that unit', () => {
    const goal = { kind: 'goal/change', version: 2, operation: 'create', goal: {}, roundsStarted: 0, createdAt: 1, updatedAt: 1 };
    const r = verdictOf(jsonl([v4(), ...turn(['goal/change', goal], ['step/start', { turn: 1, step: 1 }], ['future/feature', {}])]));
    expect(partialFrom(r.verdictDetail, 'projections', 'goal')).toBe(2);
    expect(isPartialAt(r.verdictDetail, 'projections', 3, 'goal')).toBe(true);
    expect(isPartialAt(r.verdictDetail, 'projections', 3, 'todo')).toBe(false);
    expect(partialFrom(r.verdictDetail, 'projections', 'todo')).toBe(4);
  });

  it('a log-only unknown type does not excuse a later surface refusal: DSH refuses it on its own', () => {
    const rows = events(
      ['turn/start', { turn: 1 }],
      ['future/feature', {}],
      ['user/message', userMessage('u2', 'summary'), { surfaceOp: { op: 'replace', startSeq: 7, endSeq: 8 }, sourceEventSeqs: [0] }],
      ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
    );
    const r = verdictOf(jsonl([v4(), ...rows]));
    expect(r.verdict).toBe('dsh-refuses');
  });

  it('an unknown type with a surfaceOp stays opaque; a later replace citing it is a consequence, not a refusal', () => {
    const rows = events(
      ['turn/start', { turn: 1 }],
      ['user/message', userMessage('u1', 'hi'), { surfaceOp: 'append' }],
      ['future/message', { text: 'a newer surface type?' }, { surfaceOp: 'append' }],
      ['user/message', userMessage('u2', 'summary'), { surfaceOp: { op: 'replace', startSeq: 1, endSeq: 2 }, sourceEventSeqs: [1, 2] }],
      ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
    );
    const r = verdictOf(jsonl([v4(), ...rows]));
    expect(r.diagnostics.map((d) => d.code)).toContain('surface.endpoint');
    expect(r.verdict).toBe('newer-than-app');
    expect(r.verdictDetail.summary).toMatch(/1 later finding\(s\) DSH's rules raise may only follow from it/);
  });

  it('a format above 4 with a DSH header: newer, read with format-4 rules, possibly a fork\'s own format', () => {
    const r = verdictOf(jsonl([v4({ version: 5 }), ...turn()]));
    expect(r.verdict).toBe('newer-than-app');
    expect(r.format).toMatchObject({ version: 5, dialect: 'v4' });
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.verdictDetail.unknown).toEqual(['format 5']);
    expect(r.verdictDetail.summary).toMatch(/session format 5.*fork's own format/);
    expect(r.verdictDetail.partial).toMatchObject({ fromSeq: null, analyses: ['surface and messages', 'model requests', 'projections'] });
    expect(r.surface.nodes).toEqual([1]);
  });

  it('an unknown payload version: names the type and version; only the analyses that read it are partial', () => {
    const goal = { kind: 'goal/change', version: 2, operation: 'create', goal: {}, roundsStarted: 0, createdAt: 1, updatedAt: 1 };
    const r = verdictOf(jsonl([v4(), ...turn(['goal/change', goal])]));
    expect(r.verdict).toBe('newer-than-app');
    const finding = r.diagnostics.find((d) => d.code === 'payload.unknown-version')!;
    expect(finding).toMatchObject({ severity: 'warning', seq: 2, path: 'data.version', subject: 'goal/change payload version 2' });
    expect(r.verdictDetail.summary).toMatch(/it uses goal\/change payload version 2, which this app does not know/);
    expect(finding.message).toMatch(/goal\/change payload version 2 is newer than this app knows \(it reads version 1\)/);
    expect(r.verdictDetail.partial).toEqual({ fromSeq: 2, analyses: ['projections (goal)'], from: { 'projections (goal)': 2 } });
    expect(isPartialAt(r.verdictDetail, 'projections', 3, 'goal')).toBe(true);
    expect(isPartialAt(r.verdictDetail, 'projections', 3, 'todos')).toBe(false);
  });

  it('names the fork a known fork-only type comes from', () => {
    const r = verdictOf(jsonl([header({ version: 3, isSeeded: false }), ...turn(['request/tool-update', { headerSeq: 0, afterMessageId: 'u1', additions: ['x'], removals: [] }])]));
    expect(r.verdict).toBe('newer-than-app');
    expect(r.verdictDetail.summary).toMatch(/request\/tool-update: Bake, a DSH derivative/);
  });
});

describe('verdict: not a DSH log', () => {
  it('an empty file', () => {
    const r = verdictOf('');
    expect(r.verdict).toBe('not-dsh');
    expect(r.verdictDetail.summary).toMatch(/^Not a DSH session log: The log is empty/);
  });

  it('JSONL without a session header (another tool\'s transcript)', () => {
    const text = jsonl([{ role: 'user', content: 'hello' }, { role: 'assistant', content: 'hi' }]);
    const r = verdictOf(text);
    expect(r.verdict).toBe('not-dsh');
    expect(r.verdictDetail.causes.map((c) => c.code)).toEqual(['header.missing']);
    expect(r.verdictDetail.summary).toMatch(/first line is a \{"type":"session"\} header/);
  });

  it('binary input', () => {
    const bytes = String.fromCharCode(...Array.from({ length: 2048 }, (_, i) => (i * 7) % 32));
    expect(verdictOf(bytes).verdict).toBe('not-dsh');
  });

  it('a newer format number on a line without the DSH header shape', () => {
    const r = verdictOf(jsonl([{ type: 'session', version: 7, name: 'something else' }]));
    expect(r.verdict).toBe('not-dsh');
    expect(r.verdictDetail.summary).toMatch(/says format 7 but lacks the id and createdAt/);
  });
});

describe('severity policy: a log DSH restores shows no error', () => {
  it('every error-severity code is one DSH refuses; newer and not-DSH findings are flagged as such', () => {
    const defs = Object.entries(DIAGNOSTIC_DEFS) as [string, { severity: string; refuses?: boolean; newer?: boolean; notDsh?: boolean }][];
    expect(defs.filter(([, d]) => d.severity === 'error' && !d.refuses).map(([code]) => code)).toEqual([]);
    expect(defs.filter(([, d]) => d.newer && (d.refuses || d.severity === 'error')).map(([code]) => code)).toEqual([]);
    expect(defs.filter(([, d]) => d.newer).map(([code]) => code).sort()).toEqual(['header.unsupported-version', 'payload.unknown-version', 'type.unknown-required']);
  });

  it('a model call with no earlier request/header in a scripted v4 fixture is a warning that says what cannot be shown', () => {
    const rows = events(
      ['turn/start', { turn: 1 }],
      ['step/start', { turn: 1, step: 1 }],
      ['user/message', userMessage('u1', 'hi'), { surfaceOp: 'append' }],
      ['assistant/message', { ...assistantData('a1', 'scripted'), stream: [] }, { surfaceOp: 'append' }],
      ['step/end', { turn: 1, step: 1 }],
      ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
    );
    const text = jsonl([v4(), ...rows]);
    expect(errors(text)).toEqual([]);
    const noHeader = verdictOf(text).diagnostics.find((d) => d.code === 'request.no-header');
    expect(noHeader).toMatchObject({ severity: 'warning', seq: 3 });
    expect(noHeader!.message).toMatch(/provider, model, tools and config cannot be shown/);
    expect(verdictOf(text).verdict).toBe('ok');
  });

  it('the verdict is a pure function of the read and fold findings and the header', () => {
    const text = jsonl([v4(), ...turn(['future/feature', {}])]);
    const session = foldSession(readLogText(text));
    const input = { header: session.read.header, version: session.read.version, diagnostics: session.diagnostics };
    expect(logVerdict(input)).toEqual(logVerdict(input));
    expect(logVerdict(input).kind).toBe('newer-than-app');
    expect(logVerdict({ ...input, diagnostics: [] }).kind).toBe('ok');
    expect(logVerdict({ ...input, header: null, diagnostics: [] }).kind).toBe('not-dsh');
  });
});
