import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/generate/prng.ts';
import type { Dialect, LogEvent } from '../../src/core/log/types.ts';
import { applySurfacePlan } from '../../src/core/surface/apply.ts';
import { eventLookup, foldSurface } from '../../src/core/surface/fold.ts';
import { planSurfaceEvent } from '../../src/core/surface/plan.ts';
import { cloneSurface, emptySurface, type SurfaceState } from '../../src/core/surface/types.ts';

/**
 * Seeded random logs built from valid surface operations (appends, nested
 * replaces, tool-result rewrites, image offloads) plus some invalid ones,
 * with an independent model of what the surface must be. Checks, per case:
 * the fold equals the model, and folding one event at a time (with clones
 * taken at random points, as checkpoints) equals folding every prefix from
 * scratch. A failing case prints its seed.
 */
interface Model { nodes: number[]; replaceGeneration: number; contentGeneration: number }

const IMAGE = { type: 'image', attachment: { attachmentId: 'sha256:0', mediaType: 'image/png', bytes: 1, width: 1, height: 1 } };

function randomLog(seed: number, dialect: Dialect): { events: LogEvent[]; model: Model } {
  const rng = new Rng(seed);
  const events: LogEvent[] = [];
  const model: Model = { nodes: [], replaceGeneration: 0, contentGeneration: 0 };
  const v4 = dialect === 'v4';
  const toolMessage = (id: string, text: string) => v4
    ? { id, role: 'tool', toolCallId: 'c', content: [{ type: 'text', text }], source: { kind: 'tool', callId: 'c' } }
    : { id, role: 'user', content: [{ type: 'tool-result', toolCallId: 'c', content: [{ type: 'text', text }] }], source: { kind: 'tool', callId: 'c' } };
  const replaceOp = (a: number, b: number) => (v4 ? { op: 'replace' as const, startSeq: a, endSeq: b } : { op: 'replace' as const, start: a, end: b });
  const push = (e: Omit<LogEvent, 'seq' | 'time'>) => { const seq = events.length; events.push({ ...e, seq, time: seq } as LogEvent); return seq; };
  const offloaded = new Map<number, number>(); // seq → images already offloaded (in order)

  const length = rng.int(1, 30);
  while (events.length < length) {
    const roll = rng.float();
    const seq = events.length;
    if (roll < 0.35 || model.nodes.length === 0) {
      const kind = rng.pick(['user', 'assistant', 'tool', 'image'] as const);
      if (kind === 'tool') push({ type: 'tool/result', data: { turn: 1, step: 1, message: toolMessage(`t${seq}`, 'out'.repeat(rng.int(1, 5))) }, surfaceOp: 'append' });
      else if (kind === 'assistant') push({ type: 'assistant/message', data: { turn: 1, step: 1, message: { id: `a${seq}`, role: 'assistant', content: [{ type: 'text', text: 'ok' }], source: { kind: 'model', provider: 'p', model: 'm' } } }, surfaceOp: 'append' });
      else push({ type: 'user/message', data: { id: `u${seq}`, role: 'user', content: kind === 'image' ? [IMAGE, IMAGE] : [{ type: 'text', text: 'hi' }], source: { kind: 'user' } }, surfaceOp: 'append' });
      model.nodes.push(seq);
    } else if (roll < 0.5) {
      push({ type: rng.pick(['turn/start', 'step/start', 'step/end', 'request/context']), data: { turn: 1, step: 1, provider: 'p', model: 'm' } });
    } else if (roll < 0.75) {
      // A compaction-style replace of a random contiguous range, citing every shadowed node.
      const i = rng.int(0, model.nodes.length - 1);
      const j = rng.int(i, Math.min(model.nodes.length - 1, i + 4));
      const shadowed = model.nodes.slice(i, j + 1);
      const cited = rng.chance(0.3) ? [...shadowed, rng.int(0, seq - 1)].filter((s, k, a) => a.indexOf(s) === k) : shadowed;
      push({ type: 'user/message', data: { id: `c${seq}`, role: 'user', content: [{ type: 'text', text: 'summary' }], source: { kind: 'compact' } }, surfaceOp: replaceOp(model.nodes[i], model.nodes[j]), sourceEventSeqs: cited });
      model.nodes.splice(i, j - i + 1, seq);
      model.replaceGeneration++;
      model.contentGeneration++;
    } else if (roll < 0.85) {
      const target = model.nodes.find((s) => events[s].type === 'tool/result' && rng.chance(0.5));
      if (target === undefined) continue;
      const data = { ...events[target].data, message: toolMessage(events[target].data.message.id, '[pruned]') };
      push({ type: 'tool/result', data, surfaceOp: replaceOp(target, target), sourceEventSeqs: [target] });
      model.nodes.splice(model.nodes.indexOf(target), 1, seq);
      model.replaceGeneration++;
      model.contentGeneration++;
    } else if (roll < 0.92 && v4) {
      const target = model.nodes.find((s) => events[s].type === 'user/message' && events[s].data.content[0]?.type === 'image' && (offloaded.get(s) ?? 0) < 2);
      if (target === undefined) continue;
      const done = offloaded.get(target) ?? 0;
      offloaded.set(target, done + 1);
      push({ type: 'image/offload', data: { targets: [{ seq: target, imageIndexes: [done] }] } });
      model.contentGeneration++;
    } else {
      // Invalid on purpose: the fold must reject it and change nothing.
      const i = rng.int(0, model.nodes.length - 1);
      const j = Math.min(i + 1, model.nodes.length - 1);
      const bad = rng.pick(['uncovered', 'empty', 'future', 'missing-endpoint'] as const);
      const op = bad === 'missing-endpoint' ? replaceOp(seq + 100, model.nodes[i]) : replaceOp(model.nodes[i], model.nodes[j]);
      const covered = model.nodes.slice(i, j + 1);
      const sources = bad === 'uncovered' ? covered.slice(0, -1) : bad === 'empty' ? [] : bad === 'future' ? [...covered, seq] : covered;
      if (bad === 'uncovered' && i === j) continue;
      push({ type: 'user/message', data: { id: `x${seq}`, role: 'user', content: [], source: { kind: 'user' } }, surfaceOp: op, sourceEventSeqs: sources });
    }
  }
  if (!v4) model.contentGeneration = model.replaceGeneration; // rc.8 has no projections
  return { events, model };
}

