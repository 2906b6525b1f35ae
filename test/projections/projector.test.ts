import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { projectLog } from '../../src/core/projections/project-log.ts';
import { loadRegistry } from '../../src/core/projections/load-registry.ts';
import { readLog } from '../../src/core/log/reader.ts';
import { Engine } from '../../src/worker/engine.ts';
import { browserPort, type Projector } from '../../src/worker/projector.ts';
import { portProjector } from '../../src/worker/projector-client.ts';
import { OwnedChunks } from '../../src/worker/owned-chunks.ts';
import { loadBothWays, projectionAnswers } from '../helpers/projector-pair.ts';

/**
 * The projection helper (issue #15): a second worker folds the units over
 * the same file while the load reads it, and the load imports its history.
 * Whatever path the states take, every answer the page gets is the one the
 * load's own walk gives.
 */
const shapes = {
  'rc.8 with packed chunk rows': generateLog({ dialect: 'v0', seed: 3, turns: 8 }).text,
  'format 4': generateLog({ dialect: 'v4', seed: 4, turns: 8 }).text,
  'format 4, 0.2.1 vocabulary': generateLog({ dialect: 'v4', seed: 5, turns: 6, dsh021: true }).text,
  'long session, never compacted': generateLog({ dialect: 'v4', seed: 6, turns: 3, long: true }).text,
  'ends inside a turn (the restore appends closers)': generateLog({ dialect: 'v4', seed: 7, turns: 4, openLastTurn: true }).text,
};

const sample = (count: number) => [...new Set([0, 1, Math.floor(count / 3), Math.floor(count / 2), count - 2, count - 1])].filter((i) => i >= 0 && i < count);

/** A load with `projector` that cannot trust its helper folds the units from its store, with the walk's answers. */
async function expectFoldedFromStore(projector: Projector, text: string): Promise<void> {
  const walk = new Engine();
  const walkSummary = await walk.load({ kind: 'file', file: new Blob([text]), name: 'a' }, () => {});
  const engine = new Engine({ projector });
  const summary = await engine.load({ kind: 'file', file: new Blob([text]), name: 'a' }, () => {});
  expect(summary.projectedBy).toBe('store');
  const indexes = sample(summary.count);
  expect(projectionAnswers(engine, summary, indexes)).toEqual(projectionAnswers(walk, walkSummary, indexes));
}

