import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src/worker/engine.ts';
import { summaryFromWire, summaryToWire } from '../../src/worker/request-rows-wire.ts';
import { corpusLogs } from './corpus-dir.ts';

/**
 * The Requests rows cross to the page packed (issue #15): on every real log,
 * what the page reads back after the transfer equals the rows the engine made,
 * with their optional figures, outcomes, routes and break reasons.
 */
const logs = corpusLogs();
const seen = { rows: 0, outcomes: 0, reasons: 0, providers: 0, cacheRead: 0 };

describe('the Requests rows the page reads equal the engine\'s, on real logs', () => {
  it.each(logs.map((l) => [l.name, l] as const))('%s', async (_name, log) => {
    const summary = await new Engine().load({ kind: 'text', text: fs.readFileSync(log.file, 'utf8'), name: log.name }, () => {});
    const { wire, transfer } = summaryToWire(summary);
    const received = summaryFromWire(structuredClone(wire, { transfer }));
    // What was packed came from a fresh load: compare against another one (the transfer detached the columns).
    const again = await new Engine().load({ kind: 'text', text: fs.readFileSync(log.file, 'utf8'), name: log.name }, () => {});
    expect(received.requests).toEqual(again.requests);
    // The page finds a call by its place among the cuts: call k is row k, its cut the k-th, ascending.
    expect(again.requests.every((r, k) => r.index === k && r.cutIndex === again.callCuts[k] && (k === 0 || again.callCuts[k - 1] <= r.cutIndex))).toBe(true);
    expect([...received.callCuts]).toEqual([...again.callCuts]);
    seen.rows += again.requests.length;
    for (const r of again.requests) {
      if (r.outcome !== undefined) seen.outcomes++;
      if (r.reasons.length) seen.reasons++;
      if (r.tokens.provider !== undefined) seen.providers++;
      if (r.cacheReadTokens !== undefined) seen.cacheRead++;
    }
  });
  afterAll(() => {
    // The comparison ran on rows that carry each kind of field.
    for (const [k, n] of Object.entries(seen)) expect(n, k).toBeGreaterThan(0);
  });
});