const summary = (s: SurfaceState) => ({ nodes: s.nodes, replaceGeneration: s.replaceGeneration, contentGeneration: s.contentGeneration, projected: [...s.projected] });

describe('surface fold property: incremental = from scratch = model', () => {
  const CASES = 10_000;
  it(`holds for ${CASES} seeded random logs (both dialects)`, () => {
    let checkedPrefixes = 0;
    for (let seed = 1; seed <= CASES; seed++) {
      const dialect: Dialect = seed % 2 ? 'v0' : 'v4';
      const { events, model } = randomLog(seed, dialect);
      const full = foldSurface(events, dialect);
      const where = `seed ${seed} (${dialect})`;
      expect({ nodes: full.state.nodes, replaceGeneration: full.state.replaceGeneration, contentGeneration: full.state.contentGeneration }, where).toEqual(model);

      // One event at a time, with a checkpoint clone continuing from a random prefix.
      const ctx = { dialect, eventAt: eventLookup(events) };
      let live = emptySurface();
      let checkpoint: SurfaceState | null = null;
      const checkpointAt = seed % events.length;
      for (let k = 0; k < events.length; k++) {
        if (k === checkpointAt) checkpoint = cloneSurface(live);
        applySurfacePlan(live, planSurfaceEvent(live, events[k], ctx));
        const prefix = foldSurface(events.slice(0, k + 1), dialect);
        expect(summary(live), `${where} prefix ${k + 1}`).toEqual(summary(prefix.state));
        checkedPrefixes++;
      }
      if (checkpoint) {
        for (let k = checkpointAt; k < events.length; k++) applySurfacePlan(checkpoint, planSurfaceEvent(checkpoint, events[k], ctx));
        expect(summary(checkpoint), `${where} resumed from checkpoint ${checkpointAt}`).toEqual(summary(live));
        live = checkpoint;
      }
    }
    expect(checkedPrefixes).toBeGreaterThan(CASES);
  });
});
