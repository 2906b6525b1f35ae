import { describe, expect, it } from 'vitest';
import { inspect } from '../../src/core/inspect.ts';
import { readLogFile } from '../../scripts/node-source.ts';
import { corpusLogs } from './corpus-dir.ts';

const logs = corpusLogs();

describe('reader on the real DSH corpus', () => {
  it('finds the whole public set', () => {
    expect(logs.length).toBeGreaterThanOrEqual(108);
    expect(logs.filter((l) => l.expected).length).toBeGreaterThanOrEqual(101);
  });

  it.each(logs.map((l) => [l.name, l] as const))('%s loads', async (_name, log) => {
    const result = await readLogFile(log.file);
    expect(result.header ?? result.events.length).toBeTruthy();
    const ref = log.expected;
    if (!ref || ref.eventCount === null) return; // no reference, or refused by DSH (checked by conformance)
    const got = inspect(result);
    expect({ eventCount: got.eventCount, lastSeq: got.lastSeq, eventTypeCounts: got.eventTypeCounts, tornTail: got.tornTail })
      .toEqual({ eventCount: ref.eventCount, lastSeq: ref.lastSeq, eventTypeCounts: ref.eventTypeCounts, tornTail: ref.scan.tornTail ?? ref.realizedScan?.tornTail ?? false });
  });
});