describe('projection helper', () => {
  it.each(Object.entries(shapes))('%s: the helper\'s history gives the walk\'s answers', async (_shape, text) => {
    const { walk, helped } = await loadBothWays(text);
    expect(walk.summary.projectedBy).toBe('walk');
    expect(helped.summary.projectedBy).toBe('helper');
    // How long the helped load waited for its helper: a time within the load's own, and none without a helper.
    expect(walk.summary.helperWaitMs).toBeUndefined();
    expect(helped.summary.helperWaitMs).toBeGreaterThanOrEqual(0);
    expect(helped.summary.helperWaitMs).toBeLessThanOrEqual(helped.summary.loadMs + 1); // (two clocks, each to the ms)
    expect(helped.summary.count).toBe(walk.summary.count);
    const indexes = sample(walk.summary.count);
    expect(projectionAnswers(helped.engine, helped.summary, indexes)).toEqual(projectionAnswers(walk.engine, walk.summary, indexes));
    // Not an empty comparison: units changed along the log.
    expect(walk.summary.projectionUnits.some((u) => u.changes.length > 5)).toBe(true);
  });

  it('a log with payload findings: the helper, which does not check payloads, gives the walk\'s answers', async () => {
    // Payload findings never change what is committed, so the helper's reader leaves them out (they
    // would be dropped): a todo list that is not a list and a title that is a number must not matter.
    const lines = shapes['format 4'].split('\n');
    let broken = 0;
    const text = lines.map((line) => {
      if (line.includes('"type":"todo/write"') && broken++ % 2 === 0) return line.replace(/"todos":\[.*\]\}\}$/, '"todos":"not a list"}}');
      if (line.includes('"type":"session/title"')) return line.replace(/"title":"[^"]*"/, '"title":42');
      return line;
    }).join('\n');
    const { walk, helped } = await loadBothWays(text);
    expect(walk.summary.diagnostics.filter((d) => d.code === 'payload.schema').length).toBeGreaterThan(2);
    expect(helped.summary.projectedBy).toBe('helper');
    expect(helped.summary.diagnostics).toEqual(walk.summary.diagnostics);
    const indexes = sample(walk.summary.count);
    expect(projectionAnswers(helped.engine, helped.summary, indexes)).toEqual(projectionAnswers(walk.engine, walk.summary, indexes));
  });

  it('the restore\'s synthetic events reach the imported registry', async () => {
    const { walk, helped } = await loadBothWays(shapes['ends inside a turn (the restore appends closers)']);
    expect(walk.summary.syntheticCount).toBeGreaterThan(0);
    const last = walk.summary.count - 1;
    expect(helped.engine.projectionsAtIndex(last)).toEqual(walk.engine.projectionsAtIndex(last));
    const changedBySynthetic = walk.summary.projectionUnits.filter((u) => u.changes.some((seq) => seq > walk.summary.lastSeq));
    expect(changedBySynthetic.length).toBeGreaterThan(0);
  });

  it('a helper that read another log is not trusted: the load folds the units from its store', async () => {
    const text = shapes['format 4'];
    const other = generateLog({ dialect: 'v4', seed: 99, turns: 3 }).text;
    const wrongLog: Projector = { project: () => ({ result: projectLog([new TextEncoder().encode(other)]), cancel() {}, lastHeard: () => Date.now() }) };
    await expectFoldedFromStore(wrongLog, text);
  });

  it('a cancel while the load waits for its helper stops both at once', async () => {
    let cancelled = 0;
    let settle: (p: { history: null; error: string }) => void = () => {};
    // A helper that answers only when told to stop.
    const silent: Projector = { project: () => ({ result: new Promise((resolve) => { settle = resolve; }), cancel() { cancelled++; settle({ history: null, error: 'cancelled' }); }, lastHeard: () => Date.now() }) };
    const engine = new Engine({ projector: silent });
    // It says it is alive all along: without the cancel reaching it, the load would wait past this test's timeout.
    const load = engine.load({ kind: 'file', file: new Blob([shapes['format 4']]), name: 'a' }, (p) => { if (p.phase === 'indexing') engine.cancel(); });
    await expect(load).rejects.toThrow(/cancelled/);
    expect(cancelled).toBeGreaterThan(0);
  }, 8000);

  it('a helper that falls silent (it crashed) is given up on: the load folds the units from its store', async () => {
    const started = Date.now();
    const crashed: Projector = { project: () => ({ result: new Promise(() => {}), cancel() {}, lastHeard: () => started }) };
    await expectFoldedFromStore(crashed, shapes['format 4']);
  }, 20_000);

  it('a helper that never starts costs one wait: the load folds the units from its store, and the next load does not ask it', async () => {
    // A channel with nobody at the other end: the job waits in the port, nothing ever answers.
    const channel = new MessageChannel();
    const engine = new Engine({ projector: portProjector(browserPort(channel.port2)) });
    const first = await engine.load({ kind: 'file', file: new Blob([shapes['format 4']]), name: 'a' }, () => {});
    expect(first.projectedBy).toBe('store');
    const second = await engine.load({ kind: 'file', file: new Blob([shapes['format 4']]), name: 'a' }, () => {});
    expect(second.projectedBy).toBe('walk');
    channel.port1.close();
    channel.port2.close();
  }, 20_000);

  it('a fold that throws in the helper is the finding the walk gives', async () => {
    const failing: Projector = { project: () => ({ result: Promise.resolve({ history: null, error: 'unit exploded' }), cancel() {}, lastHeard: () => Date.now() }) };
    const engine = new Engine({ projector: failing });
    const summary = await engine.load({ kind: 'file', file: new Blob([shapes['format 4']]), name: 'a' }, () => {});
    expect(summary.diagnostics.find((d) => d.code === 'analysis.failed')?.message).toContain('unit exploded');
    expect(summary.count).toBeGreaterThan(0);
  });

  it('projectLog drives each committed event once, but for the chunk lines it skipped, and its history continues where it stopped', async () => {
    const text = shapes['rc.8 with packed chunk rows'];
    const projected = await projectLog([new TextEncoder().encode(text)]);
    const read = await readLog([new TextEncoder().encode(text)], { retainEvents: true });
    expect(projected.error).toBeNull();
    // The events on the skipped lines are chunk deltas; with them, every committed event is accounted for.
    const skipped = new Set(projected.skips!.lines);
    const onSkipped = read.events.filter((_e, i) => skipped.has(read.origins[i].line));
    expect(onSkipped.length).toBeGreaterThan(read.events.length / 4);
    const kinds = new Set(onSkipped.map((e) => `${e.type}:${e.data.chunk.type}`));
    expect(kinds).toContain('assistant/chunk:reasoning-delta');
    expect([...kinds].every((k) => k.startsWith('assistant/chunk:') && k !== 'assistant/chunk:usage')).toBe(true);
    expect(projected.history!.driven + onSkipped.length).toBe(read.events.length);
    // Imported as the load imports it (driven through the last event), then driven by nothing more:
    // each unit's state equals a registry that drove every event itself.
    const bySeq = new Map(read.events.map((e) => [e.seq, e]));
    const direct = loadRegistry(read, (s) => bySeq.get(s));
    for (const e of read.events) direct.apply(e);
    const imported = loadRegistry(read, (s) => bySeq.get(s));
    imported.importHistory({ ...projected.history!, driven: read.events.length, lastSeq: read.events.at(-1)!.seq });
    expect(imported.snapshot()).toEqual(direct.snapshot());
    for (const seq of [0, 10, Math.floor(read.events.length / 2), read.events.at(-1)!.seq]) expect(imported.snapshotAt(seq)).toEqual(direct.snapshotAt(seq));
    for (const u of direct.units) expect(Array.from(imported.changeSeqsWhere(u.key, false))).toEqual(Array.from(direct.changeSeqsWhere(u.key, false)));
  });

  it('the helper frees each chunk of its file once read, and folds the same history', async () => {
    const bytes = new TextEncoder().encode(shapes['format 4']);
    const handed: Uint8Array[] = [];
    const own = new OwnedChunks();
    const chunks = own.track((function* () {
      for (let o = 0; o < bytes.length; o += 4096) {
        const chunk = bytes.slice(o, o + 4096);
        handed.push(chunk);
        yield chunk;
      }
    })());
    const freed = await projectLog(chunks, { onLetGo: own.letGo });
    const kept = await projectLog([bytes]);
    expect(handed.length).toBeGreaterThan(3);
    expect(handed.filter((c) => c.byteLength > 0)).toEqual([]);
    expect(freed.error).toBeNull();
    expect(freed.history).toEqual(kept.history);
    expect(freed.skips).toEqual(kept.skips);
  });

  it('an import refuses a history of other units', async () => {
    const v0 = await projectLog([new TextEncoder().encode(shapes['rc.8 with packed chunk rows'])]);
    const read = await readLog([new TextEncoder().encode(shapes['format 4, 0.2.1 vocabulary'])], { retainEvents: false });
    const registry = loadRegistry(read, undefined);
    expect(() => registry.importHistory(v0.history!)).toThrow(/does not fit/);
  });
});
