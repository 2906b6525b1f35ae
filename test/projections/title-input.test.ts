import { describe, expect, it } from 'vitest';
import { readLogText } from '../../src/core/log/reader.ts';
import { foldProjections } from '../../src/core/projections/index.ts';
import { unitsFor } from '../../src/core/projections/units/index.ts';
import { cleanTitleText } from '../../src/core/projections/units/title-text.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { events, header, jsonl, userMessage, type Row } from '../helpers/log-builder.ts';

/** `titleInput` (spec §4.5, seed and 0.2.1-alpha.2): the title service's host-only input. */
const v4 = () => header({ version: 4, isSeeded: false });
const said = (id: string, text: string, kind = 'user'): Row => ({ ...userMessage(id, text), source: { kind } });

describe('cleaning a title text (DSH normalize.ts)', () => {
  it.each([
    ['  a\tb\n\n c  ', 'a b c'],
    ['\u200Bx\u202E', 'x'],
    ['\u001b[31mred\u001b[0m', 'red'],
    ['\u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\', 'link'],
    ['\u001b]0;window title\u0007', ''],
    ['\u001b]0;unterminated to the end', ''],
    ['\u0000\u0007\u009f', ''],
    ['\u001bMx', 'x'],
  ])('%j → %j', (text, clean) => {
    expect(cleanTitleText(text)).toBe(clean);
  });
});

describe('titleInput unit', () => {
  it('is registered host-only for the seed generation and later, not for rc.8', () => {
    for (const dialect of ['v3', 'v4'] as const) expect(unitsFor(dialect).find((u) => u.key === 'titleInput')?.hostOnly).toBe(true);
    expect(unitsFor('v0').map((u) => u.key)).not.toContain('titleInput');
  });

  it('keeps the first human prompt with visible text, counts them, and notes the last', () => {
    const rows = events(
      ['turn/start', { turn: 1 }],
      ['user/message', said('u0', '\u001b]0;just a terminal title\u0007'), { surfaceOp: 'append' }],
      ['user/message', { ...said('u1', ''), content: [{ type: 'text', text: ' Fix' }, { type: 'image', data: 'AA' }, { type: 'text', text: 'the build ' }] }, { surfaceOp: 'append' }],
      ['user/message', said('g1', 'keep going', 'goal'), { surfaceOp: 'append' }],
      ['user/message', { ...said('u2', 'x'), content: [{ type: 'image', data: 'AA' }] }, { surfaceOp: 'append' }],
      ['user/message', said('u3', 'and the tests'), { surfaceOp: 'append' }],
      ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
    );
    const session = foldSession(readLogText(jsonl([v4(), ...rows])));
    const registry = foldProjections(session.read.header, session.events, { dialect: 'v4', history: true });
    // The first prompt's text blocks joined by a line feed, as logged: only the check cleans it.
    expect(registry.cell('titleInput')!.view).toEqual({ first: { seq: 2, text: ' Fix\nthe build ' }, count: 2, lastSeq: 5 });
    expect(registry.changeSeqs('titleInput')).toEqual([2, 5]);
    expect(registry.snapshot().values).not.toHaveProperty('titleInput');
  });

  it('a user/message with no source stops the unit there, as reading it throws in DSH', () => {
    const rows = events(['turn/start', { turn: 1 }], ['user/message', { id: 'u', role: 'user', content: [{ type: 'text', text: 'hi' }] }, { surfaceOp: 'append' }], ['turn/end', { turn: 1, reason: { kind: 'completed' } }]);
    const session = foldSession(readLogText(jsonl([v4(), ...rows])));
    const registry = foldProjections(session.read.header, session.events, { dialect: 'v4' });
    expect(registry.cell('titleInput')!.failure).toMatchObject({ seq: 1, kind: 'threw' });
  });
});
