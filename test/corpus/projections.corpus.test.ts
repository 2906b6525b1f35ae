import { describe, expect, it } from 'vitest';
import { readLogFile } from '../../scripts/node-source.ts';
import { foldProjections } from '../../src/core/projections/index.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { corpusLogs, type CorpusLog } from './corpus-dir.ts';

const referenced = corpusLogs().filter((l) => l.expected && 'projections' in l.expected);
const withValues = referenced.filter((l) => l.expected.projections !== null);
const refused = referenced.filter((l) => l.expected.projections === null);

async function fold(log: CorpusLog) {
  const session = foldSession(await readLogFile(log.file));
  const registry = foldProjections(session.read.header, session.events, { dialect: session.read.dialect });
  return { session, registry, snapshot: registry.snapshot() };
}

/**
 * Every unit's value and asOfSeq equal DSH's own (reference `projections`;
 * its asOfSeq counts the appended session/end-seed, which foldSession also
 * appends). A refused log has `projections: null`: DSH serves nothing.
 */
describe('projections equal DSH reference values', () => {
  it('covers every referenced log', () => expect(referenced.length).toBeGreaterThanOrEqual(101));

  it.each(withValues.map((l) => [l.name, l] as const))('%s', async (_name, log) => {
    const { registry, snapshot } = await fold(log);
    const actual: Record<string, { asOfSeq: number; value: unknown }> = {};
    for (const key of Object.keys(log.expected.projections)) {
      actual[key] = { asOfSeq: snapshot.asOfSeq, value: snapshot.values[key] };
    }
    expect(actual).toEqual(log.expected.projections);
    // Key order too: the views are shown and exported as JSON, which should read as DSH's does.
    expect(JSON.stringify(actual)).toBe(JSON.stringify(log.expected.projections));
    expect(snapshot.failures).toBeUndefined();
    // No unit DSH's snapshot lacks (a unit the log cannot derive is listed in projectionsOmitted, never faked).
    expect(Object.keys(snapshot.values).sort()).toEqual(Object.keys(log.expected.projections).sort());
    expect(registry.purityFindings.filter((f) => f.ignoredEvent)).toEqual([]);
    for (const key of Object.keys(log.expected.projectionsOmitted ?? {})) expect(snapshot.values).not.toHaveProperty(key);
  });

  it.each(refused.map((l) => [l.name, l] as const))('%s (refused by DSH: no projections)', async (_name, log) => {
    const { session } = await fold(log);
    expect(session.ok).toBe(false);
  });

  it('checkpoint → restore round trip equals the live fold on every log', async () => {
    for (const log of withValues) {
      const { session, registry, snapshot } = await fold(log);
      const events = session.events;
      const mid = Math.floor(events.length / 2);
      const early = foldProjections(session.read.header, events, { dialect: session.read.dialect, upTo: events[mid].seq });
      const cp = early.checkpoint();
      const floor = registry.restoreFloor(cp)!;
      const restored = registry.restore(cp, events.filter((e) => e.seq >= floor), floor);
      expect(restored.snapshot.values, log.name).toEqual(snapshot.values);
      expect(restored.snapshot.asOfSeq).toBe(snapshot.asOfSeq);
    }
  });
});
