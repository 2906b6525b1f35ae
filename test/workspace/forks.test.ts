import { describe, expect, it } from 'vitest';
import { generateFork } from '../../src/core/generate/generate-log.ts';
import type { LogEvent, SessionHeader } from '../../src/core/log/types.ts';
import { childRefOf, inheritedEventCount, linkChildren, spawnPointOf } from '../../src/core/workspace/forks.ts';
import { Engine } from '../../src/worker/engine.ts';

const h = (extra: Partial<SessionHeader>): SessionHeader => ({ type: 'session', id: 'x', createdAt: 1, ...extra });
const ev = (type: string, seq: number, data: unknown): LogEvent => ({ type, seq, time: seq, data });

describe('fork children (log-and-surface §1.7)', () => {
  it('the inherited count is seedLength before format 2, the last tagged end-seed after', () => {
    expect(inheritedEventCount(h({ version: 0, seedLength: 36 }), null)).toBe(36);
    expect(inheritedEventCount(h({ version: 0 }), 12)).toBe(0);
    expect(inheritedEventCount(h({ version: 4, isSeeded: true }), 41)).toBe(41);
    expect(inheritedEventCount(h({ version: 4, isSeeded: false }), 41)).toBe(0);
    expect(inheritedEventCount(h({ version: 4, isSeeded: true }), null)).toBe(0);
    expect(inheritedEventCount(null, 3)).toBe(0);
  });

  it.each(['v0', 'v4'] as const)('a generated %s fork child reports its inherited events; its parent has none', async (dialect) => {
    const { parent, child } = generateFork({ dialect, seed: 5, turns: 4, afterTurn: 2, childTurns: 1 });
    const childHeader = JSON.parse(child.text.slice(0, child.text.indexOf('\n'))) as SessionHeader;
    const engine = new Engine();
    const summary = await engine.load({ kind: 'text', text: child.text, name: 'child.jsonl' }, () => {});
    const marker = child.events.findIndex((e) => e.type === 'session/end-seed');
    expect(marker).toBeGreaterThan(0);
    expect(summary.inherited).toEqual({ seq: child.events[marker].seq, events: marker });
    if (dialect === 'v0') expect(summary.inherited.seq).toBe(childHeader.seedLength);
    else expect(childHeader.isSeeded).toBe(true);
    // The inherited events are the parent's own, seq for seq.
    expect(child.events.slice(0, marker).map((e) => [e.seq, e.type])).toEqual(parent.events.slice(0, marker).map((e) => [e.seq, e.type]));
    const plain = await new Engine().load({ kind: 'text', text: parent.text, name: 'parent.jsonl' }, () => {});
    expect(plain.inherited).toEqual({ seq: 0, events: 0 });
  });
});

describe('spawn points and child links (issue #17)', () => {
  const call = (seq: number, name: string, description: string) => ev('tool/call', seq, { turn: 1, step: 1, callId: `c${seq}`, name, arguments: JSON.stringify({ description, prompt: 'p' }) });

  it('subagent calls, catalog and workflow records start children; other calls do not', () => {
    expect(spawnPointOf(call(7, 'subagent', 'Say ALPHA'))).toEqual({ seq: 7, kind: 'tool-call', name: 'subagent', label: 'Say ALPHA', childId: null, fork: false });
    expect(spawnPointOf(call(9, 'subagent_fork', 'Recall'))).toMatchObject({ fork: true, label: 'Recall' });
    expect(spawnPointOf(call(9, 'bash', 'ls'))).toBeNull();
    expect(spawnPointOf(ev('tool/call', 3, { name: 'subagent', arguments: 'not json' }))).toMatchObject({ label: null });
    expect(spawnPointOf(ev('subagent/catalog', 4, { version: 0, childId: 'kid', childCreatedAt: 0, mode: 'one-shot', label: 'L' }))).toEqual({ seq: 4, kind: 'catalog', name: 'subagent/catalog', label: 'L', childId: 'kid', fork: false });
    expect(spawnPointOf(ev('tool-workflow/agent-start', 5, { runId: 'r', seq: 1, label: 'w', childId: 'kid2' }))).toMatchObject({ kind: 'workflow', childId: 'kid2' });
  });

  it('a record naming the child wins; the rest pair children by creation with calls by seq, forks with fork calls', () => {
    const points = [call(10, 'subagent', 'one'), call(20, 'subagent_fork', 'fork'), call(30, 'subagent', 'two'), spawnPointOf(ev('subagent/catalog', 40, { childId: 'named' }))!];
    const kids = [
      childRefOf(h({ id: 'second', createdAt: 9 })),
      childRefOf(h({ id: 'forked', createdAt: 5, seedLength: 4 })),
      childRefOf(h({ id: 'first', createdAt: 3 })),
      childRefOf(h({ id: 'named', createdAt: 1 })),
    ];
    const links = linkChildren(points.map((p) => ('type' in p ? spawnPointOf(p)! : p)), kids);
    expect(Object.fromEntries(links)).toEqual({ named: 40, first: 10, second: 30, forked: 20 });
  });

  it('a child with no call left stays unlinked', () => {
    expect(linkChildren([call(10, 'subagent', 'one')].map((e) => spawnPointOf(e)!), [childRefOf(h({ id: 'a', createdAt: 1 })), childRefOf(h({ id: 'b', createdAt: 2 }))])).toEqual(new Map([['a', 10]]));
  });
});
