import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { foldProjections } from '../../src/core/projections/fold.ts';
import { projectionsOf } from '../../src/core/projections/index.ts';
import { unitsFor } from '../../src/core/projections/units/index.ts';
import { workingDirectoryUnit } from '../../src/core/projections/units/working-directory.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { events, header, jsonl, userMessage, type Row } from '../helpers/log-builder.ts';
import { Engine } from '../../src/worker/engine.ts';

/** `workingDirectory` (dsh-0.2 §4.4): header cwd or null, then each change replaces it. */
const v4 = (extra: Row = {}) => header({ version: 4, isSeeded: false, ...extra });

describe('workingDirectory unit (dsh-0.2 §4.4)', () => {
  it('is registered for format 4 only', () => {
    expect(unitsFor('v4').map((u) => u.key)).toContain('workingDirectory');
    expect(unitsFor('v3').map((u) => u.key)).not.toContain('workingDirectory');
    expect(unitsFor('v0').map((u) => u.key)).not.toContain('workingDirectory');
  });

  it('starts at the header cwd, or null without one, and each change replaces it; watermark moves on every event', () => {
    const rows = events(
      ['turn/start', { turn: 1 }],
      ['working-directory/change', { cwd: '/work/a' }],
      ['user/message', userMessage('u1', 'hi'), { surfaceOp: 'append' }],
      ['working-directory/change', { cwd: '/work/b' }],
      ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
    );
    for (const [head, initial] of [[v4(), '/work'], [v4({ cwd: undefined }), null]] as const) {
      const session = foldSession(readLogText(jsonl([JSON.parse(JSON.stringify(head)), ...rows])));
      const registry = foldProjections(session.read.header, session.events, { dialect: 'v4', history: true });
      expect(registry.stateAt('workingDirectory', 0)).toBe(initial);
      expect(registry.stateAt('workingDirectory', 1)).toBe('/work/a');
      expect(registry.stateAt('workingDirectory', 2)).toBe('/work/a');
      expect(registry.stateAt('workingDirectory', 3)).toBe('/work/b');
      expect(registry.changeSeqs('workingDirectory')).toEqual([1, 3]);
      const snap = registry.snapshot();
      expect(snap.values.workingDirectory).toBe('/work/b');
      expect(registry.cell('workingDirectory')!.observedSeq).toBe(session.events[session.events.length - 1].seq);
      expect(snap.failures).toBeUndefined();
    }
  });

  it('keeps the same state for every other event (the registry\'s Object.is rule, projections §1.2)', () => {
    const state = '/work/a';
    for (const type of ['turn/start', 'user/message', 'request/header', 'plugin:translator/request']) {
      expect(workingDirectoryUnit.apply(state, { type, seq: 1, time: 1, data: { cwd: '/elsewhere' } })).toBe(state);
    }
  });

  it('a change to a relative path fails the view schema, shown as the unit\'s failure (never a crash)', () => {
    const rows = events(['turn/start', { turn: 1 }], ['working-directory/change', { cwd: 'not/absolute' }], ['turn/end', { turn: 1, reason: { kind: 'completed' } }]);
    const session = foldSession(readLogText(jsonl([v4(), ...rows])));
    const snap = projectionsOf(session).snapshot();
    // A schema failure is found when the view is read: at the unit's watermark.
    expect(snap.failures?.workingDirectory).toMatchObject({ kind: 'schema', seq: session.events[session.events.length - 1].seq });
    expect(snap.failures?.workingDirectory.message).toMatch(/absolute path/);
  });

  it('in the app, the cursor shows the failure from the change that began it until a good change, with its seq', async () => {
    const rows = events(
      ['turn/start', { turn: 1 }],
      ['working-directory/change', { cwd: 'rel/a' }],
      ['user/message', userMessage('u1', 'hi'), { surfaceOp: 'append' }],
      ['working-directory/change', { cwd: 'rel/b' }],
      ['working-directory/change', { cwd: '/work/ok' }],
      ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
    );
    const engine = new Engine();
    await engine.load({ kind: 'text', text: jsonl([v4(), ...rows]), name: 'wd.jsonl' }, () => {});
    const failureAt = (index: number) => engine.projectionsAtIndex(index).find((p) => p.key === 'workingDirectory')!.failure;
    expect(failureAt(0)).toBeNull();
    for (const index of [1, 2, 3]) expect(failureAt(index)).toMatchObject({ kind: 'schema', seq: 1 });
    // In words, not zod's issues as JSON.
    expect(failureAt(3)!.message).toBe('view of "workingDirectory" fails its schema: value: must be an absolute path');
    expect(failureAt(4)).toBeNull();
  });

  it('a scrubbed {{cwd}} header (snapshot fixtures) is shown as the stand-in, not a failure', () => {
    const session = foldSession(readLogText(jsonl([v4({ cwd: '{{cwd}}' })])));
    const snap = projectionsOf(session).snapshot();
    expect(snap.values.workingDirectory).toBe('{{cwd}}');
    expect(snap.failures).toBeUndefined();
  });

  it('follows every change of a generated 0.2.1-shaped log', () => {
    const log = generateLog({ dialect: 'v4', dsh021: true, seed: 5, turns: 6 });
    const session = foldSession(readLogText(log.text));
    const registry = projectionsOf(session, { history: true });
    const changes = log.events.filter((e) => e.type === 'working-directory/change');
    expect(changes.length).toBeGreaterThanOrEqual(3);
    expect(registry.changeSeqs('workingDirectory')).toEqual(changes.map((e) => e.seq));
    for (const e of changes) expect(registry.stateAt('workingDirectory', e.seq)).toBe(e.data.cwd);
    expect(registry.snapshot().values.workingDirectory).toBe(changes[changes.length - 1].data.cwd);
  });
});
