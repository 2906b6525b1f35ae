import { describe, expect, it } from 'vitest';
import { applySurfacePlan } from '../../src/core/surface/apply.ts';
import { eventLookup, foldSurface } from '../../src/core/surface/fold.ts';
import { planSurfaceEvent } from '../../src/core/surface/plan.ts';
import { emptySurface } from '../../src/core/surface/types.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { readLogFile } from '../../scripts/node-source.ts';
import { corpusLogs } from './corpus-dir.ts';

const logs = corpusLogs();

describe('incremental fold equals the from-scratch fold at every prefix, on every corpus log', () => {
  it.each(logs.map((l) => [l.name, l] as const))('%s', async (_name, log) => {
    const read = await readLogFile(log.file);
    const ctx = { dialect: read.dialect, eventAt: eventLookup(read.events) };
    const live = emptySurface();
    read.events.forEach((event, k) => {
      applySurfacePlan(live, planSurfaceEvent(live, event, ctx));
      const scratch = foldSurface(read.events.slice(0, k + 1), read.dialect).state;
      expect([live.nodes, live.replaceGeneration, live.contentGeneration]).toEqual([scratch.nodes, scratch.replaceGeneration, scratch.contentGeneration]);
    });
  });
});

describe('V3/V4 logs (no DSH reference yet): zero fold errors, and the values the spec gives by hand', () => {
  const newer = logs.filter((l) => /\.v[34]$/.test(l.name));
  it.each(newer.map((l) => [l.name, l] as const))('%s folds without surface errors', async (_name, log) => {
    const session = foldSession(await readLogFile(log.file));
    expect(session.diagnostics.filter((d) => d.code.startsWith('surface.'))).toEqual([]);
  });

  it('session-compaction-recovery.v4: [7,8,9,13,15] + replace(8..9) at 21, then 24 → [7,21,13,15,24]', async () => {
    const log = newer.find((l) => l.name === 'session-compaction-recovery.v4')!;
    const session = foldSession(await readLogFile(log.file));
    expect(session.surface.nodes).toEqual([7, 21, 13, 15, 24]);
    expect([session.surface.replaceGeneration, session.surface.contentGeneration]).toEqual([1, 1]);
    expect(session.surface.replacements).toEqual([{ seq: 21, start: 8, end: 9, shadowedSeqs: [8, 9], index: 1 }]);
  });

  it('pysdk-advanced.v4: image/offload at 18 rewrites node 13 in place (contentGeneration 1, replaceGeneration 0)', async () => {
    const log = newer.find((l) => l.name === 'pysdk-advanced.v4')!;
    const session = foldSession(await readLogFile(log.file));
    expect([session.surface.replaceGeneration, session.surface.contentGeneration]).toEqual([0, 1]);
    expect(session.surface.nodes.slice(0, 5)).toEqual([9, 10, 11, 12, 13]);
    const projected = session.surface.projected.get(13)!;
    expect(projected.id).toBe(session.eventAt(13)!.data.id);
    expect(projected.content.find((b) => b.type === 'image')?.offloaded).toBe(true);
    expect(session.messages.some((m) => m === projected)).toBe(true);
  });
});
