import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readLogText } from '../../src/core/log/reader.ts';
import { crossingAt, type Crossing } from '../../src/core/replay/crossing.ts';
import { buildMembership, crossedAt } from '../../src/core/replay/membership.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { foldSurface } from '../../src/core/surface/fold.ts';
import { Engine } from '../../src/worker/engine.ts';
import { corpusLogs } from './corpus-dir.ts';

const logs = corpusLogs();

describe('context membership: the bars a cursor crosses, by row, are the surface the fold gives (every corpus log)', () => {
  it.each(logs.map((l) => [l.name, l] as const))('%s', async (_name, log) => {
    const text = fs.readFileSync(log.file, 'utf8');
    const summary = await new Engine().load({ kind: 'text', text, name: log.name }, () => {});
    const session = foldSession(readLogText(text));
    const m = buildMembership({ seq: summary.columns.seq, surfaceChange: summary.columns.surfaceChange, count: summary.count, replacements: summary.replacements });
    expect(m.complete).toBe(true);
    expect(m.links.at.length).toBe(summary.replacements.length);
    // The first replace (just before and at it) when there is one, the middle, the end.
    const first = m.links.at.length ? m.links.at[0] : Math.floor(summary.count / 3);
    for (const i of new Set([Math.max(0, first - 1), first, Math.floor(summary.count / 2), summary.count - 1])) {
      if (i < 0 || i >= summary.count) continue;
      const expected = foldSurface(session.events.slice(0, i + 1), session.read.dialect).state.nodes;
      expect(Array.from(crossedAt(m, i), (k) => m.seq[k]), `cursor ${i}`).toEqual(expected);
    }
    // The set a step walks from the one before (the lane's highlight) is the set rebuilt, at every epoch, either way.
    let walked: Crossing = crossingAt(m, 0);
    for (const epoch of [...Array.from({ length: m.nodes }, (_, e) => e + 1), ...Array.from({ length: m.nodes }, (_, e) => m.nodes - 1 - e)]) {
      walked = crossingAt(m, epoch, walked);
      expect(Array.from(walked.nodes), `epoch ${epoch}`).toEqual(epoch === 0 ? [] : Array.from(crossedAt(m, m.changes[epoch - 1])));
    }
  });
});
