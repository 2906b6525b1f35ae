import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { callAtIndex, usageColumns } from '../../src/core/charts/aligned.ts';
import { seriesValueAt } from '../../src/core/charts/series.ts';
import { Engine } from '../../src/worker/engine.ts';
import { corpusLogs } from './corpus-dir.ts';

/**
 * The charts' data (issue #19) against the core's own figures on every real
 * log: at three cursors, the usage chart's surface estimate equals the
 * cursor state's token total, and its context window equals the
 * contextPressure unit's; the per-call bars, summed over the last attempt of
 * each step, equal the tokenUsage unit's totals at the end of the log.
 */
const logs = corpusLogs();
/** How many logs exercised each comparison with real figures (the checks must not pass on empty data). */
const exercised = { windows: 0, usage: 0, surface: 0 };

describe('charts agree with the core on real logs', () => {
  it.each(logs.map((l) => [l.name, l] as const))('%s', async (_name, log) => {
    const engine = new Engine();
    const summary = await engine.load({ kind: 'text', text: fs.readFileSync(log.file, 'utf8'), name: log.name }, () => {});
    const data = engine.charts();
    const cols = usageColumns(data.surface, data.calls);
    const last = summary.count - 1;
    const cursors = [...new Set([0, Math.floor(last / 2), last, ...data.calls.slice(0, 2).map((c) => c.index)])].filter((i) => i >= 0);
    for (const at of cursors) {
      const state = engine.state({ index: at, window: { from: 0, count: 0 } });
      expect(seriesValueAt(data.surface.x, data.surface.tokens, at), `surface tokens at ${at}`).toBe(state.tokens);
      if (state.tokens > 0) exercised.surface++;
      const pressure = engine.projectionsAtIndex(at).find((p) => p.key === 'contextPressure')?.view as { contextWindow?: number } | undefined;
      const k = cols.x.findLastIndex((x) => x <= at);
      const call = callAtIndex(data.calls, at);
      // The chart's window is the one in force at the last call's cut; the unit's is the newest request/context.
      if (call >= 0 && data.calls[call].index === at) {
        expect(k >= 0 ? cols.window[k] ?? undefined : undefined, `window at ${at}`).toBe(pressure?.contextWindow);
        if (pressure?.contextWindow) exercised.windows++;
      }
    }
    const usage = engine.projectionsAtIndex(last).find((p) => p.key === 'tokenUsage')?.view as Record<string, number> | undefined;
    const lastAttempt = new Map<string, (typeof data.calls)[number]>();
    for (const c of data.calls) { const r = summary.requests[c.call]; lastAttempt.set(`${r.turn}.${r.step}`, c); }
    const sum = (k: 'fresh' | 'cacheRead' | 'cacheWrite' | 'output') => [...lastAttempt.values()].reduce((n, c) => n + (c[k] ?? 0), 0);
    if (usage) {
      expect({ fresh: sum('fresh'), cacheRead: sum('cacheRead'), cacheWrite: sum('cacheWrite'), output: sum('output') })
        .toEqual({ fresh: usage.uncachedInputTokens, cacheRead: usage.cacheReadTokens, cacheWrite: usage.cacheWriteTokens, output: usage.outputTokens });
      if (usage.outputTokens > 0) exercised.usage++;
    }
  });

  it('compared real figures on most logs', () => {
    expect(exercised.surface).toBeGreaterThan(logs.length);
    expect(exercised.usage).toBeGreaterThan(logs.length / 2);
    expect(exercised.windows).toBeGreaterThan(10);
  });
});
