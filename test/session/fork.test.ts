import { describe, expect, it } from 'vitest';
import { generateFork } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { events, header, jsonl } from '../helpers/log-builder.ts';

describe('subagent forks (spec §1.7)', () => {
  for (const dialect of ['v0', 'v4'] as const) {
    it(`${dialect}: the child inherits the parent's events before the cut, then the marker, then its own turns`, () => {
      const { parent, child } = generateFork({ dialect, seed: 4, turns: 4, afterTurn: 2, childTurns: 2 });
      const p = readLogText(parent.text);
      const c = foldSession(readLogText(child.text));
      const marker = c.read.events.findIndex((e) => e.type === 'session/end-seed');
      expect(marker).toBeGreaterThan(0);
      expect(c.read.events.slice(0, marker)).toEqual(p.events.slice(0, marker));
      expect(c.read.events[marker].data).toEqual(dialect === 'v4' ? { inherited: true } : {});
      expect(c.read.header).toMatchObject({ parentSession: p.header!.id, origin: 'subagent', delegationDepth: 1 });
      if (dialect === 'v0') expect(c.read.header!.seedLength).toBe(marker);
      else expect(c.read.header!.isSeeded).toBe(true);
      expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      // The child goes on with its own turns after the inherited ones.
      const turns = c.read.events.filter((e) => e.type === 'turn/start').map((e) => e.data.turn);
      expect(turns).toEqual([1, 2, 3, 4]);
      expect(c.read.events.length).not.toBe(p.events.length);
    });
  }

  it('flags a fork cut that does not hold (E16)', () => {
    const turn = events(['turn/start', { turn: 1 }], ['turn/end', { turn: 1, reason: { kind: 'completed' } }]);
    const seededV4 = readLogText(jsonl([header({ version: 4, isSeeded: true }), ...turn]));
    expect(seededV4.diagnostics.find((d) => d.code === 'header.seed')?.message).toContain('lacks its inherited end-seed marker');
    const longSeed = readLogText(jsonl([header({ seedLength: 9 }), ...turn]));
    expect(longSeed.diagnostics.find((d) => d.code === 'header.seed')?.message).toContain('seedLength 9 exceeds the 2 events');
    const fine = readLogText(jsonl([header({ version: 4, isSeeded: true }), ...turn, { type: 'session/end-seed', seq: 2, time: 1, data: { inherited: true } }]));
    expect(fine.diagnostics.filter((d) => d.code === 'header.seed')).toEqual([]);
  });
});
