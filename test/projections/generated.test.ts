import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { foldProjections } from '../../src/core/projections/index.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';

/** Spec §5.3 consistency checks on generated logs of both dialects. */
describe.each(['v0', 'v4'] as const)('generated %s log', (dialect) => {
  const session = foldSession(readLogText(generateLog({ dialect, seed: 7, turns: 5 }).text));
  const opts = { dialect: session.read.dialect, history: true };
  const registry = foldProjections(session.read.header, session.events, opts);
  const last = session.events[session.events.length - 1].seq;

  it('every cell sits at the last seq; nothing fails; no ignored-event purity findings', () => {
    for (const unit of registry.units) expect(registry.cell(unit.key)!.observedSeq).toBe(last);
    const snap = registry.snapshot();
    expect(snap.asOfSeq).toBe(last);
    expect(snap.failures).toBeUndefined();
    expect(registry.purityFindings.filter((f) => f.ignoredEvent)).toEqual([]);
  });

  it('the values reflect the log', () => {
    const v = registry.snapshot().values as any;
    expect(v.sessionStats.turns).toBe(5);
    expect(v.tokenUsage.outputTokens).toBeGreaterThan(0);
    expect(typeof v.title).toBe('string');
    // rc.8 has no inbox unit: its fold is the host's, out of the snapshot (projections §4.1).
    expect(v.inbox).toEqual(dialect === 'v0' ? undefined : { 'next-turn': [], 'next-step': [] });
    expect(registry.cell('inbox')).toMatchObject({ hostOnly: dialect === 'v0', view: { 'next-turn': [], 'next-step': [] } });
  });

  it('incremental drive equals restore({}, events, 0) and, at each cursor, a fresh fold', () => {
    expect(registry.restore({}, session.events, 0).snapshot.values).toEqual(registry.snapshot().values);
    for (const e of session.events.filter((_, i) => i % 17 === 0)) {
      expect(registry.snapshotAt(e.seq)).toEqual(foldProjections(session.read.header, session.events, { ...opts, upTo: e.seq }).snapshot());
    }
  });

  it('checkpoint at K then restore from its floor equals the live fold (round trip, §5.3.3)', () => {
    for (const k of [0, Math.floor(last / 3), last - 1]) {
      const cp = foldProjections(session.read.header, session.events, { ...opts, upTo: k }).checkpoint();
      const floor = registry.restoreFloor(cp)!;
      const { snapshot, checkpoint } = registry.restore(cp, session.events.filter((e) => e.seq >= floor), floor);
      expect(snapshot.values).toEqual(registry.snapshot().values);
      expect(Object.values(checkpoint).every((row) => row.seq === last)).toBe(true);
    }
  });

  it('the frames per key have strictly increasing seqs (§5.3.7)', () => {
    const frames = foldProjections(session.read.header, [], opts);
    const seqs = new Map<string, number[]>();
    frames.onChanged((f) => seqs.set(f.key, [...(seqs.get(f.key) ?? []), f.seq]));
    frames.applyAll(session.events);
    for (const list of seqs.values()) expect(list).toEqual([...new Set(list)].sort((a, b) => a - b));
    expect(seqs.get('sessionStats')!.length).toBeGreaterThan(5);
  });
});

describe('report glue for inspect and conformance', async () => {
  const { projectionsOf, projectionsReport, projectionMismatches } = await import('../../src/core/projections/index.ts');
  const session = foldSession(readLogText(generateLog({ dialect: 'v0', seed: 3, turns: 2 }).text));
  it('reports every unit with its watermark, and compares values and asOfSeq', () => {
    const registry = projectionsOf(session, { upTo: 5 });
    const report = projectionsReport(registry);
    expect(report.todos).toEqual({ observedSeq: 5, value: null });
    expect(report.turnBoundary.hostOnly).toBe(true);
    const snap = registry.snapshot();
    expect(projectionMismatches({ todos: { asOfSeq: 5, value: null } }, snap)).toEqual([]);
    expect(projectionMismatches({ todos: { asOfSeq: 6, value: [] } }, snap).map((m) => m.path)).toEqual(['projections.todos.value', 'projections.todos.asOfSeq']);
    expect(projectionMismatches(null, snap)).toEqual([]);
  });
});
